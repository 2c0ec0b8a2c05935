// The variables admission expressions are checked against — object, oldObject, request (typed AdmissionRequest),
// namespaceObject, params, authorizer, variables — per combination kube declares
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go BuildRequestType, mustBuildEnvs).

import type { Environment } from '@marcbachmann/cel-js';
import type { Declarations } from './compile.js';

const GVK = 'kubernetes.GroupVersionKind';
const GVR = 'kubernetes.GroupVersionResource';
const USER = 'kubernetes.UserInfo';
const REQUEST = 'kubernetes.AdmissionRequest';
const AUTHORIZER = 'kubernetes.authorization.Authorizer';

/** The typed AdmissionRequest, so `request.nmae` is a compile error as in kube. */
function requestTypes(env: Environment): void {
  env.registerType(GVK, { fields: { group: 'string', version: 'string', kind: 'string' } });
  env.registerType(GVR, { fields: { group: 'string', version: 'string', resource: 'string' } });
  env.registerType(USER, { fields: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' } });
  env.registerType(REQUEST, {
    fields: {
      kind: GVK, resource: GVR, subResource: 'string', requestKind: GVK, requestResource: GVR, requestSubResource: 'string',
      name: 'string', namespace: 'string', operation: 'string', userInfo: USER, dryRun: 'bool', options: 'dyn',
    },
  });
}

export interface DeclarationOptions {
  params: boolean;
  authorizer: boolean;
  /** Composited variables (ValidatingAdmissionPolicy spec.variables) with their checked types. */
  variables?: Record<string, string>;
}

const declCache = new Map<string, Declarations>();

/** The declarations for a combination of optional variables (kube pre-builds one environment per combination). */
export function admissionDeclarations(o: DeclarationOptions): Declarations {
  const key = JSON.stringify(o);
  let d = declCache.get(key);
  if (!d) {
    const variables: Record<string, string> = { object: 'dyn', oldObject: 'dyn', request: REQUEST, namespaceObject: 'dyn' };
    if (o.params) variables.params = 'dyn';
    if (o.authorizer) variables.authorizer = AUTHORIZER;
    const fields = o.variables;
    if (fields) variables.variables = 'kubernetes.variables';
    d = {
      variables,
      types: (env) => {
        requestTypes(env);
        if (fields) env.registerType('kubernetes.variables', { fields });
      },
    };
    if (!fields) declCache.set(key, d);
  }
  return d;
}

