// cel-go's ext.Sets as kube enables it from 1.29: sets.contains, sets.equivalent, sets.intersects over lists, with
// CEL's heterogeneous equality (cel-go ext/sets.go; staging/src/k8s.io/apiserver/pkg/cel/environment/base.go).

import type { Environment } from '@marcbachmann/cel-js';
import { celEquals } from './compare.js';

/** The `sets` namespace object, so `sets.contains(...)` resolves as a call on it. */
export class SetsNamespace {}

const has = (list: unknown[], v: unknown) => list.some((x) => celEquals(x, v));

/** Every element of `sub` is in `list` (an empty `sub` is contained in anything). */
export const setsContains = (list: unknown[], sub: unknown[]) => sub.every((v) => has(list, v));
export const setsEquivalent = (a: unknown[], b: unknown[]) => setsContains(a, b) && setsContains(b, a);
export const setsIntersects = (a: unknown[], b: unknown[]) => a.some((v) => has(b, v));

export function registerSetsLibrary(env: Environment): void {
  const S = 'kubernetes.SetsNamespace';
  env.registerType(S, SetsNamespace);
  env.registerConstant('sets', S, new SetsNamespace());
  env.registerFunction(`${S}.contains(list, list): bool`, (_: SetsNamespace, a: unknown[], b: unknown[]) => setsContains(a, b));
  env.registerFunction(`${S}.equivalent(list, list): bool`, (_: SetsNamespace, a: unknown[], b: unknown[]) => setsEquivalent(a, b));
  env.registerFunction(`${S}.intersects(list, list): bool`, (_: SetsNamespace, a: unknown[], b: unknown[]) => setsIntersects(a, b));
}
