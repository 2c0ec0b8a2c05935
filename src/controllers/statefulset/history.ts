// A StatefulSet's ControllerRevisions (pkg/controller/history, stateful_set_utils.go newRevision/ApplyRevision): the
// data is a strategic-merge patch replacing spec.template, as the DaemonSet's are (its helpers are reused), named
// `<set>-<hash>` and labelled `controller.kubernetes.io/hash`; the pods carry the revision's name.

import type { ControllerRevision, DaemonSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { computeHash } from '../deployment/hash.js';
import { revisionPatch, type RevisionObj } from '../daemonset/history.js';
import { newControllerRef } from '../util/owner.js';
import type { StatefulSetObj } from './util.js';

export { maxRevision, revisionMatches, type RevisionObj } from '../daemonset/history.js';

/** history.ControllerRevisionHashLabel. */
export const HASH_LABEL = 'controller.kubernetes.io/hash';

export function setPatch(set: StatefulSet): Record<string, unknown> {
  return revisionPatch(set as unknown as DaemonSet);
}

/** HashControllerRevision over the patch and the collision count. */
export function revisionHash(set: StatefulSet): string {
  return computeHash(setPatch(set) as PodTemplateSpec, set.status?.collisionCount ?? undefined);
}

export function newRevision(set: StatefulSetObj, revision: number): RevisionObj {
  const hash = revisionHash(set);
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name: `${set.metadata.name}-${hash}`,
      namespace: set.metadata.namespace,
      labels: { ...(set.spec?.template?.metadata?.labels ?? {}), [HASH_LABEL]: hash },
      ...(set.metadata.annotations ? { annotations: { ...set.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
    },
    data: setPatch(set),
    revision,
  };
}

/** ApplyRevision: the pod template the revision holds. */
export function revisionTemplate(rev: ControllerRevision): PodTemplateSpec {
  const t = structuredClone(((rev.data ?? {}) as { spec?: { template?: PodTemplateSpec & { $patch?: string } } }).spec?.template ?? {});
  delete t.$patch;
  return t;
}
