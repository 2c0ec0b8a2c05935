// The variables admission expressions are checked against — object, oldObject, request (typed AdmissionRequest),
// namespaceObject (typed Namespace), params, authorizer, variables — per combination kube declares
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go BuildRequestType, mustBuildEnvs).

import type { Environment } from '@marcbachmann/cel-js';
import type { Declarations } from './compile.js';

const GVK = 'kubernetes.GroupVersionKind';
const GVR = 'kubernetes.GroupVersionResource';
const USER = 'kubernetes.UserInfo';
const REQUEST = 'kubernetes.AdmissionRequest';
const AUTHORIZER = 'kubernetes.authorization.Authorizer';
const NAMESPACE = 'kubernetes.Namespace';
const TIMESTAMP = 'google.protobuf.Timestamp';

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

/**
 * namespaceObject's type (compile.go buildNamespaceType): only these fields, so `namespaceObject.metadata.uid` is a
 * compile error as in kube, which spells the field `UID`.
 */
function namespaceTypes(env: Environment): void {
  env.registerType('kubernetes.NamespaceSpec', { fields: { finalizers: 'list<string>' } });
  env.registerType('kubernetes.NamespaceCondition', {
    fields: { status: 'string', type: 'string', lastTransitionTime: TIMESTAMP, message: 'string', reason: 'string' },
  });
  env.registerType('kubernetes.NamespaceStatus', { fields: { conditions: 'list<kubernetes.NamespaceCondition>', phase: 'string' } });
  env.registerType('kubernetes.NamespaceMetadata', {
    fields: {
      name: 'string', generateName: 'string', namespace: 'string', labels: 'map<string, string>', annotations: 'map<string, string>',
      UID: 'string', creationTimestamp: TIMESTAMP, deletionGracePeriodSeconds: 'int', deletionTimestamp: TIMESTAMP,
      generation: 'int', resourceVersion: 'string', finalizers: 'list<string>',
    },
  });
  env.registerType(NAMESPACE, {
    fields: { metadata: 'kubernetes.NamespaceMetadata', spec: 'kubernetes.NamespaceSpec', status: 'kubernetes.NamespaceStatus' },
  });
}

export interface DeclarationOptions {
  params: boolean;
  authorizer: boolean;
  /** Composited variables (ValidatingAdmissionPolicy spec.variables) with their checked types. */
  variables?: Record<string, string>;
  /**
   * The policy type checker's typed object/oldObject and params (typechecking.go buildEnvSet), with the types they
   * name; admission itself declares them dyn.
   */
  typed?: { object?: string; params?: string; install: (env: Environment) => void };
}

const declCache = new Map<string, Declarations>();

/** The declarations for a combination of optional variables (kube pre-builds one environment per combination). */
export function admissionDeclarations(o: DeclarationOptions): Declarations {
  const { typed, ...rest } = o;
  const key = JSON.stringify(rest);
  let d = typed ? undefined : declCache.get(key);
  if (!d) {
    const object = typed?.object ?? 'dyn';
    const variables: Record<string, string> = { object, oldObject: object, request: REQUEST, namespaceObject: NAMESPACE };
    if (o.params) variables.params = typed?.params ?? 'dyn';
    if (o.authorizer) variables.authorizer = AUTHORIZER;
    const fields = o.variables;
    if (fields) variables.variables = 'kubernetes.variables';
    d = {
      variables,
      types: (env) => {
        requestTypes(env);
        namespaceTypes(env);
        typed?.install(env);
        if (fields) env.registerType('kubernetes.variables', { fields });
      },
    };
    if (!fields && !typed) declCache.set(key, d);
  }
  return d;
}

