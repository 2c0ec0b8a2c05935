// Shell patterns (*, ?, [...]) for case, ${x#pat}, [[ == ]] and pathname expansion against the container's files.
// A pattern string marks quoted characters with a backslash so they match literally.

import type { VirtualFs } from '../fs/vfs.js';

export function hasGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') { i++; continue; }
    if (c === '*' || c === '?' || c === '[') return true;
  }
  return false;
}

export function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/gs, '$1');
}

export function escapeGlob(s: string): string {
  return s.replace(/[\\*?[\]]/g, '\\$&');
}

/** Converts a pattern to a regular expression source (no anchors). */
export function patternSource(pattern: string, greedy = true): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const n = pattern[++i] ?? '\\';
      out += n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      continue;
    }
    if (c === '*') { out += greedy ? '.*' : '.*?'; continue; }
    if (c === '?') { out += '.'; continue; }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end > 0) {
        let body = pattern.slice(i + 1, end);
        const neg = body.startsWith('!') || body.startsWith('^');
        if (neg) body = body.slice(1);
        body = body.replace(/\[:(\w+):\]/g, (_, cls: string) => ({ alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', space: '\\s', upper: 'A-Z', lower: 'a-z', xdigit: '0-9a-fA-F' } as Record<string, string>)[cls] ?? '');
        out += `[${neg ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/]/g, '\\]')}]`;
        i = end;
        continue;
      }
    }
    out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

export function matchPattern(pattern: string, s: string, ignoreCase = false): boolean {
  return new RegExp(`^${patternSource(pattern)}$`, ignoreCase ? 'is' : 's').test(s);
}

/** Pathname expansion; sorted matches, or [] when nothing matches. */
export function globPaths(fs: VirtualFs, cwd: string, pattern: string): string[] {
  const absolute = pattern.startsWith('/');
  const segs = pattern.split('/').filter((s, i) => s !== '' || i === 0);
  let current: { display: string; abs: string }[] = [{ display: absolute ? '/' : '', abs: absolute ? '/' : cwd }];
  for (const seg of segs) {
    if (seg === '') continue;
    const next: { display: string; abs: string }[] = [];
    for (const c of current) {
      const join = (name: string) => (c.display === '' ? name : c.display.endsWith('/') ? c.display + name : `${c.display}/${name}`);
      if (!hasGlob(seg)) {
        const name = unescapePattern(seg);
        const abs = fs.resolve(c.abs, name);
        if (fs.lstat(abs)) next.push({ display: join(name), abs });
        continue;
      }
      const node = fs.stat(c.abs);
      if (!node || node.kind !== 'dir') continue;
      const re = new RegExp(`^${patternSource(seg)}$`, 's');
      const names = fs.entries(node).map((n) => n.name).filter((n) => re.test(n) && (!n.startsWith('.') || seg.startsWith('.') || seg.startsWith('\\.'))).sort();
      for (const n of names) next.push({ display: join(n), abs: fs.resolve(c.abs, n) });
    }
    current = next;
  }
  return current.map((c) => c.display).filter((d) => d !== '' && d !== '/');
}
