// Kubernetes' CEL extension functions that cel-js lacks: the rest of cel-go's ext.Strings version 2 as kube 1.29+
// enables it (charAt, replace; reverse is version 3, not in kube 1.33; format and quote in library-format.ts), kube's
// lists (isSorted, sum, min, max, indexOf, lastIndexOf) and regex (find, findAll)
// (staging/src/k8s.io/apiserver/pkg/cel/library/lists.go, regex.go; cel-go ext/strings.go).

import type { Environment } from '@marcbachmann/cel-js';
import { celEquals, compare } from './compare.js';

/** A runtime error cel-js reports as the evaluation error of the expression. */
export class CelRuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CelRuntimeError';
  }
}

const re = (pattern: string): RegExp => {
  try {
    return new RegExp(pattern, 'u');
  } catch (err) {
    throw new CelRuntimeError(`Illegal regex: ${(err as Error).message}`);
  }
};

function registerStrings(env: Environment): void {
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = [...s];
    if (i < 0n || i > BigInt(chars.length)) throw new CelRuntimeError(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => s.split(a).join(b));
  env.registerFunction('string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => {
    if (n < 0n) return s.split(a).join(b);
    const parts = s.split(a);
    const k = Number(n);
    return parts.length - 1 <= k ? parts.join(b) : parts.slice(0, k + 1).join(b) + a + parts.slice(k + 1).join(a);
  });
}


function registerLists(env: Environment): void {
  env.registerFunction('list<dyn>.isSorted(): bool', (l: unknown[]) => l.every((x, i) => i === 0 || compare(l[i - 1], x) <= 0));
  env.registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((a, b) => a + b, 0n));
  env.registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0));
  for (const t of ['int', 'double', 'string', 'bool', 'bytes', 'dyn']) {
    const pick = (op: 'min' | 'max') => (l: unknown[]) => {
      if (!l.length) throw new CelRuntimeError(`${op} called on empty list`);
      return l.reduce((a, b) => ((op === 'min' ? compare(b, a) < 0 : compare(b, a) > 0) ? b : a));
    };
    env.registerFunction(`list<${t}>.min(): ${t}`, pick('min'));
    env.registerFunction(`list<${t}>.max(): ${t}`, pick('max'));
  }
  env.registerFunction('list<dyn>.indexOf(dyn): int', (l: unknown[], v: unknown) => BigInt(l.findIndex((x) => celEquals(x, v))));
  env.registerFunction('list<dyn>.lastIndexOf(dyn): int', (l: unknown[], v: unknown) => {
    for (let i = l.length - 1; i >= 0; i--) if (celEquals(l[i], v)) return BigInt(i);
    return -1n;
  });
}

function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, p: string) => re(p).exec(s)?.[0] ?? '');
  const findAll = (s: string, p: string, n: bigint) => {
    const all = [...s.matchAll(new RegExp(re(p).source, 'gu'))].map((m) => m[0]);
    return n < 0n ? all : all.slice(0, Number(n));
  };
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n));
  env.registerFunction('string.findAll(string, int): list<string>', findAll);
}

/**
 * cel-go's standard library declares matches both as `s.matches(re)` and as the global `matches(s, re)` (overloads
 * matches_string and matches, cel-go common/stdlib/standard.go); cel-js has only the member. The global form runs the
 * member's test with the member's error text.
 */
export function registerGlobalMatches(env: Environment): void {
  env.registerFunction('matches(string, string): bool', (s: string, pattern: string) => {
    let rx: RegExp;
    try {
      rx = new RegExp(pattern);
    } catch {
      throw new CelRuntimeError(`Invalid regular expression: ${pattern}`);
    }
    return rx.test(s);
  });
}

export function registerExtLibraries(env: Environment): void {
  registerStrings(env);
  registerLists(env);
  registerRegex(env);
}
