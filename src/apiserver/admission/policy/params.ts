// The params of a binding: the paramRef's object (by name or selector) of the policy's paramKind, in the
// paramRef's namespace or the request's, and what a missing one means
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/generic/policy_dispatcher.go CollectParams).

import { labelSelectorAsSelector } from '../../../api/labels.js';
import type { KubeObject } from '../../../api/types.js';
import type { ParamRef, PolicySpec } from '../../../api/validation/validating-admission-policy.js';
import type { AdmissionLookup } from '../interfaces.js';

/** Finds the served resource of a kind: group, plural and scope. */
export type KindResolver = (apiVersion: string, kind: string) => { group: string; resource: string; namespaced: boolean } | undefined;

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** The params to evaluate with: [null] without paramKind/paramRef, [] when missing params are allowed. */
export function collectParams(spec: PolicySpec, ref: ParamRef | undefined, namespace: string, lookup: AdmissionLookup, resolve: KindResolver): (KubeObject | null)[] {
  const pk = spec.paramKind;
  if (!pk || !ref) return [null];
  const target = resolve(pk.apiVersion ?? '', pk.kind ?? '');
  if (!target) throw new ConfigurationError(`paramKind kind \`${pk.kind ?? ''}.${pk.apiVersion ?? ''}\` not known`);
  let ns = '';
  if (target.namespaced) {
    ns = ref.namespace || namespace;
    if (!ns) throw new ConfigurationError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (ref.namespace) throw new ConfigurationError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  let found: KubeObject[];
  if (ref.name) {
    const o = lookup.get(target.group, target.resource, ns || undefined, ref.name);
    found = o ? [o] : [];
  } else if (ref.selector) {
    const sel = labelSelectorAsSelector(ref.selector);
    found = lookup.list(target.group, target.resource, ns || undefined).filter((o) => sel.matches(o.metadata.labels));
  } else throw new ConfigurationError('one of name or selector must be provided');
  if (found.length) return found;
  if (ref.parameterNotFoundAction === 'Allow') return [];
  throw new ConfigurationError('no params found for policy binding with `Deny` parameterNotFoundAction');
}
