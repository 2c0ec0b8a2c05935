// `tar` as GNU tar (Debian), BusyBox tar and bsdtar (Windows tar.exe) run it, including what `kubectl cp` runs:
// `tar cf - <path>` from a pod and `tar -xmf - -C <dir>` / `tar --no-same-permissions --no-same-owner -xmf - -C <dir>`
// into one (kubectl/pkg/cmd/cp/cp.go).

import { gunzipSync, gzipSync } from 'node:zlib';
import type { Ctx } from '../core/ctx.js';
import { errText, winText } from '../core/errno.js';
import { groupName, userName } from '../core/users.js';
import { FsError } from '../fs/vfs.js';
import { decodeTar, encodeTar, TarFormatError, type TarEntry } from './ustar.js';

export type TarFlavour = 'gnu' | 'busybox' | 'bsdtar';

interface TarOpts {
  mode?: 'c' | 'x' | 't';
  file?: string;
  dir?: string;
  verbose: boolean;
  gzip: boolean;
  touch: boolean;
  noSameOwner: boolean;
  noSamePerms: boolean;
  toStdout: boolean;
  strip: number;
  members: string[];
}

const WITH_ARG = new Set(['f', 'C']);

function parse(args: string[]): TarOpts | string {
  const o: TarOpts = { verbose: false, gzip: false, touch: false, noSameOwner: false, noSamePerms: false, toStdout: false, strip: 0, members: [] };
  const queue: string[] = [];
  const setFlag = (c: string, takeArg: () => string | undefined): string | undefined => {
    switch (c) {
      case 'c': case 'x': case 't': o.mode = c; return undefined;
      case 'v': o.verbose = true; return undefined;
      case 'z': o.gzip = true; return undefined;
      case 'm': o.touch = true; return undefined;
      case 'o': o.noSameOwner = true; return undefined;
      case 'p': case 'h': case 'k': return undefined;
      case 'O': o.toStdout = true; return undefined;
      case 'f': o.file = takeArg(); return o.file === undefined ? "option requires an argument -- 'f'" : undefined;
      case 'C': o.dir = takeArg(); return o.dir === undefined ? "option requires an argument -- 'C'" : undefined;
      default: return `invalid option -- '${c}'`;
    }
  };
  let i = 0;
  // The first word may be a bundle of letters without a dash (`tar cf - dir`); their arguments follow in order.
  if (args[0] && !args[0].startsWith('-')) {
    for (const c of args[0]) {
      const err = setFlag(c, () => { queue.push(c); return ''; });
      if (err) return err;
    }
    i = 1;
    for (const c of queue) {
      const v = args[i++];
      if (v === undefined) return `option requires an argument -- '${c}'`;
      if (c === 'f') o.file = v; else o.dir = v;
    }
  }
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') { o.members.push(...args.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split(/=(.*)/s, 2);
      switch (k) {
        case 'create': o.mode = 'c'; break;
        case 'extract': case 'get': o.mode = 'x'; break;
        case 'list': o.mode = 't'; break;
        case 'file': o.file = v ?? args[++i]; break;
        case 'directory': o.dir = v ?? args[++i]; break;
        case 'gzip': o.gzip = true; break;
        case 'verbose': o.verbose = true; break;
        case 'touch': o.touch = true; break;
        case 'no-same-owner': o.noSameOwner = true; break;
        case 'no-same-permissions': o.noSamePerms = true; break;
        case 'same-owner': case 'same-permissions': case 'preserve-permissions': case 'overwrite': case 'numeric-owner': break;
        case 'to-stdout': o.toStdout = true; break;
        case 'strip-components': o.strip = Number(v ?? args[++i]) || 0; break;
        default: return `unrecognized option '--${k}'`;
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        const err = setFlag(c, () => {
          if (!WITH_ARG.has(c)) return undefined;
          const rest = a.slice(j + 1);
          j = a.length;
          return rest || args[++i];
        });
        if (err) return err;
      }
      continue;
    }
    o.members.push(a);
  }
  return o;
}

function prog(f: TarFlavour): string {
  return f === 'bsdtar' ? 'tar.exe' : 'tar';
}

function fsErr(ctx: Ctx, e: unknown): string {
  return ctx.env.os === 'windows' ? winText(e) : errText(e, ctx.env.toolset === 'debian' ? 'glibc' : 'musl');
}

function memberName(ctx: Ctx, name: string): { member: string; stripped: boolean } {
  let m = ctx.env.os === 'windows' ? name.replace(/\\/g, '/').replace(/^[A-Za-z]:/, '') : name;
  const stripped = m.startsWith('/');
  m = m.replace(/^\/+/, '');
  return { member: m.replace(/\/+$/, '') || '.', stripped };
}

