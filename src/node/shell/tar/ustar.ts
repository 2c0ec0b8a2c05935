// The tar archive format: POSIX ustar headers (name split into prefix/name), GNU long-name records (`L`/`K`) and
// pax extended headers (`x`/`g`) when reading; ustar plus GNU long names when writing.

export interface TarEntry {
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';
  mode: number;
  uid: number;
  gid: number;
  uname: string;
  gname: string;
  /** Seconds since the epoch. */
  mtime: number;
  data: Buffer;
  linkname: string;
}

const BLOCK = 512;

function writeString(h: Buffer, off: number, len: number, s: string): void {
  const b = Buffer.from(s);
  b.copy(h, off, 0, Math.min(len, b.length));
}

function writeOctal(h: Buffer, off: number, len: number, n: number): void {
  // len-1 octal digits, then NUL (the ustar convention GNU and BusyBox tar write).
  writeString(h, off, len, `${Math.max(0, Math.floor(n)).toString(8).padStart(len - 1, '0')}\0`);
}

function checksum(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
  return sum;
}

const TYPEFLAG: Record<TarEntry['type'], string> = { file: '0', hardlink: '1', symlink: '2', dir: '5', other: '0' };

function header(e: TarEntry, name: string, prefix: string, typeflag: string, size: number, linkname: string): Buffer {
  const h = Buffer.alloc(BLOCK);
  writeString(h, 0, 100, name);
  writeOctal(h, 100, 8, e.mode & 0o7777);
  writeOctal(h, 108, 8, e.uid);
  writeOctal(h, 116, 8, e.gid);
  writeOctal(h, 124, 12, size);
  writeOctal(h, 136, 12, e.mtime);
  h[156] = typeflag.charCodeAt(0);
  writeString(h, 157, 100, linkname);
  writeString(h, 257, 6, 'ustar\0');
  writeString(h, 263, 2, '00');
  writeString(h, 265, 32, e.uname);
  writeString(h, 297, 32, e.gname);
  writeString(h, 345, 155, prefix);
  writeString(h, 148, 8, `${checksum(h).toString(8).padStart(6, '0')}\0 `);
  return h;
}

function pad(b: Buffer): Buffer {
  const rem = b.length % BLOCK;
  return rem === 0 ? b : Buffer.concat([b, Buffer.alloc(BLOCK - rem)]);
}

/** Splits a long name into ustar prefix (≤155) and name (≤100) at a slash, if it can be. */
function splitName(name: string): [string, string] | undefined {
  if (Buffer.byteLength(name) <= 100) return ['', name];
  for (let i = name.length - 1; i > 0; i--) {
    if (name[i] !== '/') continue;
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest.length > 0) return [prefix, rest];
  }
  return undefined;
}

export function encodeTar(entries: TarEntry[]): Buffer {
  const out: Buffer[] = [];
  for (const e of entries) {
    const name = e.type === 'dir' && !e.name.endsWith('/') ? `${e.name}/` : e.name;
    const size = e.type === 'file' ? e.data.length : 0;
    let split = splitName(name);
    if (!split) {
      const long = Buffer.from(`${name}\0`);
      out.push(header({ ...e, mode: 0o644, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: 0 }, '././@LongLink', '', 'L', long.length, ''), pad(long));
      split = ['', name.slice(0, 100)];
    }
    let linkname = e.linkname;
    if (Buffer.byteLength(linkname) > 100) {
      const long = Buffer.from(`${linkname}\0`);
      out.push(header({ ...e, mode: 0o644, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: 0 }, '././@LongLink', '', 'K', long.length, ''), pad(long));
      linkname = linkname.slice(0, 100);
    }
    out.push(header(e, split[1], split[0], TYPEFLAG[e.type], size, linkname));
    if (size) out.push(pad(e.data));
  }
  // Two zero blocks end the archive; GNU tar pads the whole to a 10240-byte record.
  out.push(Buffer.alloc(BLOCK * 2));
  const total = out.reduce((n, b) => n + b.length, 0);
  const record = 10240;
  if (total % record) out.push(Buffer.alloc(record - (total % record)));
  return Buffer.concat(out);
}

function readString(h: Buffer, off: number, len: number): string {
  const s = h.subarray(off, off + len);
  const nul = s.indexOf(0);
  return s.subarray(0, nul < 0 ? len : nul).toString();
}

function readOctal(h: Buffer, off: number, len: number): number {
  if (h[off] & 0x80) {
    // GNU base-256 for large values.
    let n = 0;
    for (let i = off + 1; i < off + len; i++) n = n * 256 + h[i];
    return n;
  }
  const s = readString(h, off, len).trim();
  return s ? parseInt(s, 8) : 0;
}

function parsePax(b: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < b.length) {
    const sp = b.indexOf(32, i);
    if (sp < 0) break;
    const len = parseInt(b.subarray(i, sp).toString(), 10);
    if (!len) break;
    const rec = b.subarray(sp + 1, i + len - 1).toString();
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

export class TarFormatError extends Error {}

/** Decodes an archive; throws TarFormatError when the data is not tar. */
export function decodeTar(buf: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let off = 0;
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax: Record<string, string> = {};
  let global: Record<string, string> = {};
  while (off + BLOCK <= buf.length) {
    const h = buf.subarray(off, off + BLOCK);
    if (h.every((x) => x === 0)) break;
    const sum = readOctal(h, 148, 8);
    if (sum !== checksum(h)) throw new TarFormatError('invalid tar header checksum');
    const type = String.fromCharCode(h[156] || 48);
    const size = readOctal(h, 124, 12);
    const dataStart = off + BLOCK;
    const data = buf.subarray(dataStart, dataStart + size);
    if (data.length < size) throw new TarFormatError('unexpected end of archive');
    off = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') { longName = readString(data, 0, data.length); continue; }
    if (type === 'K') { longLink = readString(data, 0, data.length); continue; }
    if (type === 'x') { pax = parsePax(data); continue; }
    if (type === 'g') { global = { ...global, ...parsePax(data) }; continue; }
    const magic = readString(h, 257, 6);
    const prefix = magic.startsWith('ustar') && h[345] ? readString(h, 345, 155) : '';
    let name = longName ?? pax.path ?? global.path ?? (prefix ? `${prefix}/${readString(h, 0, 100)}` : readString(h, 0, 100));
    const kind: TarEntry['type'] = type === '5' ? 'dir' : type === '2' ? 'symlink' : type === '1' ? 'hardlink' : type === '0' || type === '7' ? 'file' : 'other';
    if (kind === 'dir') name = name.replace(/\/+$/, '');
    entries.push({
      name,
      type: kind,
      mode: readOctal(h, 100, 8),
      uid: pax.uid ? Number(pax.uid) : readOctal(h, 108, 8),
      gid: pax.gid ? Number(pax.gid) : readOctal(h, 116, 8),
      uname: pax.uname ?? readString(h, 265, 32),
      gname: pax.gname ?? readString(h, 297, 32),
      mtime: pax.mtime ? Math.floor(Number(pax.mtime)) : readOctal(h, 136, 12),
      data: kind === 'file' ? Buffer.from(data) : Buffer.alloc(0),
      linkname: longLink ?? pax.linkpath ?? readString(h, 157, 100),
    });
    longName = undefined;
    longLink = undefined;
    pax = {};
  }
  if (entries.length === 0 && buf.length > 0 && off === 0 && !buf.subarray(0, Math.min(BLOCK, buf.length)).every((x) => x === 0)) {
    throw new TarFormatError('not a tar archive');
  }
  return entries;
}
