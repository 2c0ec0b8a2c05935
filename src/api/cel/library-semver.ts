// kube's Semver CEL library (1.33, version 1): semver(), isSemver() with optional normalisation, major/minor/patch
// and comparisons, parsing as github.com/blang/semver/v4 Parse does, with its error texts
// (staging/src/k8s.io/apiserver/pkg/cel/library/semverlib.go).

import type { Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError } from './library-ext.js';

export class CelSemver {
  constructor(readonly major: bigint, readonly minor: bigint, readonly patch: bigint, readonly pre: string[], readonly build: string[]) {}

  /** semver.Version.Compare: major, minor, patch, then pre-release identifiers (a release outranks its pre-releases). */
  compareTo(o: CelSemver): number {
    for (const k of ['major', 'minor', 'patch'] as const) if (this[k] !== o[k]) return this[k] < o[k] ? -1 : 1;
    if (!this.pre.length || !o.pre.length) return this.pre.length === o.pre.length ? 0 : this.pre.length ? -1 : 1;
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const c = comparePre(this.pre[i], o.pre[i]);
      if (c) return c;
    }
    return this.pre.length === o.pre.length ? 0 : this.pre.length < o.pre.length ? -1 : 1;
  }
}

const NUM = /^[0-9]+$/;
const ALNUM = /^[0-9A-Za-z-]+$/;

function comparePre(a: string, b: string): number {
  const an = NUM.test(a);
  const bn = NUM.test(b);
  if (an && bn) return BigInt(a) === BigInt(b) ? 0 : BigInt(a) < BigInt(b) ? -1 : 1;
  if (an !== bn) return an ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

const leadingZero = (s: string) => s.length > 1 && s.startsWith('0');

function number(s: string, what: string): bigint {
  if (!NUM.test(s)) throw new Error(`Invalid character(s) found in ${what} number ${JSON.stringify(s)}`);
  if (leadingZero(s)) throw new Error(`${what[0].toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${JSON.stringify(s)}`);
  const n = BigInt(s);
  if (n > 18446744073709551615n) throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

/** semver.Parse. */
export function parseSemver(s: string): CelSemver {
  if (!s) throw new Error('Version string empty');
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) throw new Error('No Major.Minor.Patch elements found');
  const major = number(parts[0], 'major');
  const minor = number(parts[1], 'minor');
  let patch = parts[2];
  let build: string[] = [];
  let pre: string[] = [];
  const b = patch.indexOf('+');
  if (b >= 0) {
    build = patch.slice(b + 1).split('.');
    patch = patch.slice(0, b);
  }
  const p = patch.indexOf('-');
  if (p >= 0) {
    pre = patch.slice(p + 1).split('.');
    patch = patch.slice(0, p);
  }
  const pn = number(patch, 'patch');
  for (const id of pre) {
    if (!id) throw new Error('Prerelease is empty');
    if (NUM.test(id) && leadingZero(id)) throw new Error(`Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(id)}`);
    if (!ALNUM.test(id)) throw new Error(`Invalid character(s) found in prerelease ${JSON.stringify(id)}`);
  }
  for (const id of build) {
    if (!id) throw new Error('Build meta data is empty');
    if (!ALNUM.test(id)) throw new Error(`Invalid character(s) found in build meta data ${JSON.stringify(id)}`);
  }
  return new CelSemver(major, minor, pn, pre, build);
}

/** strings.SplitN. */
function splitN(s: string, sep: string, n: number): string[] {
  const out = s.split(sep);
  return out.length <= n ? out : [...out.slice(0, n - 1), out.slice(n - 1).join(sep)];
}

/** normalizeAndParse: drop a leading v, strip leading zeros, fill a missing minor/patch with 0. */
export function normalizeAndParse(s: string): CelSemver {
  const parts = splitN(s.startsWith('v') ? s.slice(1) : s, '.', 3).map((p) => {
    if (p.length <= 1) return p;
    const t = p.replace(/^0+/, '');
    return !t || !/^[0-9]/.test(t) ? `0${t}` : t;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1])) throw new Error('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}

function toSemver(s: string, normalize: boolean): CelSemver {
  try {
    return normalize ? normalizeAndParse(s) : parseSemver(s);
  } catch (err) {
    throw new CelRuntimeError((err as Error).message);
  }
}

function isSemver(s: string, normalize: boolean): boolean {
  try {
    toSemver(s, normalize);
    return true;
  } catch {
    return false;
  }
}

export function registerSemverLibrary(env: Environment): void {
  const V = 'kubernetes.Semver';
  env.registerType(V, CelSemver);
  env.registerFunction(`semver(string): ${V}`, (s: string) => toSemver(s, false));
  env.registerFunction(`semver(string, bool): ${V}`, toSemver);
  env.registerFunction('isSemver(string): bool', (s: string) => isSemver(s, false));
  env.registerFunction('isSemver(string, bool): bool', isSemver);
  env.registerFunction(`${V}.major(): int`, (v: CelSemver) => v.major);
  env.registerFunction(`${V}.minor(): int`, (v: CelSemver) => v.minor);
  env.registerFunction(`${V}.patch(): int`, (v: CelSemver) => v.patch);
  env.registerFunction(`${V}.isGreaterThan(${V}): bool`, (a: CelSemver, b: CelSemver) => a.compareTo(b) === 1);
  env.registerFunction(`${V}.isLessThan(${V}): bool`, (a: CelSemver, b: CelSemver) => a.compareTo(b) === -1);
  env.registerFunction(`${V}.compareTo(${V}): int`, (a: CelSemver, b: CelSemver) => BigInt(a.compareTo(b)));
}
