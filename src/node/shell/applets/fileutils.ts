// File applets: cat, cp, mv, rm, mkdir, rmdir, touch, ln — with BusyBox's `can't ...` and GNU's `cannot ...`
// error wording.

import type { Ctx } from '../core/ctx.js';
import { FsError } from '../fs/vfs.js';
import { badOption, fsMsg, getopt, progName, type Applet } from './util.js';

const q = (s: string) => `'${s}'`;

export const cat: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'nuAvetsbE');
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  let failed = false;
  let lineNo = 1;
  for (const f of o.args.length ? o.args : ['-']) {
    let buf: Buffer;
    if (f === '-') buf = await ctx.stdin.readAll();
    else {
      const path = ctx.env.fs.resolve(ctx.cwd, f);
      try {
        if (ctx.env.fs.stat(path)?.kind === 'dir') throw new FsError('EISDIR', path);
        buf = ctx.env.fs.readFile(path, ctx.cred);
      } catch (e) {
        failed = true;
        if (e instanceof FsError && e.code === 'EISDIR' && flavour === 'busybox') ctx.stderr.write(`${name}: read error: Is a directory\n`);
        else ctx.stderr.write(flavour === 'busybox' ? `${name}: can't open ${q(f)}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: ${f}: ${fsMsg(ctx, flavour, e)}\n`);
        continue;
      }
    }
    if (o.flags.has('n')) {
      const text = buf.toString();
      const lines = text.split('\n');
      const last = lines.pop();
      ctx.stdout.write(lines.map((l) => `${String(lineNo++).padStart(6)}\t${l}\n`).join('') + (last ? `${String(lineNo++).padStart(6)}\t${last}` : ''));
    } else ctx.stdout.write(buf);
  }
  return failed ? 1 : 0;
};

