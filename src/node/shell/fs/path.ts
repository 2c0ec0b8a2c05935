// Path syntax of the container's OS: Linux `/a/b`; Windows `C:\a\b` (case-insensitive, `/` accepted as a separator,
// `\x` rooted on the current drive, `C:x` relative to the drive's current directory).

export type OsKind = 'linux' | 'windows';

/** Segments of an absolute path after `.`/`..` are resolved; on Windows the first segment is the drive (`C:`). */
export type Segments = string[];

const DRIVE = /^([A-Za-z]):/;

export function sep(os: OsKind): string {
  return os === 'windows' ? '\\' : '/';
}

/** The comparison key of one name: Windows names compare case-insensitively. */
export function nameKey(os: OsKind, name: string): string {
  return os === 'windows' ? name.toLowerCase() : name;
}

export function isAbsolute(os: OsKind, p: string): boolean {
  if (os === 'linux') return p.startsWith('/');
  return /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\') || p.startsWith('/');
}

function normalise(parts: string[], into: Segments, keepFirst: number): Segments {
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (into.length > keepFirst) into.pop();
      continue;
    }
    into.push(part);
  }
  return into;
}

/** Resolves `p` against the absolute `cwd` into segments. */
export function resolveSegments(os: OsKind, cwd: string, p: string): Segments {
  if (os === 'linux') {
    const base = p.startsWith('/') ? [] : normalise(cwd.split('/'), [], 0);
    return normalise(p.split('/'), base, 0);
  }
  const q = p.replace(/\//g, '\\');
  const cwdSegs = normalise(cwd.replace(/\//g, '\\').replace(DRIVE, '$1:\\').split('\\'), [], 1);
  const cwdDrive = cwdSegs[0]?.toUpperCase() ?? 'C:';
  const m = DRIVE.exec(q);
  if (m) {
    const drive = `${m[1].toUpperCase()}:`;
    const rest = q.slice(2);
    if (rest.startsWith('\\')) return normalise(rest.split('\\'), [drive], 1);
    // `C:x` is relative to the drive's current directory; only the current drive's is known.
    const base = drive === cwdDrive ? [...cwdSegs] : [drive];
    base[0] = drive;
    return normalise(rest.split('\\'), base, 1);
  }
  if (q.startsWith('\\')) return normalise(q.split('\\'), [cwdDrive], 1);
  const base = [...cwdSegs];
  if (base.length === 0) base.push(cwdDrive);
  base[0] = cwdDrive;
  return normalise(q.split('\\'), base, 1);
}

export function formatSegments(os: OsKind, segs: Segments): string {
  if (os === 'linux') return `/${segs.join('/')}`;
  if (segs.length === 0) return 'C:\\';
  if (segs.length === 1) return `${segs[0]}\\`;
  return `${segs[0]}\\${segs.slice(1).join('\\')}`;
}

export function resolvePath(os: OsKind, cwd: string, p: string): string {
  return formatSegments(os, resolveSegments(os, cwd, p));
}

export function basename(os: OsKind, p: string): string {
  const parts = (os === 'windows' ? p.replace(/\//g, '\\').split('\\') : p.split('/')).filter((s) => s !== '');
  const last = parts[parts.length - 1] ?? '';
  return os === 'windows' ? last.replace(DRIVE, '') : last;
}

export function dirname(os: OsKind, p: string): string {
  if (os === 'linux') {
    const trimmed = p.replace(/\/+$/, '');
    const i = trimmed.lastIndexOf('/');
    if (i < 0) return '.';
    return i === 0 ? '/' : trimmed.slice(0, i);
  }
  const q = p.replace(/\//g, '\\').replace(/\\+$/, '');
  const i = q.lastIndexOf('\\');
  if (i < 0) return DRIVE.test(q) ? q.slice(0, 2) : '.';
  return i <= 2 && DRIVE.test(q) ? q.slice(0, i + 1) : q.slice(0, i);
}

export function joinPath(os: OsKind, a: string, b: string): string {
  const s = sep(os);
  if (isAbsolute(os, b)) return b;
  if (a.endsWith(s) || a.endsWith('/')) return a + b;
  return a + s + b;
}
