// A node's files as the network components see them (subnet.env, the CNI config directory, flannel's scratch
// configs): an in-memory map whose paths follow the node's OS (Windows: case-insensitive, `/x` means `C:\x`).

import type { NodeFiles } from './interfaces.js';

export class MemoryFiles implements NodeFiles {
  private readonly files = new Map<string, { path: string; text: string }>();

  constructor(readonly os: 'linux' | 'windows') {}

  /** The map key of a path: on Windows drive-qualified, backslashed and lower-cased. */
  private key(path: string): string {
    if (this.os === 'linux') return path.replace(/\/+$/, '');
    let p = path.replace(/\//g, '\\');
    if (p.startsWith('\\')) p = `C:${p}`;
    return p.replace(/\\+$/, '').toLowerCase();
  }

  read(path: string): string | undefined {
    return this.files.get(this.key(path))?.text;
  }

  write(path: string, text: string): void {
    this.files.set(this.key(path), { path, text });
  }

  remove(path: string): void {
    this.files.delete(this.key(path));
  }

  dirExists(path: string): boolean {
    const k = this.key(path) + (this.os === 'windows' ? '\\' : '/');
    for (const f of this.files.keys()) if (f.startsWith(k)) return true;
    return false;
  }

  /** Files directly in a directory, by name, sorted as libcni's ConfFiles lists them. */
  list(dir: string): { name: string; path: string }[] {
    const sep = this.os === 'windows' ? '\\' : '/';
    const k = this.key(dir) + sep;
    const out: { name: string; path: string }[] = [];
    for (const [f, v] of this.files) {
      if (f.startsWith(k) && !f.slice(k.length).includes(sep)) out.push({ name: v.path.slice(v.path.replace(/\//g, sep).lastIndexOf(sep) + 1), path: v.path });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
