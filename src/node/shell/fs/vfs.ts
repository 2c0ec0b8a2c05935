// An in-memory filesystem with the container OS's path rules, POSIX modes, symlinks and volume mounts. Mounts are
// per filesystem (a volume shared by two containers can be read-only in one and writable in the other).

import { formatSegments, nameKey, resolveSegments, type OsKind, type Segments } from './path.js';

export type FsErrorCode = 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'EROFS' | 'EACCES' | 'ENOTEMPTY' | 'ELOOP' | 'EINVAL' | 'EBUSY';

export class FsError extends Error {
  constructor(readonly code: FsErrorCode, readonly path: string) {
    super(`${code}: ${path}`);
  }
}

interface BaseNode {
  name: string;
  /** Permission bits (0o7777); the kind says the type. */
  mode: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  ino: number;
  /** Windows: only administrators may change it (C:\Windows, C:\Program Files). */
  protected?: boolean;
}
export interface FileNode extends BaseNode {
  kind: 'file';
  data: Buffer;
  /** The emulated program this executable runs (see core/registry). */
  program?: string;
  /** Content computed when read (/proc). */
  generate?: () => Buffer;
}
export interface DirNode extends BaseNode { kind: 'dir'; children: Map<string, FsNode> }
export interface LinkNode extends BaseNode { kind: 'symlink'; target: string }
export type FsNode = FileNode | DirNode | LinkNode;

/** Who asks: root and Windows administrators pass the permission checks. */
export interface Cred { uid: number; gids: number[]; admin: boolean }
export const ROOT: Cred = { uid: 0, gids: [0], admin: true };

export interface MountOptions {
  readOnly?: boolean;
  /** Kind of volume, for `mount` / `df` output (`tmpfs`, `configmap`, `hostPath`...). */
  source?: string;
}
interface MountInfo extends MountOptions { path: string }
/** A node bound at a name in one filesystem only: the directory it sits in (maybe a shared volume's) is not changed. */
interface Binding { node: FsNode; info?: MountInfo }

let nextIno = 1000;

/** A directory tree that can be mounted into one or more filesystems (an emptyDir shared by a pod's containers). */
export class Volume {
  readonly root: DirNode;
  constructor(readonly os: OsKind, now: number, opts: { mode?: number; uid?: number; gid?: number } = {}) {
    this.root = { kind: 'dir', name: '', mode: opts.mode ?? 0o777, uid: opts.uid ?? 0, gid: opts.gid ?? 0, mtimeMs: now, ino: nextIno++, children: new Map() };
  }
}

export interface WriteOptions { append?: boolean; mode?: number; cred?: Cred; exclusive?: boolean }

export class VirtualFs {
  readonly root: DirNode;
  private readonly mounts = new Map<FsNode, MountInfo>();
  /**
   * Per-filesystem entries laid over directories, keyed by the directory node: a mount whose parent lies in a volume
   * shared with other filesystems (a HostProcess container's C:\etc, a pod's emptyDir) must not appear in theirs.
   */
  private readonly binds = new Map<DirNode, Map<string, Binding>>();
  /** Free bytes shown by `dir` and `df`. */
  freeBytes = 21_302_571_008;

  constructor(readonly os: OsKind, readonly now: () => number) {
    this.root = this.newDir('', 0o755, 0, 0);
    if (os === 'windows') this.root.children.set('c:', this.newDir('C:', 0o777, 0, 0));
  }

  newDir(name: string, mode: number, uid: number, gid: number): DirNode {
    return { kind: 'dir', name, mode, uid, gid, mtimeMs: this.now(), ino: nextIno++, children: new Map() };
  }

  resolve(cwd: string, p: string): string {
    return formatSegments(this.os, resolveSegments(this.os, cwd, p));
  }

  private segs(p: string): Segments {
    return resolveSegments(this.os, this.os === 'windows' ? 'C:\\' : '/', p);
  }

