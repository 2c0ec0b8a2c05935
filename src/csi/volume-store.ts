// Where the emulated storage system keeps volume data: OS-neutral entries (relative `/` paths, bytes, modes, owners)
// in memory, or in a directory on disk that several node-agent processes share, as nodes share an NFS server or a
// SAN. Each process works on its own in-memory tree and merges it with the store at points a real client would
// (see working-copy.ts); the store only reads and writes whole entries.

import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface StoredEntry {
  kind: 'file' | 'dir' | 'symlink';
  mode: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  data?: Buffer;
  target?: string;
}

/** A store of volumes, each under a location (`<driver>/<handle>`, `nfs/<server>/<path>`). */
export interface VolumeStore {
  /** Every entry of a volume, relative path → a signature that changes whenever the entry does. */
  scan(loc: string): Map<string, string>;
  read(loc: string, rel: string): StoredEntry | undefined;
  /** Writes one entry (its parent exists); returns its new signature. */
  write(loc: string, rel: string, e: StoredEntry): string;
  /** Removes an entry and what is below it. */
  remove(loc: string, rel: string): void;
  /** Makes the volume's (empty) root: a mount of a volume nobody wrote yet. */
  ensure(loc: string): void;
  /** Whether the volume exists (mounted or written since it was made or last dropped). */
  has(loc: string): boolean;
  /** Deletes the whole volume (DeleteVolume, the provisioner's helper pod `rm -rf`). */
  drop(loc: string): void;
  /** Ends a merge: bookkeeping the writes deferred is written once. */
  commit?(loc: string): void;
}

/** The store of one process when no directory is given (tests, a single `winkube up` without a data dir). */
export class MemoryStore implements VolumeStore {
  private readonly vols = new Map<string, Map<string, { e: StoredEntry; sig: string }>>();
  private seq = 0;

  scan(loc: string): Map<string, string> {
    return new Map([...(this.vols.get(loc) ?? [])].map(([k, v]) => [k, v.sig]));
  }
  read(loc: string, rel: string): StoredEntry | undefined {
    const v = this.vols.get(loc)?.get(rel);
    return v && { ...v.e };
  }
  write(loc: string, rel: string, e: StoredEntry): string {
    let vol = this.vols.get(loc);
    if (!vol) this.vols.set(loc, (vol = new Map()));
    const sig = `${e.kind}:${++this.seq}`;
    vol.set(rel, { e: { ...e }, sig });
    return sig;
  }
  remove(loc: string, rel: string): void {
    const vol = this.vols.get(loc);
    if (!vol) return;
    for (const k of [...vol.keys()]) if (k === rel || k.startsWith(`${rel}/`)) vol.delete(k);
  }
  ensure(loc: string): void {
    if (!this.vols.has(loc)) this.vols.set(loc, new Map());
  }
  has(loc: string): boolean {
    return this.vols.has(loc);
  }
  drop(loc: string): void {
    for (const k of [...this.vols.keys()]) if (k === loc || k.startsWith(`${loc}/`)) this.vols.delete(k);
  }
}

/** Owners and modes the host filesystem cannot keep for an unprivileged process, beside the data. */
const META = '.winkube-meta.json';
type Meta = Record<string, [mode: number, uid: number, gid: number]>;

/**
 * A directory per volume, holding the volume's files as plain files (an administrator can look at, seed or back
 * them up as on an NFS export). Modes, owners and the emulated mtimes ride in a small metadata file.
 */
export class DirStore implements VolumeStore {
  constructor(readonly root: string) {}

  private dir(loc: string): string {
    return join(this.root, ...loc.split('/'));
  }

  /** Metadata changes of the merge under way, per volume: written once at commit. */
  private readonly pending = new Map<string, { set: Meta; del: Set<string> }>();

  /** The metadata file as read during the merge under way (one read per merge). */
  private readonly cache = new Map<string, Meta>();

  private stored(loc: string): Meta {
    let m = this.cache.get(loc);
    if (!m) {
      try { m = JSON.parse(readFileSync(join(this.dir(loc), META), 'utf8')) as Meta; } catch { m = {}; }
      this.cache.set(loc, m);
    }
    return m;
  }

  private meta(loc: string): Meta {
    const m = { ...this.stored(loc) };
    const p = this.pending.get(loc);
    if (p) {
      for (const d of p.del) for (const k of Object.keys(m)) if (k === d || k.startsWith(`${d}/`)) delete m[k];
      Object.assign(m, p.set);
    }
    return m;
  }