function collect(ctx: Ctx, abs: string, member: string, out: TarEntry[]): void {
  const fs = ctx.env.fs;
  const n = fs.lstat(abs);
  if (!n) throw new FsError('ENOENT', abs);
  const base = {
    name: member, mode: n.mode, uid: n.uid, gid: n.gid,
    uname: ctx.env.os === 'windows' ? '' : userName(fs, n.uid) ?? '', gname: ctx.env.os === 'windows' ? '' : groupName(fs, n.gid) ?? '',
    mtime: Math.floor(n.mtimeMs / 1000), data: Buffer.alloc(0), linkname: '',
  };
  if (n.kind === 'symlink') { out.push({ ...base, type: 'symlink', linkname: n.target }); return; }
  if (n.kind === 'file') { out.push({ ...base, type: 'file', data: fs.readFile(abs, ctx.cred) }); return; }
  out.push({ ...base, type: 'dir' });
  const kids = fs.readdir(abs, ctx.cred).map((c) => c.name).sort();
  for (const k of kids) collect(ctx, fs.resolve(abs, k), member === '.' ? k : `${member}/${k}`, out);
}

async function create(ctx: Ctx, o: TarOpts, flavour: TarFlavour): Promise<number> {
  const fs = ctx.env.fs;
  const p = prog(flavour);
  if (o.members.length === 0) {
    ctx.stderr.write(flavour === 'gnu' ? `${p}: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n` : `${p}: empty archive\n`);
    return 2;
  }
  const base = o.dir ? fs.resolve(ctx.cwd, o.dir) : ctx.cwd;
  if (o.dir && fs.stat(base)?.kind !== 'dir') {
    ctx.stderr.write(flavour === 'busybox' ? `${p}: can't change directory to '${o.dir}': No such file or directory\n` : `${p}: ${o.dir}: Cannot open: No such file or directory\n${p}: Error is not recoverable: exiting now\n`);
    return 2;
  }
  const entries: TarEntry[] = [];
  let failed = false;
  let warned = false;
  for (const m of o.members) {
    const { member, stripped } = memberName(ctx, m);
    if (stripped && !warned) {
      warned = true;
      ctx.stderr.write(flavour === 'gnu' ? `${p}: Removing leading \`/' from member names\n` : flavour === 'busybox' ? `${p}: removing leading '/' from member names\n` : `${p}: Removing leading '/' from member names\r\n`);
    }
    try {
      collect(ctx, fs.resolve(base, m), member, entries);
    } catch (e) {
      failed = true;
      const msg = fsErr(ctx, e);
      ctx.stderr.write(flavour === 'gnu' ? `${p}: ${m}: Cannot stat: ${msg}\n` : flavour === 'busybox' ? `${p}: can't stat '${m}': ${msg}\n` : `${p}: ${m}: Couldn't find file: ${msg}\r\n`);
    }
  }
  if (o.verbose) for (const e of entries) (o.file === '-' || !o.file ? ctx.stderr : ctx.stdout).write(`${e.name}${e.type === 'dir' ? '/' : ''}\n`);
  let archive = encodeTar(entries);
  if (o.gzip) archive = gzipSync(archive);
  if (!o.file || o.file === '-') ctx.stdout.write(archive);
  else {
    try { fs.writeFile(fs.resolve(ctx.cwd, o.file), archive, { cred: ctx.cred }); } catch (e) {
      ctx.stderr.write(`${p}: ${o.file}: Cannot open: ${fsErr(ctx, e)}\n`);
      return 2;
    }
  }
  if (failed) {
    if (flavour === 'gnu') ctx.stderr.write(`${p}: Exiting with failure status due to previous errors\n`);
    if (flavour === 'bsdtar') ctx.stderr.write(`${p}: Error exit delayed from previous errors.\r\n`);
    return flavour === 'gnu' ? 2 : 1;
  }
  return 0;
}

function modeString(e: TarEntry): string {
  const t = e.type === 'dir' ? 'd' : e.type === 'symlink' ? 'l' : e.type === 'hardlink' ? 'h' : '-';
  const bits = 'rwxrwxrwx'.split('').map((c, i) => ((e.mode >> (8 - i)) & 1 ? c : '-')).join('');
  return t + bits;
}