  /**
   * Walks to a path. Symlinks in the middle are followed; the last one only if `follow`. Returns the node (or
   * undefined), its parent, the final name, and the mount the node lives in.
   */
  private walk(p: string, follow: boolean, depth = 0, quiet = false): { node?: FsNode; parent?: DirNode; name: string; mount?: MountInfo; path: string; bound?: boolean } {
    if (depth > 40) throw new FsError('ELOOP', p);
    const segs = this.segs(p);
    let dir: DirNode = this.root;
    let mount = this.mounts.get(this.root);
    const done: string[] = [];
    for (let i = 0; i < segs.length; i++) {
      const name = segs[i];
      const last = i === segs.length - 1;
      const bound = this.binds.get(dir)?.get(nameKey(this.os, name));
      let child = bound?.node ?? dir.children.get(nameKey(this.os, name));
      if (!child) {
        if (last) return { parent: dir, name, mount, path: formatSegments(this.os, [...done, name]) };
        if (quiet) return { name, path: p };
        throw new FsError('ENOENT', p);
      }
      if (child.kind === 'symlink' && (!last || follow)) {
        const base = formatSegments(this.os, done);
        const target = this.resolve(base, child.target);
        const rest = segs.slice(i + 1);
        const joined = rest.length ? this.resolve(target, rest.join(this.os === 'windows' ? '\\' : '/')) : target;
        return this.walk(joined, follow, depth + 1, quiet);
      }
      mount = bound?.info ?? this.mounts.get(child) ?? mount;
      done.push(child.name);
      if (last) return { node: child, parent: dir, name: child.name, mount, path: formatSegments(this.os, done), ...(bound ? { bound: true } : {}) };
      if (child.kind !== 'dir') {
        if (quiet) return { name, path: p };
        throw new FsError('ENOTDIR', p);
      }
      dir = child;
    }
    return { node: this.root, name: '', mount, path: formatSegments(this.os, []) };
  }

  /** The node at p, following symlinks; undefined when missing. */
  // A missing directory on the way answers undefined without an error built and thrown (the common case of a probe
  // for an optional file); only a symlink loop still throws.
  stat(p: string): FsNode | undefined {
    try { return this.walk(p, true, 0, true).node; } catch (e) { if (e instanceof FsError) return undefined; throw e; }
  }
  lstat(p: string): FsNode | undefined {
    try { return this.walk(p, false, 0, true).node; } catch (e) { if (e instanceof FsError) return undefined; throw e; }
  }
  /** Like stat but says why the path does not resolve (ENOENT vs ENOTDIR vs ELOOP). */
  statOrThrow(p: string): FsNode {
    const w = this.walk(p, true);
    if (!w.node) throw new FsError('ENOENT', p);
    return w.node;
  }
  exists(p: string): boolean {
    return this.stat(p) !== undefined;
  }
  /** The canonical absolute path (symlinks resolved, names in their stored case). */
  realpath(p: string): string {
    const w = this.walk(p, true);
    if (!w.node) throw new FsError('ENOENT', p);
    return w.path;
  }
  isReadOnly(p: string): boolean {
    try { return this.walk(p, true).mount?.readOnly === true; } catch { return false; }
  }
  mountOf(p: string): { path: string; readOnly: boolean; source?: string } | undefined {
    try {
      const m = this.walk(p, true).mount;
      return m && { path: m.path, readOnly: m.readOnly === true, source: m.source };
    } catch { return undefined; }
  }
  mountTable(): { path: string; readOnly: boolean; source?: string }[] {
    const bound = [...this.binds.values()].flatMap((m) => [...m.values()]).flatMap((b) => (b.info ? [b.info] : []));
    return [...this.mounts.values(), ...bound].map((m) => ({ path: m.path, readOnly: m.readOnly === true, source: m.source }));
  }

  /** A directory's entries as this filesystem sees them: its own children with this filesystem's binds laid over. */
  entries(dir: DirNode): FsNode[] {
    const over = this.binds.get(dir);
    if (!over) return [...dir.children.values()];
    const merged = new Map(dir.children);
    for (const [k, b] of over) merged.set(k, b.node);
    return [...merged.values()];
  }

  private canWrite(node: FsNode, cred: Cred): boolean {
    if (this.os === 'windows') return cred.admin || !node.protected;
    if (cred.uid === 0) return true;
    if (node.uid === cred.uid) return (node.mode & 0o200) !== 0;
    if (cred.gids.includes(node.gid)) return (node.mode & 0o020) !== 0;
    return (node.mode & 0o002) !== 0;
  }
  canRead(node: FsNode, cred: Cred): boolean {
    if (this.os === 'windows' || cred.uid === 0) return true;
    if (node.uid === cred.uid) return (node.mode & 0o400) !== 0;
    if (cred.gids.includes(node.gid)) return (node.mode & 0o040) !== 0;
    return (node.mode & 0o004) !== 0;
  }
  canExec(node: FsNode, cred: Cred): boolean {
    if (this.os === 'windows') return true;
    if (cred.uid === 0) return (node.mode & 0o111) !== 0 || node.kind === 'dir';
    if (node.uid === cred.uid) return (node.mode & 0o100) !== 0;
    if (cred.gids.includes(node.gid)) return (node.mode & 0o010) !== 0;
    return (node.mode & 0o001) !== 0;
  }

