// The CEL environments Kubernetes expressions compile in: cel-js's standard library (which already has most of
// cel-go's ext.Strings: lowerAscii, upperAscii, trim, split, join, indexOf, substring), optional types, and kube's
// libraries on top, each entering at the release that introduced it. kube keeps two environments
// (staging/src/k8s.io/apiserver/pkg/cel/environment/base.go baseOpts, environment.go EnvSet): `stored`, with every
// library the binary knows, for expressions already persisted; and `new`, for expressions being written, with only
// the libraries introduced at or before the compatibility version — one minor below the server's
// (DefaultCompatibilityVersion; component-base/compatibility/version.go NewEffectiveVersion), so a rollback by one
// release can still run everything written. Evaluations are costed by runtime-cost.ts.

import { Environment } from '@marcbachmann/cel-js';
import { KUBERNETES_VERSION } from '../version.js';
import { registerAuthzLibrary } from './library-authz.js';
import { registerComprehensionsLibrary } from './library-comprehensions.js';
import { registerExtLibraries, registerGlobalMatches } from './library-ext.js';
import { registerFormatLibrary } from './library-format.js';
import { registerKubeTypes } from './library-kube.js';
import { registerNamedFormatLibrary } from './library-named-formats.js';
import { registerSemverLibrary } from './library-semver.js';
import { registerSetsLibrary } from './library-sets.js';

/** Which of kube's two environments: `new` for expressions created or changed, `stored` for persisted ones. */
export type EnvironmentKind = 'new' | 'stored';

/**
 * cel-go's parser limits as kube configures them (base.go: ParserRecursionLimit 200, ParserExpressionSizeLimit via
 * maxLength of the owning fields). kube turns cel.HomogeneousAggregateLiterals on, but cel-go exempts literals inside
 * `format` calls and cel-js cannot, so cel-js checks leniently and homogeneous-literals.ts applies cel-go's rule.
 */
const OPTIONS = {
  enableOptionalTypes: true,
  homogeneousAggregateLiterals: false,
  limits: { maxDepth: 200, maxAstNodes: 100000, maxListElements: 10000, maxMapEntries: 10000, maxCallArguments: 32 },
};

/** A library and the minor release of 1.x whose base.go VersionedOptions introduced it. */
interface VersionedLibrary {
  introduced: number;
  register(env: Environment): void;
}

/** base.go's VersionedOptions, in its order (cel-go's own string/regex/list functions and global matches are 1.0). */
export const LIBRARIES: readonly VersionedLibrary[] = [
  { introduced: 0, register: registerGlobalMatches },
  // kube's lists and regex libraries (1.0) and ext.Strings version 2 (1.29).
  { introduced: 29, register: registerExtLibraries },
  // URLs (1.0), Quantity (1.28), IP and CIDR (1.30): one module, entered at its newest part.
  { introduced: 30, register: registerKubeTypes },
  { introduced: 27, register: registerAuthzLibrary },
  { introduced: 29, register: registerFormatLibrary },
  { introduced: 29, register: registerSetsLibrary },
  { introduced: 33, register: registerSemverLibrary },
  { introduced: 32, register: registerComprehensionsLibrary },
  { introduced: 31, register: registerNamedFormatLibrary },
];

/** The emulated server's minor version (1.33 → 33). */
export const SERVER_MINOR = Number(/^v?1\.(\d+)/.exec(KUBERNETES_VERSION)?.[1] ?? '0');

/** DefaultCompatibilityVersion: the binary's version minus one minor. */
export const COMPATIBILITY_MINOR = SERVER_MINOR - 1;

const bases = new Map<EnvironmentKind, Environment>();

/** The shared bases; building one registers a few hundred overloads, so each is built once and cloned per use. */
function baseEnvironment(kind: EnvironmentKind): Environment {
  let env = bases.get(kind);
  if (!env) {
    const upTo = kind === 'new' ? COMPATIBILITY_MINOR : SERVER_MINOR;
    env = new Environment(OPTIONS);
    for (const lib of LIBRARIES) if (lib.introduced <= upTo) lib.register(env);
    bases.set(kind, env);
  }
  return env;
}

/** A fresh environment of the given kind with kube's libraries, open for variables and types. */
export function newEnvironment(kind: EnvironmentKind = 'stored'): Environment {
  return baseEnvironment(kind).clone(OPTIONS);
}

let storedOnly: ReadonlySet<string> | undefined;

/**
 * Function names the stored environment declares and the new one does not (for 1.33: semver's). cel-go reports a
 * call to one of them in a new expression as an undeclared reference (checker.go checkCall).
 */
export function storedOnlyFunctions(): ReadonlySet<string> {
  if (!storedOnly) {
    const names = (kind: EnvironmentKind) => new Set(baseEnvironment(kind).getDefinitions().functions.map((f) => f.name));
    const fresh = names('new');
    storedOnly = new Set([...names('stored')].filter((n) => !fresh.has(n)));
  }
  return storedOnly;
}