export const mkdir: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'pm:v', { parents: 'p', 'mode:': 'm', verbose: 'v' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  if (o.args.length === 0) { ctx.stderr.write(flavour === 'gnu' ? `${name}: missing operand\nTry '${name} --help' for more information.\n` : `${name}: missing operand\n`); return 1; }
  const mode = o.values.get('m') ? parseInt(o.values.get('m')![0], 8) : 0o755;
  let status = 0;
  for (const d of o.args) {
    const path = ctx.env.fs.resolve(ctx.cwd, d);
    try {
      if (o.flags.has('p')) {
        const n = ctx.env.fs.stat(path);
        if (n?.kind === 'dir') continue;
        ctx.env.fs.mkdir(path, { parents: true, mode, cred: ctx.cred });
      } else ctx.env.fs.mkdir(path, { mode, cred: ctx.cred });
      if (o.flags.has('v')) ctx.stdout.write(`${name}: created directory '${d}'\n`);
    } catch (e) {
      status = 1;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: can't create directory ${q(d)}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: cannot create directory ${q(d)}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return status;
};

export const rmdir: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'p', { parents: 'p', 'ignore-fail-on-non-empty': 'i' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  let status = 0;
  for (const d of o.args) {
    try { ctx.env.fs.rmdir(ctx.env.fs.resolve(ctx.cwd, d), ctx.cred); } catch (e) {
      status = 1;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: ${q(d)}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: failed to remove ${q(d)}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return status;
};

export const rm: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'rRfiv', { recursive: 'r', force: 'f', verbose: 'v' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const force = o.flags.has('f');
  const recursive = o.flags.has('r') || o.flags.has('R');
  if (o.args.length === 0 && !force) { ctx.stderr.write(`${name}: missing operand\n${flavour === 'gnu' ? `Try '${name} --help' for more information.\n` : ''}`); return 1; }
  let status = 0;
  const fs = ctx.env.fs;
  for (const t of o.args) {
    const path = fs.resolve(ctx.cwd, t);
    const n = fs.lstat(path);
    try {
      if (!n) { if (force) continue; throw new FsError('ENOENT', path); }
      if (n.kind === 'dir') {
        if (!recursive) {
          status = 1;
          ctx.stderr.write(flavour === 'busybox' ? `${name}: ${q(t)} is a directory\n` : `${name}: cannot remove ${q(t)}: Is a directory\n`);
          continue;
        }
        fs.removeTree(path, ctx.cred);
      } else fs.unlink(path, ctx.cred);
      if (o.flags.has('v')) ctx.stdout.write(`removed '${t}'\n`);
    } catch (e) {
      status = 1;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: can't remove ${q(t)}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: cannot remove ${q(t)}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return status;
};

export const touch: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'cmad:t:r:', { 'no-create': 'c', 'date:': 'd' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  if (o.args.length === 0) { ctx.stderr.write(`${name}: missing file operand\n`); return 1; }
  let status = 0;
  const fs = ctx.env.fs;
  for (const t of o.args) {
    const path = fs.resolve(ctx.cwd, t);
    try {
      if (fs.stat(path)) fs.touch(path, ctx.env.clock.now(), ctx.cred);
      else if (!o.flags.has('c')) fs.writeFile(path, '', { cred: ctx.cred, mode: 0o644 });
    } catch (e) {
      status = 1;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: ${t}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: cannot touch ${q(t)}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return status;
};

function copyTree(ctx: Ctx, from: string, to: string, preserve: boolean): void {
  const fs = ctx.env.fs;
  const n = fs.stat(from)!;
  if (n.kind === 'dir') {
    if (!fs.stat(to)) fs.mkdir(to, { mode: n.mode, cred: ctx.cred });
    for (const c of fs.readdir(from, ctx.cred)) copyTree(ctx, fs.resolve(from, c.name), fs.resolve(to, c.name), preserve);
    return;
  }
  const data = fs.readFile(from, ctx.cred);
  const out = fs.writeFile(to, data, { cred: ctx.cred, mode: n.mode });
  if (preserve) out.mtimeMs = n.mtimeMs;
}

export const cp: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'rRapfvLPdnT', { recursive: 'r', archive: 'a', force: 'f', verbose: 'v', 'no-clobber': 'n' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const fs = ctx.env.fs;
  if (o.args.length < 2) {
    ctx.stderr.write(o.args.length === 0 ? `${name}: missing file operand\n` : `${name}: missing destination file operand after ${q(o.args[0])}\n`);
    if (flavour === 'gnu') ctx.stderr.write(`Try '${name} --help' for more information.\n`);
    return 1;
  }
  const recursive = o.flags.has('r') || o.flags.has('R') || o.flags.has('a');
  const dest = o.args[o.args.length - 1];
  const destAbs = fs.resolve(ctx.cwd, dest);
  const destIsDir = fs.stat(destAbs)?.kind === 'dir';
  const sources = o.args.slice(0, -1);
  if (sources.length > 1 && !destIsDir) { ctx.stderr.write(flavour === 'busybox' ? `${name}: ${q(dest)} is not a directory\n` : `${name}: target ${q(dest)} is not a directory\n`); return 1; }
  let status = 0;
  for (const s of sources) {
    const src = fs.resolve(ctx.cwd, s);
    const n = fs.stat(src);
    if (!n) {
      status = 1;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: can't stat ${q(s)}: No such file or directory\n` : `${name}: cannot stat ${q(s)}: No such file or directory\n`);
      continue;
    }
    if (n.kind === 'dir' && !recursive) {
      status = 1;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: omitting directory ${q(s)}\n` : `${name}: -r not specified; omitting directory ${q(s)}\n`);
      continue;
    }
    const target = destIsDir ? fs.resolve(destAbs, s.replace(/\/+$/, '').replace(/^.*\//, '')) : destAbs;
    try {
      copyTree(ctx, src, target, o.flags.has('a') || o.flags.has('p'));
    } catch (e) {
      status = 1;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: can't create ${q(dest)}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: cannot create regular file ${q(dest)}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return status;
};

export const mv: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'fivnT', { force: 'f', verbose: 'v' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const fs = ctx.env.fs;
  if (o.args.length < 2) { ctx.stderr.write(`${name}: missing file operand\n`); return 1; }
  const dest = o.args[o.args.length - 1];
  const destAbs = fs.resolve(ctx.cwd, dest);
  const destIsDir = fs.stat(destAbs)?.kind === 'dir';
  let status = 0;
  for (const s of o.args.slice(0, -1)) {
    const src = fs.resolve(ctx.cwd, s);
    const target = destIsDir ? fs.resolve(destAbs, s.replace(/\/+$/, '').replace(/^.*\//, '')) : destAbs;
    try {
      if (!fs.lstat(src)) throw new FsError('ENOENT', src);
      fs.rename(src, target, ctx.cred);
    } catch (e) {
      status = 1;
      if (e instanceof FsError && e.code === 'ENOENT') ctx.stderr.write(flavour === 'busybox' ? `${name}: can't rename ${q(s)}: No such file or directory\n` : `${name}: cannot stat ${q(s)}: No such file or directory\n`);
      else ctx.stderr.write(flavour === 'busybox' ? `${name}: can't rename ${q(s)}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: cannot move ${q(s)} to ${q(dest)}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return status;
};

export const ln: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'sfnvT', { symbolic: 's', force: 'f' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const fs = ctx.env.fs;
  const [target, link] = o.args;
  if (!target) { ctx.stderr.write(`${name}: missing file operand\n`); return 1; }
  let linkAbs = fs.resolve(ctx.cwd, link ?? target.replace(/^.*\//, ''));
  if (fs.stat(linkAbs)?.kind === 'dir' && !o.flags.has('n')) linkAbs = fs.resolve(linkAbs, target.replace(/^.*\//, ''));
  try {
    if (o.flags.has('f') && fs.lstat(linkAbs)) fs.unlink(linkAbs, ctx.cred);
    if (o.flags.has('s')) fs.symlink(target, linkAbs, ctx.cred);
    else {
      const src = fs.resolve(ctx.cwd, target);
      const n = fs.stat(src);
      if (!n) throw new FsError('ENOENT', src);
      fs.writeFile(linkAbs, fs.readFile(src, ctx.cred), { mode: n.mode, cred: ctx.cred, exclusive: true });
    }
  } catch (e) {
    ctx.stderr.write(flavour === 'busybox' ? `${name}: ${link ?? target}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: failed to create ${o.flags.has('s') ? 'symbolic ' : 'hard '}link ${q(link ?? target)}: ${fsMsg(ctx, flavour, e)}\n`);
    return 1;
  }
  return 0;
};
