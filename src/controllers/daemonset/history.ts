// A DaemonSet's ControllerRevisions (pkg/controller/daemon/update.go getPatch, snapshot, constructHistory,
// cleanupHistory): each holds a strategic-merge patch that replaces spec.template, which `kubectl rollout history`
// prints and `kubectl rollout undo` applies.

import type { ControllerRevision, DaemonSet } from 'kubernetes-types/apps/v1.js';
import type { KubeObject, ObjectMeta } from '../../api/types.js';
import { computeHash } from '../deployment/hash.js';
import { canonicalJson } from '../util/json.js';
import { newControllerRef } from '../util/owner.js';
import { REVISION_HASH_LABEL } from './util.js';

export type RevisionObj = ControllerRevision & KubeObject & { metadata: ObjectMeta };

/** getPatch: `{"spec":{"template":{…,"$patch":"replace"}}}`. */
export function revisionPatch(ds: DaemonSet): Record<string, unknown> {
  return { spec: { template: { ...structuredClone(ds.spec?.template ?? {}), $patch: 'replace' } } };
}

/** The hash naming the DaemonSet's current revision (controller.ComputeHash of the template and collision count). */
export function templateHash(ds: DaemonSet): string {
  return computeHash(ds.spec?.template, ds.status?.collisionCount ?? undefined);
}

/** snapshot: the ControllerRevision for the DaemonSet's current template. */
export function newRevision(ds: DaemonSet & KubeObject, hash: string, revision: number): RevisionObj {
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name: `${ds.metadata.name}-${hash}`,
      namespace: ds.metadata.namespace,
      labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: hash },
      ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(ds, 'apps/v1', 'DaemonSet')],
    },
    data: revisionPatch(ds),
    revision,
  };
}

/** Whether a revision holds the same template as the DaemonSet (Match in update.go). */
export function revisionMatches(ds: DaemonSet, rev: ControllerRevision): boolean {
  return canonicalJson(rev.data ?? null) === canonicalJson(revisionPatch(ds));
}

export function maxRevision(revs: ControllerRevision[]): number {
  return revs.reduce((m, r) => Math.max(m, r.revision ?? 0), 0);
}