  private setMeta(loc: string, rel: string, value: [number, number, number] | undefined): void {
    let p = this.pending.get(loc);
    if (!p) this.pending.set(loc, (p = { set: {}, del: new Set() }));
    if (value) {
      p.set[rel] = value;
    } else {
      for (const k of Object.keys(p.set)) if (k === rel || k.startsWith(`${rel}/`)) delete p.set[k];
      p.del.add(rel);
    }
  }

  commit(loc: string): void {
    this.cache.delete(loc);
    if (!this.pending.has(loc)) return;
    // Applied to the file as it is now, so another process's entries written meanwhile stay.
    const m = this.meta(loc);
    this.cache.delete(loc);
    this.pending.delete(loc);
    if (!existsSync(this.dir(loc))) return;
    const file = join(this.dir(loc), META);
    // Written whole and renamed into place, so a reader in another process never sees half of it.
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, JSON.stringify(m));
    renameSync(tmp, file);
  }

  scan(loc: string): Map<string, string> {
    const out = new Map<string, string>();
    const base = this.dir(loc);
    const walk = (abs: string, rel: string) => {
      let names: string[];
      try { names = readdirSync(abs); } catch { return; }
      for (const name of names) {
        if (!rel && name === META) continue;
        if (!rel && name.startsWith(`${META}.`)) continue;
        const r = rel ? `${rel}/${name}` : name;
        const p = join(abs, name);
        let st;
        try { st = lstatSync(p); } catch { continue; }
        // A directory's signature ignores its times: they move with every change below it.
        if (st.isDirectory()) {
          out.set(r, 'dir');
          walk(p, r);
        } else if (st.isSymbolicLink()) out.set(r, `symlink:${st.ctimeMs}`);
        else out.set(r, `file:${st.mtimeMs}:${st.ctimeMs}:${st.size}`);
      }
    };
    walk(base, '');
    return out;
  }

  read(loc: string, rel: string): StoredEntry | undefined {
    const p = join(this.dir(loc), ...rel.split('/'));
    let st;
    try { st = lstatSync(p); } catch { return undefined; }
    const [mode, uid, gid] = this.pending.get(loc)?.set[rel] ?? this.stored(loc)[rel] ?? [st.isDirectory() ? 0o755 : 0o644, 0, 0];
    if (st.isDirectory()) return { kind: 'dir', mode, uid, gid, mtimeMs: st.mtimeMs };
    if (st.isSymbolicLink()) return { kind: 'symlink', mode: 0o777, uid, gid, mtimeMs: st.mtimeMs, target: readlinkSync(p) };
    try {
      return { kind: 'file', mode, uid, gid, mtimeMs: st.mtimeMs, data: readFileSync(p) };
    } catch {
      return undefined;
    }
  }

  write(loc: string, rel: string, e: StoredEntry): string {
    const p = join(this.dir(loc), ...rel.split('/'));
    mkdirSync(dirname(p), { recursive: true });
    const existing = (() => { try { return lstatSync(p); } catch { return undefined; } })();
    if (existing && (existing.isDirectory() !== (e.kind === 'dir') || existing.isSymbolicLink())) rmSync(p, { recursive: true, force: true });
    if (e.kind === 'dir') {
      mkdirSync(p, { recursive: true });
      chmodSync(p, 0o755);
    } else if (e.kind === 'symlink') {
      rmSync(p, { force: true });
      symlinkSync(e.target ?? '', p);
    } else {
      writeFileSync(p, e.data ?? Buffer.alloc(0));
      chmodSync(p, 0o644);
      // The emulated clock's time, so `ls -l` on another node shows what this one does.
      const t = new Date(e.mtimeMs);
      utimesSync(p, t, t);
    }
    this.setMeta(loc, rel, [e.mode, e.uid, e.gid]);
    const st = lstatSync(p);
    return e.kind === 'dir' ? 'dir' : e.kind === 'symlink' ? `symlink:${st.ctimeMs}` : `file:${st.mtimeMs}:${st.ctimeMs}:${st.size}`;
  }

  remove(loc: string, rel: string): void {
    rmSync(join(this.dir(loc), ...rel.split('/')), { recursive: true, force: true });
    this.setMeta(loc, rel, undefined);
  }

  ensure(loc: string): void {
    mkdirSync(this.dir(loc), { recursive: true });
  }
  has(loc: string): boolean {
    return existsSync(this.dir(loc));
  }

  drop(loc: string): void {
    this.pending.delete(loc);
    this.cache.delete(loc);
    rmSync(this.dir(loc), { recursive: true, force: true });
  }
}
