// File metadata applets: chmod (octal and symbolic modes), chown, readlink, realpath, basename, dirname, mktemp,
// stat and df.

import { FsError, type FsNode } from '../fs/vfs.js';
import { passwd, groups } from '../core/users.js';
import { fsMsg, modeString, progName, type Applet } from './util.js';

const q = (s: string) => `'${s}'`;

function applyMode(cur: number, spec: string, isDir: boolean): number | undefined {
  if (/^[0-7]+$/.test(spec)) return parseInt(spec, 8);
  let mode = cur;
  for (const clause of spec.split(',')) {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (!m) return undefined;
    const who = m[1] || 'a';
    let bits = 0;
    for (const p of m[3]) {
      const v = p === 'r' ? 4 : p === 'w' ? 2 : p === 'x' || (p === 'X' && (isDir || cur & 0o111)) ? 1 : 0;
      if (who.includes('u') || who.includes('a')) bits |= v << 6;
      if (who.includes('g') || who.includes('a')) bits |= v << 3;
      if (who.includes('o') || who.includes('a')) bits |= v;
      if (p === 's') bits |= (who.includes('u') || who.includes('a') ? 0o4000 : 0) | (who.includes('g') || who.includes('a') ? 0o2000 : 0);
      if (p === 't') bits |= 0o1000;
    }
    if (m[2] === '+') mode |= bits;
    else if (m[2] === '-') mode &= ~bits;
    else {
      let mask = 0;
      if (who.includes('u') || who.includes('a')) mask |= 0o4700;
      if (who.includes('g') || who.includes('a')) mask |= 0o2070;
      if (who.includes('o') || who.includes('a')) mask |= 0o1007;
      mode = (mode & ~mask) | bits;
    }
  }
  return mode;
}

export const chmod: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const args = argv.slice(1).filter((a) => a !== '-R' && a !== '-v' && a !== '-f');
  const [spec, ...files] = args;
  if (!spec || files.length === 0) { ctx.stderr.write(`${name}: missing operand\n`); return 1; }
  const fs = ctx.env.fs;
  let status = 0;
  for (const f of files) {
    const path = fs.resolve(ctx.cwd, f);
    const n = fs.stat(path);
    const mode = n && applyMode(n.mode, spec, n.kind === 'dir');
    try {
      if (!n) throw new FsError('ENOENT', path);
      if (mode === undefined) { ctx.stderr.write(`${name}: invalid mode: ${q(spec)}\n`); return 1; }
      fs.chmod(path, mode, ctx.cred);
    } catch (e) {
      status = 1;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: ${f}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: ${e instanceof FsError && e.code === 'ENOENT' ? 'cannot access' : 'changing permissions of'} ${q(f)}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return status;
};

export const chown: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const args = argv.slice(1).filter((a) => !a.startsWith('-'));
  const [spec, ...files] = args;
  if (!spec || files.length === 0) { ctx.stderr.write(`${name}: missing operand\n`); return 1; }
  const fs = ctx.env.fs;
  const [u, g] = spec.split(/[:.]/);
  const uid = u ? (/^\d+$/.test(u) ? Number(u) : passwd(fs).find((p) => p.name === u)?.uid) : undefined;
  const gid = g ? (/^\d+$/.test(g) ? Number(g) : groups(fs).find((p) => p.name === g)?.gid) : undefined;
  if (u && uid === undefined) { ctx.stderr.write(`${name}: invalid user: ${q(spec)}\n`); return 1; }
  let status = 0;
  for (const f of files) {
    const path = fs.resolve(ctx.cwd, f);
    const n = fs.stat(path);
    if (!n) { status = 1; ctx.stderr.write(`${name}: cannot access ${q(f)}: No such file or directory\n`); continue; }
    if (ctx.cred.uid !== 0) { status = 1; ctx.stderr.write(`${name}: changing ownership of ${q(f)}: Operation not permitted\n`); continue; }
    if (fs.isReadOnly(path)) { status = 1; ctx.stderr.write(`${name}: changing ownership of ${q(f)}: Read-only file system\n`); continue; }
    if (uid !== undefined) n.uid = uid;
    if (gid !== undefined) n.gid = gid;
  }
  void flavour;
  return status;
};

export const readlink: Applet = async (argv, ctx) => {
  const fs = ctx.env.fs;
  const f = argv.includes('-f') || argv.includes('-e');
  const target = argv.slice(1).find((a) => !a.startsWith('-'));
  if (!target) return 1;
  const path = fs.resolve(ctx.cwd, target);
  if (f) {
    try { ctx.stdout.write(`${fs.realpath(path)}\n`); return 0; } catch { return 1; }
  }
  const n = fs.lstat(path);
  if (n?.kind !== 'symlink') return 1;
  ctx.stdout.write(`${n.target}\n`);
  return 0;
};

