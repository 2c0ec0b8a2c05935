// The registry strategy of customresourcedefinitions: defaults, status kept apart from spec, generation, stored
// versions and the cleanup finalizer a delete adds (apiextensions-apiserver pkg/registry/customresourcedefinition/
// strategy.go and etcd.go; pkg/apis/apiextensions/v1/defaults.go).

import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { rfc3339Seconds } from '../../util/clock.js';
import { jsonEqual } from '../../util/json.js';
import { validateCrd, validateCrdUpdate } from './crd-validation.js';
import { CLEANUP_FINALIZER, type Crd, type CrdCondition } from './types.js';

/** SetDefaults_CustomResourceDefinitionSpec. */
function defaults(obj: KubeObject): void {
  const crd = obj as Crd;
  const spec = crd.spec;
  if (!spec || typeof spec !== 'object') return;
  const names = spec.names;
  if (names && typeof names === 'object') {
    if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  // SetDefaults_ServiceReference: a conversion webhook's Service port is 443 unless given.
  const svc = spec.conversion?.webhook?.clientConfig?.service;
  if (svc && typeof svc === 'object' && svc.port === undefined) svc.port = 443;
}

/** The storage version joins status.storedVersions (strategy.go PrepareForCreate/PrepareForUpdate). */
function recordStorageVersion(crd: Crd): void {
  const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
  if (!storage) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage)) stored.push(storage);
}

/** SetCRDCondition: a changed status moves lastTransitionTime; the same status keeps it. */
export function setCondition(crd: Crd, cond: CrdCondition, now: number): void {
  const status = (crd.status ??= {});
  const list = (status.conditions ??= []);
  const i = list.findIndex((c) => c.type === cond.type);
  const next = { ...cond, lastTransitionTime: rfc3339Seconds(now) };
  if (i < 0) list.push(next);
  else {
    if (list[i].status === cond.status) next.lastTransitionTime = list[i].lastTransitionTime ?? next.lastTransitionTime;
    list[i] = next;
  }
}

export const crdStrategy: Strategy = {
  defaults,
  prepareForCreate(obj) {
    const crd = obj as Crd;
    crd.status = {};
    crd.metadata.generation = 1;
    recordStorageVersion(crd);
  },
  prepareForUpdate(obj, old, ctx) {
    const crd = obj as Crd;
    const prev = old as Crd;
    if (ctx.subresource === 'status') {
      // statusStrategy: only status changes (and the metadata the status strategy leaves to the writer).
      crd.spec = prev.spec;
      crd.metadata.labels = prev.metadata.labels;
      crd.metadata.annotations = prev.metadata.annotations;
      crd.metadata.finalizers = prev.metadata.finalizers;
      crd.metadata.ownerReferences = prev.metadata.ownerReferences;
      return;
    }
    crd.status = prev.status;
    if (!jsonEqual(crd.spec, prev.spec)) crd.metadata.generation = (prev.metadata.generation ?? 0) + 1;
    crd.status = crd.status ? JSON.parse(JSON.stringify(crd.status)) as Crd['status'] : undefined;
    recordStorageVersion(crd);
  },
  prepareForDelete(obj, ctx) {
    // etcd.go Delete: the first delete adds the cleanup finalizer and says so in the Terminating condition.
    const crd = obj as Crd;
    const fin = (crd.metadata.finalizers ??= []);
    if (!fin.includes(CLEANUP_FINALIZER)) fin.push(CLEANUP_FINALIZER);
    setCondition(crd, {
      type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    }, ctx.now);
  },
  validate: (obj, old) => validateCrd(obj as Crd, old as Crd | undefined),
  validateUpdate: (obj, old) => validateCrdUpdate(obj as Crd, old as Crd),
  generation: true,
};
