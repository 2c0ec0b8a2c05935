// Pod Security Standards: levels, versions, the check registry and result aggregation
// (staging/src/k8s.io/pod-security-admission/api/helpers.go, policy/registry.go, policy/checks.go, policy/helpers.go).

import type { Container, EphemeralContainer, PodSpec } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';

export type Level = 'privileged' | 'baseline' | 'restricted';
/** A policy version: a minor of 1.x, or Infinity for `latest`. */
export type Version = number;
export const LATEST: Version = Infinity;

export interface LevelVersion {
  level: Level;
  version: Version;
}

/** `baseline:latest`, `restricted:v1.28` (LevelVersion.String). */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${lv.version === LATEST ? 'latest' : `v1.${lv.version}`}`;
}

/** A failed check: the reason and detail users see, e.g. `host namespaces (hostNetwork=true)`. */
export interface Violation {
  reason: string;
  detail: string;
}

export type CheckFn = (meta: ObjectMeta, spec: PodSpec) => Violation | undefined;

export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** Implementations by the minor version they apply from, ascending. */
  versions: { min: number; fn: CheckFn; overrides?: string[] }[];
}

// ---- message helpers (policy/helpers.go) ----

export const pluralize = (single: string, plural: string, n: number): string => (n === 1 ? single : plural);
/** `"a", "b"`: each value Go-quoted (%q), comma separated. */
export const joinQuote = (items: string[]): string => items.map((s) => JSON.stringify(s)).join(', ');
/** `container "a"` or `containers "a", "b"`. */
export const containersPhrase = (names: string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
/** Sorted unique values, as sets.String.List() gives them. */
export const sortedSet = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** Init containers, then containers, then ephemeral containers (policy/visitor.go). */
export function visitContainers(spec: PodSpec, visit: (c: Container | EphemeralContainer) => void): void {
  for (const c of spec.initContainers ?? []) visit(c);
  for (const c of spec.containers ?? []) visit(c);
  for (const c of spec.ephemeralContainers ?? []) visit(c);
}

export const isWindowsPod = (spec: PodSpec): boolean => spec.os?.name === 'windows';

// ---- evaluation (policy/registry.go) ----

function implementationFor(check: Check, version: Version) {
  let chosen: Check['versions'][number] | undefined;
  for (const v of check.versions) if (v.min <= version) chosen = v;
  return chosen;
}

/**
 * The checks of a level at a version, baseline IDs sorted then restricted IDs sorted; restricted includes the baseline
 * checks its own checks do not override.
 */
export function checksFor(all: Check[], lv: LevelVersion): CheckFn[] {
  if (lv.level === 'privileged') return [];
  const pick = (level: Check['level']) => all.filter((c) => c.level === level).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const chosen = [...pick('baseline'), ...(lv.level === 'restricted' ? pick('restricted') : [])]
    .map((c) => ({ id: c.id, impl: implementationFor(c, lv.version) }))
    .filter((c) => c.impl !== undefined);
  const overridden = new Set(chosen.flatMap((c) => c.impl!.overrides ?? []));
  return chosen.filter((c) => !overridden.has(c.id)).map((c) => c.impl!.fn);
}

export function evaluatePod(all: Check[], lv: LevelVersion, meta: ObjectMeta, spec: PodSpec): Violation[] {
  return checksFor(all, lv).map((fn) => fn(meta, spec)).filter((v): v is Violation => v !== undefined);
}

/** `reason (detail), reason (detail)` (AggregateCheckResult.ForbiddenDetail). */
export function forbiddenDetail(violations: Violation[]): string {
  return violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(', ');
}
