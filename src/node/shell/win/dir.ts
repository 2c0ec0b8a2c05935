// cmd's DIR: the volume header, `MM/DD/YYYY  hh:mm AM    <DIR>          name` lines, File(s)/Dir(s) totals with free
// bytes, /B bare names, /A (hidden too), /S recursion, and "File Not Found".

import type { Ctx } from '../core/ctx.js';
import type { FsNode } from '../fs/vfs.js';
import { crlf, dirDate, thousands, volumeSerial } from './format.js';
import { matchPattern } from '../sh/glob.js';

function sizeOf(n: FsNode): number {
  return n.kind === 'file' ? n.data.length : 0;
}

function hidden(n: FsNode): boolean {
  return n.name.startsWith('..') || /^(ProgramData|WcSandboxState|\$Recycle\.Bin|System Volume Information)$/i.test(n.name);
}

export function dir(ctx: Ctx, args: string[]): number {
  const fs = ctx.env.fs;
  const flags = args.filter((a) => a.startsWith('/')).map((a) => a.toLowerCase());
  const targets = args.filter((a) => !a.startsWith('/')).map((a) => a.replace(/^"|"$/g, ''));
  const bare = flags.includes('/b');
  const all = flags.some((f) => f.startsWith('/a'));
  const recurse = flags.includes('/s');
  const out: string[] = [];
  const err: string[] = [];
  if (!bare) out.push(' Volume in drive C has no label.', ` Volume Serial Number is ${volumeSerial(ctx.env.hostname)}`);
  let totalFiles = 0;
  let totalBytes = 0;
  let found = false;
  const list = (dirPath: string, pattern: string | undefined) => {
    const node = fs.stat(dirPath);
    if (!node || node.kind !== 'dir') return;
    const entries = fs.entries(node)
      .filter((c) => (all || !hidden(c)) && (!pattern || matchPattern(pattern.replace(/\*\.\*$/, '*'), c.name, true)))
      .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
    const isRoot = /^[A-Za-z]:\\$/.test(dirPath);
    if (entries.length === 0 && pattern) return;
    found = true;
    if (bare) {
      for (const e of entries) out.push(recurse ? `${dirPath.replace(/\\$/, '')}\\${e.name}` : e.name);
    } else {
      out.push('', ` Directory of ${dirPath}`, '');
      let files = 0;
      let bytes = 0;
      let dirs = 0;
      if (!isRoot && !pattern) {
        out.push(`${dirDate(node.mtimeMs)}    <DIR>          .`);
        const parent = fs.stat(fs.resolve(dirPath, '..'));
        out.push(`${dirDate(parent?.mtimeMs ?? node.mtimeMs)}    <DIR>          ..`);
        dirs += 2;
      }
      for (const e of entries) {
        const target = e.kind === 'symlink' ? fs.stat(fs.resolve(dirPath, e.name)) : e;
        if (e.kind === 'symlink') out.push(`${dirDate(e.mtimeMs)}    <${target?.kind === 'dir' ? 'SYMLINKD' : 'SYMLINK'}>     ${e.name} [${e.target}]`);
        else if (e.kind === 'dir') out.push(`${dirDate(e.mtimeMs)}    <DIR>          ${e.name}`);
        else out.push(`${dirDate(e.mtimeMs)} ${thousands(sizeOf(e)).padStart(17)} ${e.name}`);
        if (target?.kind === 'dir') dirs++;
        else { files++; bytes += target ? sizeOf(target) : 0; }
      }
      out.push(`${String(files).padStart(16)} File(s)${thousands(bytes).padStart(15)} bytes`);
      if (!recurse) out.push(`${String(dirs).padStart(16)} Dir(s)${thousands(fs.freeBytes).padStart(16)} bytes free`);
      totalFiles += files;
      totalBytes += bytes;
    }
    if (recurse) for (const e of entries) if (e.kind === 'dir') list(fs.resolve(dirPath, e.name), pattern);
  };
  for (const t of targets.length ? targets : ['.']) {
    const abs = fs.resolve(ctx.cwd, t);
    const n = fs.stat(abs);
    if (n?.kind === 'dir') list(abs, undefined);
    else if (n) list(fs.resolve(abs, '..'), abs.replace(/^.*\\/, ''));
    else {
      const parent = fs.stat(fs.resolve(abs, '..'));
      if (parent?.kind === 'dir' && /[*?]/.test(t)) list(fs.resolve(abs, '..'), abs.replace(/^.*\\/, ''));
      else if (!parent) { if (!bare) out.push(''); err.push('The system cannot find the path specified.'); continue; }
      else if (!bare) out.push('', ` Directory of ${fs.resolve(abs, '..')}`, '');
    }
  }
  if (recurse && !bare && found) out.push('', '     Total Files Listed:', `${String(totalFiles).padStart(16)} File(s)${thousands(totalBytes).padStart(15)} bytes`, `${String(0).padStart(16)} Dir(s)${thousands(fs.freeBytes).padStart(16)} bytes free`);
  ctx.stdout.write(crlf(out));
  if (!found && err.length === 0) err.push('File Not Found');
  if (err.length) { ctx.stderr.write(crlf(err)); return 1; }
  return 0;
}
