// ls: BusyBox's fixed-width long format (`%-10s %4u %-8.8s %-8.8s %9u`, coreutils/ls.c) and GNU's
// column-aligned one, `total` lines, -a/-A/-d/-1/-R/-t/-r/-S/-h/-n/-F, and each implementation's errors.

import type { Ctx } from '../core/ctx.js';
import { groupName, userName } from '../core/users.js';
import type { FsNode } from '../fs/vfs.js';
import { badOption, fsMsg, getopt, lsDate, modeString, progName, type Flavour } from './util.js';

interface Entry { name: string; node: FsNode; path: string }

function size(n: FsNode): number {
  if (n.kind === 'file') return (n.generate ? 0 : n.data.length);
  if (n.kind === 'symlink') return n.target.length;
  return 4096;
}

function nlink(n: FsNode): number {
  if (n.kind !== 'dir') return 1;
  let subdirs = 0;
  for (const c of n.children.values()) if (c.kind === 'dir') subdirs++;
  return 2 + subdirs;
}

function blocksK(n: FsNode): number {
  if (n.kind === 'dir') return 4;
  if (n.kind === 'symlink') return 0;
  return Math.ceil(size(n) / 4096) * 4;
}

function human(bytes: number, flavour: Flavour): string {
  if (bytes < 1024) return String(bytes);
  const units = ['K', 'M', 'G', 'T'];
  let v = bytes;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  const s = v < 10 ? (Math.ceil(v * 10) / 10).toFixed(1) : String(Math.ceil(v));
  return flavour === 'gnu' ? `${s}${units[u]}` : `${(v < 10 ? v.toFixed(1) : Math.round(v).toString())}${units[u]}`;
}