  private checkDirWrite(w: { parent?: DirNode; mount?: MountInfo }, p: string, cred: Cred): DirNode {
    if (!w.parent) throw new FsError('EBUSY', p);
    if (w.mount?.readOnly) throw new FsError('EROFS', p);
    if (!this.canWrite(w.parent, cred)) throw new FsError('EACCES', p);
    return w.parent;
  }

  readFile(p: string, cred: Cred = ROOT): Buffer {
    const w = this.walk(p, true);
    if (!w.node) throw new FsError('ENOENT', p);
    if (w.node.kind === 'dir') throw new FsError('EISDIR', p);
    if (w.node.kind !== 'file') throw new FsError('EINVAL', p);
    if (!this.canRead(w.node, cred)) throw new FsError('EACCES', p);
    return w.node.generate ? w.node.generate() : w.node.data;
  }

  writeFile(p: string, data: Buffer | string, opts: WriteOptions = {}): FileNode {
    const cred = opts.cred ?? ROOT;
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    const w = this.walk(p, true);
    if (w.node) {
      if (opts.exclusive) throw new FsError('EEXIST', p);
      if (w.node.kind === 'dir') throw new FsError('EISDIR', p);
      if (w.node.kind !== 'file') throw new FsError('EINVAL', p);
      if (w.mount?.readOnly) throw new FsError('EROFS', p);
      if (!this.canWrite(w.node, cred)) throw new FsError('EACCES', p);
      w.node.data = opts.append ? Buffer.concat([w.node.data, buf]) : buf;
      w.node.mtimeMs = this.now();
      return w.node;
    }
    const parent = this.checkDirWrite(w, p, cred);
    const node: FileNode = {
      kind: 'file', name: w.name, mode: opts.mode ?? 0o644, uid: cred.uid, gid: cred.gids[0] ?? 0, mtimeMs: this.now(), ino: nextIno++, data: buf,
    };
    parent.children.set(nameKey(this.os, w.name), node);
    parent.mtimeMs = node.mtimeMs;
    return node;
  }

  mkdir(p: string, opts: { parents?: boolean; mode?: number; cred?: Cred } = {}): DirNode {
    const cred = opts.cred ?? ROOT;
    if (opts.parents) {
      const segs = this.segs(p);
      let cur = formatSegments(this.os, segs.slice(0, this.os === 'windows' ? 1 : 0));
      const start = this.stat(cur);
      if (!start || start.kind !== 'dir') throw new FsError('ENOENT', cur);
      let last: DirNode = start;
      for (let i = this.os === 'windows' ? 1 : 0; i < segs.length; i++) {
        cur = this.resolve(cur, segs[i]);
        const n = this.stat(cur);
        if (n && n.kind === 'dir') { last = n; continue; }
        if (n) throw new FsError('EEXIST', cur);
        last = this.mkdir(cur, { mode: opts.mode, cred });
      }
      return last;
    }
    const w = this.walk(p, false);
    if (w.node) throw new FsError('EEXIST', p);
    const parent = this.checkDirWrite(w, p, cred);
    const node = this.newDir(w.name, opts.mode ?? 0o755, cred.uid, cred.gids[0] ?? 0);
    parent.children.set(nameKey(this.os, w.name), node);
    return node;
  }

  readdir(p: string, cred: Cred = ROOT): FsNode[] {
    const n = this.statOrThrow(p);
    if (n.kind !== 'dir') throw new FsError('ENOTDIR', p);
    if (!this.canRead(n, cred)) throw new FsError('EACCES', p);
    return this.entries(n);
  }

  /** Removes a file or symlink (never a directory). */
  unlink(p: string, cred: Cred = ROOT): void {
    const w = this.walk(p, false);
    if (!w.node) throw new FsError('ENOENT', p);
    if (w.node.kind === 'dir') throw new FsError('EISDIR', p);
    if (w.bound) throw new FsError('EBUSY', p);
    const parent = this.checkDirWrite(w, p, cred);
    if (this.os === 'windows' && !this.canWrite(w.node, cred)) throw new FsError('EACCES', p);
    parent.children.delete(nameKey(this.os, w.name));
  }

  rmdir(p: string, cred: Cred = ROOT): void {
    const w = this.walk(p, false);
    if (!w.node) throw new FsError('ENOENT', p);
    if (w.node.kind !== 'dir') throw new FsError('ENOTDIR', p);
    if (this.mounts.has(w.node) || w.bound) throw new FsError('EBUSY', p);
    if (w.node.children.size > 0) throw new FsError('ENOTEMPTY', p);
    const parent = this.checkDirWrite(w, p, cred);
    parent.children.delete(nameKey(this.os, w.name));
  }

