// The JSONPath subset printer columns use (client-go util/jsonpath as tableconvertor.go runs it, missing keys
// allowed): `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[*]`, `..`-free filters `[?(@.type=="Ready")]`.

type Step = { key: string } | { index: number } | { all: true } | { filter: { path: Step[]; op: '==' | '!='; value: unknown } | { path: Step[] } };

/** Parses `.spec.replicas` (with or without the surrounding braces); throws on what it cannot read. */
export function parseJsonPath(text: string): Step[] {
  let s = text.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  const steps: Step[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '.') {
      i++;
      const m = /^[^.[\]]+/.exec(s.slice(i));
      if (!m) continue;
      steps.push({ key: m[0] });
      i += m[0].length;
    } else if (s[i] === '[') {
      const end = findClose(s, i);
      const inner = s.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ all: true });
      else if (/^-?\d+$/.test(inner)) steps.push({ index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ key: inner.slice(1, -1) });
      else if (inner.startsWith('?(') && inner.endsWith(')')) steps.push({ filter: parseFilter(inner.slice(2, -1).trim()) });
      else throw new Error(`unrecognized identifier ${inner}`);
    } else if (s[i] === '@' || s[i] === '$') i++;
    else {
      const m = /^[^.[\]]+/.exec(s.slice(i));
      steps.push({ key: m![0] });
      i += m![0].length;
    }
  }
  return steps;
}

function findClose(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '[') depth++;
    else if (s[i] === ']' && --depth === 0) return i;
  }
  throw new Error('unclosed array expect ]');
}

function parseFilter(expr: string): { path: Step[]; op: '==' | '!='; value: unknown } | { path: Step[] } {
  const m = /^@(\S*?)\s*(==|!=)\s*(.+)$/.exec(expr);
  if (!m) return { path: parseJsonPath(expr.replace(/^@/, '')) };
  const raw = m[3].trim();
  const value: unknown = /^'.*'$/.test(raw) ? raw.slice(1, -1) : JSON.parse(raw);
  return { path: parseJsonPath(m[1]), op: m[2] as '==' | '!=', value };
}

/** Every value the path reaches (empty when a key is missing). */
export function evalJsonPath(steps: Step[], data: unknown): unknown[] {
  let cur: unknown[] = [data];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if ('key' in step) {
        if (v && typeof v === 'object' && !Array.isArray(v) && step.key in v) next.push((v as Record<string, unknown>)[step.key]);
      } else if ('index' in step) {
        if (Array.isArray(v)) {
          const i = step.index < 0 ? v.length + step.index : step.index;
          if (i >= 0 && i < v.length) next.push(v[i]);
        }
      } else if ('all' in step) {
        if (Array.isArray(v)) next.push(...v);
        else if (v && typeof v === 'object') next.push(...Object.values(v));
      } else {
        const f = step.filter;
        for (const item of Array.isArray(v) ? v : []) {
          const got = evalJsonPath(f.path, item);
          if (!('op' in f)) { if (got.length) next.push(item); continue; }
          const eq = got.length > 0 && JSON.stringify(got[0]) === JSON.stringify(f.value);
          if ((f.op === '==') === eq) next.push(item);
        }
      }
    }
    cur = next;
  }
  return cur;
}