export async function ls(argv: string[], ctx: Ctx, flavour: Flavour): Promise<number> {
  const name = progName(argv);
  const o = getopt(argv.slice(1), '1aAdlhRrtSnFpCxiL', { all: 'a', 'almost-all': 'A', directory: 'd', 'human-readable': 'h', recursive: 'R', reverse: 'r', 'color:': 'c', 'color': 'c', classify: 'F' });
  if ('bad' in o) return badOption(ctx, flavour, name, o, 2);
  const f = o.flags;
  const fs = ctx.env.fs;
  const now = ctx.env.clock.now();
  const long = f.has('l') || f.has('n');
  const owner = (n: FsNode) => (f.has('n') ? String(n.uid) : userName(fs, n.uid) ?? String(n.uid));
  const group = (n: FsNode) => (f.has('n') ? String(n.gid) : groupName(fs, n.gid) ?? String(n.gid));
  const suffix = (n: FsNode) => (f.has('F') ? (n.kind === 'dir' ? '/' : n.kind === 'symlink' ? '@' : n.kind === 'file' && n.mode & 0o111 ? '*' : '') : f.has('p') && n.kind === 'dir' ? '/' : '');

  const sortEntries = (list: Entry[]) => {
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (f.has('t')) list.sort((a, b) => b.node.mtimeMs - a.node.mtimeMs);
    if (f.has('S')) list.sort((a, b) => size(b.node) - size(a.node));
    if (f.has('r')) list.reverse();
    return list;
  };

  const format = (entries: Entry[]): string[] => {
    if (!long) {
      const names = entries.map((e) => e.name + suffix(e.node));
      if (f.has('1') || !ctx.stdout.isTTY) return names;
      const width = Math.max(...names.map((n) => n.length), 0) + 2;
      const cols = Math.max(1, Math.floor(80 / width));
      const rows = Math.ceil(names.length / cols);
      const lines: string[] = [];
      for (let r = 0; r < rows; r++) {
        let line = '';
        for (let c = 0; c < cols; c++) {
          const n = names[c * rows + r];
          if (n !== undefined) line += c === cols - 1 || c * rows + r + rows >= names.length ? n : n.padEnd(width);
        }
        lines.push(line.trimEnd());
      }
      return lines;
    }
    const rows = entries.map((e) => {
      const n = e.node;
      const link = n.kind === 'symlink' ? ` -> ${n.target}` : '';
      return {
        mode: modeString(n), nlink: String(nlink(n)), owner: owner(n), group: group(n),
        size: f.has('h') ? human(size(n), flavour) : String(size(n)), date: lsDate(n.mtimeMs, now), name: e.name + suffix(n) + link,
      };
    });
    if (flavour === 'busybox') {
      return rows.map((r) => `${r.mode.padEnd(10)} ${r.nlink.padStart(4)} ${r.owner.slice(0, 8).padEnd(8)} ${r.group.slice(0, 8).padEnd(8)} ${r.size.padStart(9)} ${r.date} ${r.name}`);
    }
    const w = (k: 'nlink' | 'owner' | 'group' | 'size') => Math.max(...rows.map((r) => r[k].length));
    const [wn, wo, wg, ws] = [w('nlink'), w('owner'), w('group'), w('size')];
    return rows.map((r) => `${r.mode} ${r.nlink.padStart(wn)} ${r.owner.padEnd(wo)} ${r.group.padEnd(wg)} ${r.size.padStart(ws)} ${r.date} ${r.name}`);
  };

  const listDir = (path: string, display: string): { lines: string[]; subdirs: [string, string][] } | string => {
    let kids: FsNode[];
    try {
      kids = fs.readdir(path, ctx.cred);
    } catch (e) {
      return fsMsg(ctx, flavour, e);
    }
    const entries: Entry[] = [];
    if (f.has('a')) {
      entries.push({ name: '.', node: fs.stat(path)!, path });
      entries.push({ name: '..', node: fs.stat(fs.resolve(path, '..'))!, path: fs.resolve(path, '..') });
    }
    for (const k of kids) {
      if (k.name.startsWith('.') && !f.has('a') && !f.has('A')) continue;
      entries.push({ name: k.name, node: k, path: fs.resolve(path, k.name) });
    }
    sortEntries(entries);
    const lines = format(entries);
    if (long) lines.unshift(`total ${entries.reduce((n, e) => n + blocksK(e.node), 0)}`);
    const subdirs: [string, string][] = f.has('R') ? entries.filter((e) => e.node.kind === 'dir' && e.name !== '.' && e.name !== '..').map((e) => [e.path, display === '/' ? `/${e.name}` : `${display}/${e.name}`]) : [];
    return { lines, subdirs };
  };

  const targets = o.args.length ? o.args : ['.'];
  let status = 0;
  const files: Entry[] = [];
  const dirs: [string, string][] = [];
  for (const t of targets) {
    const path = fs.resolve(ctx.cwd, t);
    let node: FsNode | undefined;
    try {
      node = f.has('d') || (long && !t.endsWith('/')) ? fs.lstat(path) : fs.stat(path);
      if (node?.kind === 'symlink' && !f.has('d') && fs.stat(path)?.kind === 'dir' && !long) node = fs.stat(path);
      if (node?.kind === 'symlink' && long && !f.has('d') && fs.stat(path)?.kind === 'dir' && t.endsWith('/')) node = fs.stat(path);
      if (!node) fs.statOrThrow(path);
    } catch (e) {
      status = flavour === 'gnu' ? 2 : 1;
      ctx.stderr.write(flavour === 'gnu' ? `${name}: cannot access '${t}': ${fsMsg(ctx, flavour, e)}\n` : `${name}: ${t}: ${fsMsg(ctx, flavour, e)}\n`);
      continue;
    }
    if (!node) continue;
    if (node.kind === 'dir' && !f.has('d')) dirs.push([path, t]);
    else files.push({ name: t, node, path });
  }
  const out: string[] = [];
  if (files.length) out.push(...format(sortEntries(files)));
  const queue = [...dirs].sort((a, b) => (a[1] < b[1] ? -1 : 1));
  const showHeaders = targets.length > 1 || f.has('R');
  let first = files.length === 0;
  while (queue.length) {
    const [path, display] = queue.shift()!;
    const r = listDir(path, display);
    if (typeof r === 'string') {
      status = flavour === 'gnu' ? 2 : 1;
      ctx.stdout.write(out.map((l) => `${l}\n`).join(''));
      out.length = 0;
      ctx.stderr.write(flavour === 'gnu' ? `${name}: cannot open directory '${display}': ${r}\n` : `${name}: can't open '${display}': ${r}\n`);
      continue;
    }
    if (showHeaders) {
      if (!first) out.push('');
      out.push(`${display}:`);
    }
    first = false;
    out.push(...r.lines);
    queue.unshift(...r.subdirs);
  }
  ctx.stdout.write(out.map((l) => `${l}\n`).join(''));
  return status;
}
