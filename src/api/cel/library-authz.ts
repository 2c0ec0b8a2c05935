// The `authorizer` variable of admission expressions: path/group/resource checks answered by the API server's
// authorizer, with the field and label selectors of AuthzSelectors (on by default from 1.32, AuthorizeWithSelectors)
// (staging/src/k8s.io/apiserver/pkg/cel/library/authz.go; pkg/cel/environment/base.go).

import type { Environment } from '@marcbachmann/cel-js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/names.js';
import { CelRuntimeError } from './library-ext.js';

export interface AuthzCheckAttributes {
  path?: string;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  verb: string;
  isResourceRequest: boolean;
  /** Another user to check for (authorizer.serviceAccount). */
  serviceAccount?: { namespace: string; name: string };
  /** ResourceCheck.fieldSelector / labelSelector, unparsed (the authorizer parses them, AttributesRecord). */
  fieldSelector?: string;
  labelSelector?: string;
}

export interface AuthzDecisionValue {
  decision: 'Allow' | 'Deny' | 'NoOpinion';
  reason: string;
  error?: string;
}

/** What answers a check: the request's user, or the named ServiceAccount, against the API server's authorizer. */
export type AuthzCheck = (a: AuthzCheckAttributes) => Promise<AuthzDecisionValue>;

export class CelAuthorizer {
  /** authorizer.requestResource: the check for the resource of the request being admitted. */
  requestResource?: CelResourceCheck;
  constructor(readonly check: AuthzCheck, readonly serviceAccount?: { namespace: string; name: string }) {}
}

export class CelPathCheck {
  constructor(readonly authz: CelAuthorizer, readonly path: string) {}
}

export class CelGroupCheck {
  constructor(readonly authz: CelAuthorizer, readonly group: string) {}
}

export class CelResourceCheck {
  constructor(readonly authz: CelAuthorizer, readonly group: string, readonly resource: string,
    readonly subresource = '', readonly namespace = '', readonly name = '', readonly fieldSelector = '', readonly labelSelector = '') {}
  with(patch: Partial<Pick<CelResourceCheck, 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector'>>): CelResourceCheck {
    const n = { ...this, ...patch };
    return new CelResourceCheck(this.authz, this.group, this.resource, n.subresource, n.namespace, n.name, n.fieldSelector, n.labelSelector);
  }
}

export class CelDecision {
  constructor(readonly value: AuthzDecisionValue) {}
}

const A = 'kubernetes.authorization.Authorizer';
const P = 'kubernetes.authorization.PathCheck';
const G = 'kubernetes.authorization.GroupCheck';
const R = 'kubernetes.authorization.ResourceCheck';
const D = 'kubernetes.authorization.Decision';

export function registerAuthzLibrary(env: Environment): void {
  env.registerType(R, CelResourceCheck);
  env.registerType(D, CelDecision);
  env.registerType(P, CelPathCheck);
  env.registerType(G, CelGroupCheck);
  env.registerType(A, { ctor: CelAuthorizer, fields: { requestResource: R } });
  env.registerFunction(`${A}.path(string): ${P}`, (a: CelAuthorizer, p: string) => new CelPathCheck(a, p));
  env.registerFunction(`${A}.group(string): ${G}`, (a: CelAuthorizer, g: string) => new CelGroupCheck(a, g));
  env.registerFunction(`${A}.serviceAccount(string, string): ${A}`, (a: CelAuthorizer, namespace: string, name: string) => {
    if (isDNS1123Subdomain(name).length) throw new CelRuntimeError('Invalid service account name');
    if (isDNS1123Label(namespace).length) throw new CelRuntimeError('Invalid service account namespace');
    return new CelAuthorizer(a.check, { namespace, name });
  });
  env.registerFunction(`${G}.resource(string): ${R}`, (g: CelGroupCheck, r: string) => {
    if (!r.trim()) throw new CelRuntimeError('resource must not be empty');
    return new CelResourceCheck(g.authz, g.group, r);
  });
  env.registerFunction(`${R}.fieldSelector(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ fieldSelector: s }));
  env.registerFunction(`${R}.labelSelector(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ labelSelector: s }));
  env.registerFunction(`${R}.subresource(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ subresource: s }));
  env.registerFunction(`${R}.namespace(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ namespace: s }));
  env.registerFunction(`${R}.name(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ name: s }));
  env.registerFunction(`${R}.check(string): ${D}`, async (r: CelResourceCheck, verb: string) => new CelDecision(await r.authz.check({
    group: r.group, resource: r.resource, subresource: r.subresource, namespace: r.namespace, name: r.name, verb,
    isResourceRequest: true, serviceAccount: r.authz.serviceAccount,
    ...(r.fieldSelector ? { fieldSelector: r.fieldSelector } : {}), ...(r.labelSelector ? { labelSelector: r.labelSelector } : {}),
  })), { async: true });
  env.registerFunction(`${P}.check(string): ${D}`, async (p: CelPathCheck, verb: string) => new CelDecision(await p.authz.check({
    path: p.path, group: '', resource: '', subresource: '', namespace: '', name: '', verb, isResourceRequest: false,
    serviceAccount: p.authz.serviceAccount,
  })), { async: true });
  env.registerFunction(`${D}.allowed(): bool`, (d: CelDecision) => d.value.decision === 'Allow');
  env.registerFunction(`${D}.reason(): string`, (d: CelDecision) => d.value.reason);
  env.registerFunction(`${D}.errored(): bool`, (d: CelDecision) => !!d.value.error);
  env.registerFunction(`${D}.error(): string`, (d: CelDecision) => d.value.error ?? '');
}