  /** Removes a tree, depth first; stops at the first error (a read-only mount below, a mount point). */
  removeTree(p: string, cred: Cred = ROOT): void {
    const n = this.lstat(p);
    if (!n) throw new FsError('ENOENT', p);
    if (n.kind === 'dir') {
      for (const c of this.entries(n)) this.removeTree(this.resolve(p, c.name), cred);
      this.rmdir(p, cred);
    } else {
      this.unlink(p, cred);
    }
  }

  rename(from: string, to: string, cred: Cred = ROOT): void {
    const src = this.walk(from, false);
    if (!src.node) throw new FsError('ENOENT', from);
    if (src.bound) throw new FsError('EBUSY', from);
    const dst = this.walk(to, false);
    if (src.mount !== dst.mount && (src.mount?.readOnly || dst.mount?.readOnly)) throw new FsError('EROFS', to);
    const srcParent = this.checkDirWrite(src, from, cred);
    const dstParent = this.checkDirWrite(dst, to, cred);
    if (dst.node) {
      if (dst.node.kind === 'dir' && src.node.kind !== 'dir') throw new FsError('EISDIR', to);
      if (dst.node.kind === 'dir' && dst.node.children.size > 0) throw new FsError('ENOTEMPTY', to);
      dstParent.children.delete(nameKey(this.os, dst.name));
    }
    srcParent.children.delete(nameKey(this.os, src.name));
    src.node.name = dst.node && this.os === 'windows' ? dst.name : dst.name;
    dstParent.children.set(nameKey(this.os, src.node.name), src.node);
  }

  symlink(target: string, p: string, cred: Cred = ROOT): LinkNode {
    const w = this.walk(p, false);
    if (w.node) throw new FsError('EEXIST', p);
    const parent = this.checkDirWrite(w, p, cred);
    const node: LinkNode = { kind: 'symlink', name: w.name, mode: 0o777, uid: cred.uid, gid: cred.gids[0] ?? 0, mtimeMs: this.now(), ino: nextIno++, target };
    parent.children.set(nameKey(this.os, w.name), node);
    return node;
  }

  chmod(p: string, mode: number, cred: Cred = ROOT): void {
    const w = this.walk(p, true);
    if (!w.node) throw new FsError('ENOENT', p);
    if (w.mount?.readOnly) throw new FsError('EROFS', p);
    if (cred.uid !== 0 && cred.uid !== w.node.uid) throw new FsError('EACCES', p);
    w.node.mode = mode & 0o7777;
  }

  /** Sets the modification time; creates nothing. */
  touch(p: string, mtimeMs: number, cred: Cred = ROOT): void {
    const w = this.walk(p, true);
    if (!w.node) throw new FsError('ENOENT', p);
    if (w.mount?.readOnly) throw new FsError('EROFS', p);
    if (!this.canWrite(w.node, cred)) throw new FsError('EACCES', p);
    w.node.mtimeMs = mtimeMs;
  }

  /** Mounts a volume (or a set of files) at a directory, hiding what the image had there. */
  mount(p: string, source: Volume | Map<string, Buffer | string>, opts: MountOptions = {}): Volume {
    const vol = source instanceof Volume ? source : volumeFromFiles(this.os, source, { now: this.now() });
    const segs = this.segs(p);
    if (this.insideMount(segs.slice(0, -1))) {
      vol.root.name = segs[segs.length - 1];
      this.bind(p, vol.root, opts);
      return vol;
    }
    const parentPath = formatSegments(this.os, segs.slice(0, -1));
    const parent = this.mkdir(parentPath, { parents: true });
    const name = segs[segs.length - 1];
    vol.root.name = name;
    parent.children.set(nameKey(this.os, name), vol.root);
    this.mounts.set(vol.root, { ...opts, path: formatSegments(this.os, segs) });
    return vol;
  }

  /** Bind-mounts one file (subPath mounts, the kubelet's /etc/hosts). */
  mountFile(p: string, data: Buffer | string, opts: MountOptions & { mode?: number } = {}): FileNode {
    const segs = this.segs(p);
    const name = segs[segs.length - 1];
    const node: FileNode = { kind: 'file', name, mode: opts.mode ?? 0o644, uid: 0, gid: 0, mtimeMs: this.now(), ino: nextIno++, data: typeof data === 'string' ? Buffer.from(data) : data };
    if (this.insideMount(segs.slice(0, -1))) {
      this.bind(p, node, opts);
      return node;
    }
    const parent = this.mkdir(formatSegments(this.os, segs.slice(0, -1)), { parents: true });
    parent.children.set(nameKey(this.os, name), node);
    this.mounts.set(node, { ...opts, path: formatSegments(this.os, segs) });
    return node;
  }

