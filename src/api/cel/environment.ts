// The CEL environment Kubernetes expressions compile in: cel-js's standard library (which already has most of
// cel-go's ext.Strings: lowerAscii, upperAscii, trim, split, join, indexOf, substring), optional types, and kube's
// libraries on top, two-variable comprehensions and the format library included
// (staging/src/k8s.io/apiserver/pkg/cel/environment/base.go). Evaluations are costed by runtime-cost.ts.

import { Environment } from '@marcbachmann/cel-js';
import { registerAuthzLibrary } from './library-authz.js';
import { registerComprehensionsLibrary } from './library-comprehensions.js';
import { registerExtLibraries } from './library-ext.js';
import { registerFormatLibrary } from './library-format.js';
import { registerKubeTypes } from './library-kube.js';
import { registerNamedFormatLibrary } from './library-named-formats.js';
import { registerSemverLibrary } from './library-semver.js';
import { registerSetsLibrary } from './library-sets.js';

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

let base: Environment | undefined;

/** The shared base; building it registers a few hundred overloads, so it is built once and cloned per use. */
function baseEnvironment(): Environment {
  if (!base) {
    const env = new Environment(OPTIONS);
    registerExtLibraries(env);
    registerKubeTypes(env);
    registerAuthzLibrary(env);
    registerFormatLibrary(env);
    registerSetsLibrary(env);
    registerSemverLibrary(env);
    registerComprehensionsLibrary(env);
    registerNamedFormatLibrary(env);
    base = env;
  }
  return base;
}

/** A fresh environment with kube's libraries, open for variables and types. */
export function newEnvironment(): Environment {
  return baseEnvironment().clone(OPTIONS);
}