export const realpath: Applet = async (argv, ctx, flavour) => {
  const fs = ctx.env.fs;
  let status = 0;
  for (const t of argv.slice(1).filter((a) => !a.startsWith('-'))) {
    try { ctx.stdout.write(`${fs.realpath(fs.resolve(ctx.cwd, t))}\n`); } catch (e) {
      status = 1;
      ctx.stderr.write(`${progName(argv)}: ${t}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return status;
};

export const basename: Applet = async (argv, ctx) => {
  const [p, suffix] = argv.slice(1);
  if (p === undefined) { ctx.stderr.write(`${progName(argv)}: missing operand\n`); return 1; }
  let b = p.replace(/\/+$/, '').replace(/^.*\//, '') || (p.startsWith('/') ? '/' : '');
  if (suffix && b.endsWith(suffix) && b !== suffix) b = b.slice(0, -suffix.length);
  ctx.stdout.write(`${b}\n`);
  return 0;
};

export const dirname: Applet = async (argv, ctx) => {
  const p = argv[1];
  if (p === undefined) { ctx.stderr.write(`${progName(argv)}: missing operand\n`); return 1; }
  const t = p.replace(/\/+$/, '');
  const i = t.lastIndexOf('/');
  ctx.stdout.write(`${i < 0 ? '.' : i === 0 ? '/' : t.slice(0, i).replace(/\/+$/, '') || '/'}\n`);
  return 0;
};

export const mktemp: Applet = async (argv, ctx) => {
  const dir = argv.includes('-d');
  const tmpl = argv.slice(1).find((a) => !a.startsWith('-')) ?? 'tmp.XXXXXXXXXX';
  const rand = () => Math.random().toString(36).slice(2, 12).padEnd(10, 'x');
  const name = tmpl.replace(/X+$/, (m) => rand().slice(0, m.length));
  const path = tmpl.includes('/') ? ctx.env.fs.resolve(ctx.cwd, name) : `/tmp/${name}`;
  if (dir) ctx.env.fs.mkdir(path, { mode: 0o700, cred: ctx.cred });
  else ctx.env.fs.writeFile(path, '', { mode: 0o600, cred: ctx.cred });
  ctx.stdout.write(`${path}\n`);
  return 0;
};

export const stat: Applet = async (argv, ctx, flavour) => {
  const fs = ctx.env.fs;
  const fmt = argv.find((_, i) => argv[i - 1] === '-c');
  let status = 0;
  for (const t of argv.slice(1).filter((a, i) => !a.startsWith('-') && argv[i] !== '-c' && a !== fmt)) {
    const path = fs.resolve(ctx.cwd, t);
    const n: FsNode | undefined = fs.lstat(path);
    if (!n) { status = 1; ctx.stderr.write(flavour === 'busybox' ? `stat: can't stat '${t}': No such file or directory\n` : `stat: cannot statx '${t}': No such file or directory\n`); continue; }
    const size = n.kind === 'file' ? n.data.length : n.kind === 'dir' ? 4096 : n.target.length;
    if (fmt) {
      ctx.stdout.write(`${fmt.replace(/%([anAsUGuglFYy])/g, (_, c: string) => {
        switch (c) {
          case 'a': return (n.mode & 0o7777).toString(8);
          case 'A': return modeString(n);
          case 'n': return t;
          case 's': return String(size);
          case 'u': return String(n.uid);
          case 'g': return String(n.gid);
          case 'U': return passwd(fs).find((p) => p.uid === n.uid)?.name ?? 'UNKNOWN';
          case 'G': return groups(fs).find((p) => p.gid === n.gid)?.name ?? 'UNKNOWN';
          case 'F': return n.kind === 'dir' ? 'directory' : n.kind === 'symlink' ? 'symbolic link' : size ? 'regular file' : 'regular empty file';
          case 'Y': return String(Math.floor(n.mtimeMs / 1000));
          default: return new Date(n.mtimeMs).toISOString();
        }
      })}\n`);
      continue;
    }
    ctx.stdout.write(`  File: ${t}${n.kind === 'symlink' ? ` -> ${n.target}` : ''}\n  Size: ${size}\tBlocks: ${Math.ceil(size / 512)}\n Access: (${(n.mode & 0o7777).toString(8).padStart(4, '0')}/${modeString(n)})  Uid: (${n.uid})   Gid: (${n.gid})\n`);
  }
  return status;
};

export const df: Applet = async (argv, ctx) => {
  const h = argv.includes('-h');
  const total = 61_255_492;
  const used = total - Math.floor(ctx.env.fs.freeBytes / 1024);
  const fmt = (k: number) => (h ? `${(k / 1024 / 1024).toFixed(1)}G` : String(k));
  ctx.stdout.write(`Filesystem           ${h ? '     Size' : '1K-blocks'}      Used Available Use% Mounted on\noverlay              ${fmt(total).padStart(9)} ${fmt(used).padStart(9)} ${fmt(total - used).padStart(9)}  ${Math.round((used / total) * 100)}% /\n`);
  for (const m of ctx.env.fs.mountTable()) {
    ctx.stdout.write(`${(m.source === 'tmpfs' ? 'tmpfs' : '/dev/sda1').padEnd(20)} ${fmt(total).padStart(9)} ${fmt(used).padStart(9)} ${fmt(total - used).padStart(9)}  ${Math.round((used / total) * 100)}% ${m.path}\n`);
  }
  return 0;
};