  /**
   * Binds an existing node (a mounted volume's root, a mounted file) at a second path in this filesystem only, with its
   * own options: the directory it lands in is left as every other filesystem sees it, and missing directories on the
   * way are made for this filesystem alone. hcsshim's bind filter does this per silo (internal/jobcontainers/mounts.go).
   */
  bind(p: string, node: FsNode, opts: MountOptions = {}): void {
    const segs = this.segs(p);
    let dir = this.root;
    for (let i = 0; i < segs.length - 1; i++) {
      const key = nameKey(this.os, segs[i]);
      const next = this.binds.get(dir)?.get(key)?.node ?? dir.children.get(key);
      if (next?.kind === 'dir') { dir = next; continue; }
      if (next) throw new FsError('ENOTDIR', formatSegments(this.os, segs.slice(0, i + 1)));
      const made = this.newDir(segs[i], 0o755, 0, 0);
      this.bindAt(dir, key, { node: made });
      dir = made;
    }
    this.bindAt(dir, nameKey(this.os, segs[segs.length - 1]), { node, info: { ...opts, path: formatSegments(this.os, segs) } });
  }

  private bindAt(dir: DirNode, key: string, b: Binding): void {
    let m = this.binds.get(dir);
    if (!m) this.binds.set(dir, (m = new Map()));
    m.set(key, b);
  }

  /** Whether a directory path runs through a mounted volume (whose directories other filesystems may share). */
  private insideMount(segs: Segments): boolean {
    let dir = this.root;
    for (const name of segs) {
      const key = nameKey(this.os, name);
      const b = this.binds.get(dir)?.get(key);
      const next = b?.node ?? dir.children.get(key);
      if (!next || next.kind !== 'dir') return false;
      if (b?.info || this.mounts.has(next)) return true;
      dir = next;
    }
    return false;
  }
}

export interface VolumeFileOptions {
  now: number;
  /** File mode for every file (ConfigMap/Secret defaultMode); 0644 by default. */
  mode?: number;
  /** Per-file modes (items[].mode). */
  modes?: Map<string, number>;
  /**
   * The kubelet's atomic writer layout for ConfigMap/Secret/downwardAPI/projected volumes: files live in a
   * timestamped directory, `..data` points at it and each top-level name is a symlink through `..data`
   * (pkg/volume/util/atomic_writer.go).
   */
  atomic?: boolean;
}

/** Builds a volume from relative paths to contents (`a/b.txt` creates directory `a`). */
export function volumeFromFiles(os: OsKind, files: Map<string, Buffer | string>, opts: VolumeFileOptions): Volume {
  const vol = new Volume(os, opts.now, { mode: opts.atomic ? 0o1777 : 0o777 });
  const s = os === 'windows' ? '\\' : '/';
  const fs = new VirtualFs(os, () => opts.now);
  const tmpRoot = os === 'windows' ? 'C:\\v' : '/v';
  fs.mount(tmpRoot, vol);
  const d = new Date(opts.now);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const stamp = `..${d.getUTCFullYear()}_${p2(d.getUTCMonth() + 1)}_${p2(d.getUTCDate())}_${p2(d.getUTCHours())}_${p2(d.getUTCMinutes())}_${p2(d.getUTCSeconds())}.${String(opts.now % 1_000_000_000).padStart(9, '0')}`;
  const base = opts.atomic ? `${tmpRoot}${s}${stamp}` : tmpRoot;
  if (opts.atomic) fs.mkdir(base, { mode: 0o755 });
  const top = new Set<string>();
  for (const [rel, data] of files) {
    const parts = rel.split(/[\\/]/).filter((x) => x !== '');
    top.add(parts[0]);
    if (parts.length > 1) fs.mkdir(base + s + parts.slice(0, -1).join(s), { parents: true, mode: 0o755 });
    fs.writeFile(base + s + parts.join(s), data, { mode: opts.modes?.get(rel) ?? opts.mode ?? 0o644 });
  }
  if (opts.atomic) {
    fs.symlink(stamp, `${tmpRoot}${s}..data`);
    for (const name of top) fs.symlink(`..data${s}${name}`, `${tmpRoot}${s}${name}`);
  }
  return vol;
}