function listLine(e: TarEntry, flavour: TarFlavour): string {
  const d = new Date(e.mtime * 1000);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`;
  const owner = `${e.uname || e.uid}/${e.gname || e.gid}`;
  const size = String(e.data.length).padStart(flavour === 'gnu' ? Math.max(1, 19 - owner.length) : 9);
  const name = e.name + (e.type === 'dir' ? '/' : '') + (e.type === 'symlink' ? ` -> ${e.linkname}` : '');
  return `${modeString(e)} ${owner} ${size} ${date}${flavour === 'busybox' ? `:${p2(d.getUTCSeconds())}` : ''} ${name}`;
}

async function extract(ctx: Ctx, o: TarOpts, flavour: TarFlavour): Promise<number> {
  const fs = ctx.env.fs;
  const p = prog(flavour);
  let data: Buffer;
  if (!o.file || o.file === '-') data = await ctx.stdin.readAll();
  else {
    try { data = fs.readFile(fs.resolve(ctx.cwd, o.file), ctx.cred); } catch (e) {
      ctx.stderr.write(flavour === 'busybox' ? `${p}: can't open '${o.file}': ${fsErr(ctx, e)}\n` : `${p}: ${o.file}: Cannot open: ${fsErr(ctx, e)}\n${p}: Error is not recoverable: exiting now\n`);
      return 2;
    }
  }
  if (o.gzip || (data[0] === 0x1f && data[1] === 0x8b)) {
    try { data = gunzipSync(data); } catch {
      ctx.stderr.write(`${p}: invalid magic\n`);
      return 1;
    }
  }
  let entries: TarEntry[];
  try {
    entries = decodeTar(data);
    if (data.length === 0) throw new TarFormatError('empty');
  } catch (e) {
    if (!(e instanceof TarFormatError)) throw e;
    ctx.stderr.write(flavour === 'gnu' ? `${p}: This does not look like a tar archive\n${p}: Exiting with failure status due to previous errors\n`
      : flavour === 'busybox' ? `${p}: short read\n` : `${p}: Error opening archive: Unrecognized archive format\r\n`);
    return flavour === 'gnu' ? 2 : 1;
  }
  if (o.mode === 't') {
    for (const e of entries) ctx.stdout.write(`${o.verbose ? listLine(e, flavour) : e.name + (e.type === 'dir' ? '/' : '')}${ctx.env.os === 'windows' ? '\r\n' : '\n'}`);
    return 0;
  }
  const base = o.dir ? fs.resolve(ctx.cwd, o.dir) : ctx.cwd;
  if (fs.stat(base)?.kind !== 'dir') {
    ctx.stderr.write(flavour === 'busybox' ? `${p}: can't change directory to '${o.dir}': No such file or directory\n` : `${p}: ${o.dir}: Cannot open: No such file or directory\n${p}: Error is not recoverable: exiting now\n`);
    return 2;
  }
  let failed = false;
  const now = ctx.env.clock.now();
  for (const e of entries) {
    const parts = e.name.split('/').filter((x) => x && x !== '.').slice(o.strip);
    if (parts.length === 0 || parts.includes('..')) continue;
    const rel = parts.join(ctx.env.os === 'windows' ? '\\' : '/');
    const dest = fs.resolve(base, rel);
    if (o.verbose) ctx.stdout.write(`${e.name}${ctx.env.os === 'windows' ? '\r\n' : '\n'}`);
    if (o.toStdout) { if (e.type === 'file') ctx.stdout.write(e.data); continue; }
    const mode = o.noSamePerms || ctx.cred.uid !== 0 ? e.mode & ~0o022 : e.mode;
    try {
      const parent = dest.replace(/[\\/][^\\/]+$/, '');
      if (parts.length > 1 && !fs.stat(parent)) fs.mkdir(parent, { parents: true, cred: ctx.cred });
      let node;
      if (e.type === 'dir') {
        node = fs.stat(dest)?.kind === 'dir' ? fs.stat(dest)! : fs.mkdir(dest, { mode, cred: ctx.cred });
      } else if (e.type === 'symlink') {
        if (fs.lstat(dest)) fs.unlink(dest, ctx.cred);
        node = fs.symlink(e.linkname, dest, ctx.cred);
      } else if (e.type === 'file' || e.type === 'hardlink') {
        const content = e.type === 'hardlink' ? fs.readFile(fs.resolve(base, e.linkname), ctx.cred) : e.data;
        if (fs.lstat(dest)?.kind === 'symlink') fs.unlink(dest, ctx.cred);
        node = fs.writeFile(dest, content, { mode, cred: ctx.cred });
        node.mode = mode & 0o7777;
      } else continue;
      if (e.type !== 'symlink') node.mode = mode & 0o7777;
      node.mtimeMs = o.touch ? now : e.mtime * 1000;
      if (ctx.cred.uid === 0 && !o.noSameOwner && ctx.env.os === 'linux') { node.uid = e.uid; node.gid = e.gid; }
    } catch (err) {
      failed = true;
      const msg = fsErr(ctx, err);
      ctx.stderr.write(flavour === 'gnu' ? `${p}: ${e.name}: Cannot open: ${msg}\n` : flavour === 'busybox' ? `${p}: can't open '${rel}': ${msg}\n` : `${p}: ${e.name}: Can't create '${rel}'\r\n`);
      if (flavour === 'busybox') return 1;
    }
  }
  if (failed) {
    if (flavour === 'gnu') ctx.stderr.write(`${p}: Exiting with failure status due to previous errors\n`);
    if (flavour === 'bsdtar') ctx.stderr.write(`${p}: Error exit delayed from previous errors.\r\n`);
    return flavour === 'gnu' ? 2 : 1;
  }
  return 0;
}

export async function tarMain(argv: string[], ctx: Ctx, flavour: TarFlavour): Promise<number> {
  const p = prog(flavour);
  const o = parse(argv.slice(1));
  if (typeof o === 'string') {
    ctx.stderr.write(`${p}: ${o}\n${flavour === 'gnu' ? "Try 'tar --help' or 'tar --usage' for more information.\n" : ''}`);
    return 2;
  }
  if (!o.mode) {
    ctx.stderr.write(flavour === 'gnu' ? `${p}: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.\n` : `${p}: must specify one of -c, -r, -t, -u, -x\n`);
    return 2;
  }
  if (o.mode === 'c') return create(ctx, o, flavour);
  return extract(ctx, o, flavour);
}
