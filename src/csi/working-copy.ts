// One process's view of a stored volume: an in-memory tree shaped by the container OS (Windows names match without
// case), merged with the OS-neutral store when a client would revalidate or flush — at mount, around each exec and at
// container stop — as NFS clients give close-to-open consistency. A merge sends what changed here since the last
// merge and takes what changed in the store; when both changed one entry, this side's newer write wins.

import type { DirNode, FsNode } from '../node/shell/fs/vfs.js';
import { nameKey, type OsKind } from '../node/shell/fs/path.js';
import { Volume } from '../node/shell/index.js';
import type { StoredEntry, VolumeStore } from './volume-store.js';

interface BaseEntry {
  /** The store's signature at the last merge. */
  sig: string;
  /** The tree's node and what it looked like at the last merge. */
  node: FsNode;
  data?: Buffer;
  memSig: string;
}

let nextIno = 5_000_000;

function memSig(n: FsNode): string {
  if (n.kind === 'dir') return `dir:${n.mode}:${n.uid}:${n.gid}`;
  if (n.kind === 'symlink') return `symlink:${n.target}`;
  return `file:${n.mtimeMs}:${n.mode}:${n.uid}:${n.gid}:${n.data.length}`;
}

export class WorkingCopy {
  readonly volume: Volume;
  private base = new Map<string, BaseEntry>();

  constructor(readonly store: VolumeStore, readonly loc: string, readonly os: OsKind, now: number) {
    this.volume = new Volume(os, now);
    store.ensure(loc);
  }

  /** The comparison key of a path: Windows trees match names without case. */
  private key(rel: string): string {
    return this.os === 'windows' ? rel.toLowerCase() : rel;
  }

  /** Every entry of the tree by relative path (names as stored in the nodes). */
  private tree(): Map<string, { rel: string; node: FsNode }> {
    const out = new Map<string, { rel: string; node: FsNode }>();
    const walk = (dir: DirNode, rel: string) => {
      for (const child of dir.children.values()) {
        const r = rel ? `${rel}/${child.name}` : child.name;
        out.set(this.key(r), { rel: r, node: child });
        if (child.kind === 'dir') walk(child, r);
      }
    };
    walk(this.volume.root, '');
    return out;
  }

  private entryOf(n: FsNode): StoredEntry {
    const e: StoredEntry = { kind: n.kind, mode: n.mode, uid: n.uid, gid: n.gid, mtimeMs: n.mtimeMs };
    if (n.kind === 'file') e.data = n.generate ? n.generate() : n.data;
    if (n.kind === 'symlink') e.target = n.target;
    return e;
  }

  private parentOf(rel: string): DirNode | undefined {
    const parts = rel.split('/');
    let dir: DirNode = this.volume.root;
    for (const p of parts.slice(0, -1)) {
      const c = dir.children.get(nameKey(this.os, p));
      if (!c || c.kind !== 'dir') return undefined;
      dir = c;
    }
    return dir;
  }

  private place(rel: string, e: StoredEntry): FsNode | undefined {
    const parent = this.parentOf(rel);
    if (!parent) return undefined;
    const name = rel.split('/').pop()!;
    const k = nameKey(this.os, name);
    const old = parent.children.get(k);
    const common = { name, mode: e.mode, uid: e.uid, gid: e.gid, mtimeMs: e.mtimeMs };
    let node: FsNode;
    if (e.kind === 'dir') {
      if (old?.kind === 'dir') {
        Object.assign(old, { mode: e.mode, uid: e.uid, gid: e.gid });
        return old;
      }
      node = { ...common, kind: 'dir', ino: nextIno++, children: new Map() };
    } else if (e.kind === 'symlink') {
      node = { ...common, kind: 'symlink', ino: nextIno++, target: e.target ?? '' };
    } else if (old?.kind === 'file') {
      // The same file changed elsewhere: its inode stays, as an NFS client's does.
      Object.assign(old, { data: e.data ?? Buffer.alloc(0), mode: e.mode, uid: e.uid, gid: e.gid, mtimeMs: e.mtimeMs });
      return old;
    } else {
      node = { ...common, kind: 'file', ino: nextIno++, data: e.data ?? Buffer.alloc(0) };
    }
    parent.children.set(k, node);
    return node;
  }

  private unplace(rel: string): void {
    const parent = this.parentOf(rel);
    parent?.children.delete(nameKey(this.os, rel.split('/').pop()!));
  }

  /** Merges the tree with the store (see the header). Cheap when nothing changed: one listing of the store. */
  sync(): void {
    const stored = new Map<string, { rel: string; sig: string }>();
    for (const [rel, sig] of this.store.scan(this.loc)) stored.set(this.key(rel), { rel, sig });
    const mem = this.tree();
    const changedHere = new Set<string>();
    for (const [k, { node }] of mem) {
      const b = this.base.get(k);
      if (!b || b.node !== node || b.memSig !== memSig(node) || (node.kind === 'file' && b.data !== node.data)) changedHere.add(k);
    }
    const removedHere = [...this.base.keys()].filter((k) => !mem.has(k));
    const next = new Map<string, BaseEntry>();
    // What this side removed goes from the store (deepest first), unless the store holds a newer write.
    for (const k of removedHere.sort().reverse()) {
      const s = stored.get(k);
      if (s && s.sig === this.base.get(k)!.sig) {
        this.store.remove(this.loc, s.rel);
        for (const sk of [...stored.keys()]) if (sk === k || sk.startsWith(`${k}/`)) stored.delete(sk);
      }
    }
    // What this side wrote goes to the store (parents first).
    const sigs = new Map<string, string>();
    for (const k of [...changedHere].sort()) {
      const { rel, node } = mem.get(k)!;
      const s = stored.get(k);
      sigs.set(k, this.store.write(this.loc, s?.rel ?? rel, this.entryOf(node)));
    }
    // What others changed comes here: removals, then writes (parents first).
    for (const k of this.base.keys()) {
      if (stored.has(k) || changedHere.has(k) || !mem.has(k)) continue;
      this.unplace(mem.get(k)!.rel);
    }
    for (const k of [...stored.keys()].sort()) {
      if (changedHere.has(k)) continue;
      const s = stored.get(k)!;
      const b = this.base.get(k);
      const inTree = mem.get(k);
      if (b && b.sig === s.sig && inTree) continue;
      const e = this.store.read(this.loc, s.rel);
      if (!e) continue;
      this.place(s.rel, e);
    }
    this.store.commit?.(this.loc);
    // The new common state.
    for (const [k, { node }] of this.tree()) {
      const sig = sigs.get(k) ?? stored.get(k)?.sig;
      if (sig === undefined) continue;
      next.set(k, { sig, node, memSig: memSig(node), data: node.kind === 'file' ? node.data : undefined });
    }
    this.base = next;
  }
}
