// Server-side rollback (pkg/controller/deployment/rollback.go): the `deprecated.deployment.rollback.to` annotation
// that apps/v1 keeps of spec.rollbackTo. kubectl rollout undo patches the template itself and never sets it.

import { R } from '../../client/resources.js';
import type { DeploymentObj, ReplicaSetObj } from '../util/types.js';
import type { DeploymentSync } from './sync.js';
import { equalIgnoreHash, lastRevision, revisionOf, ROLLBACK_TO, rollbackTo, setFromReplicaSet } from './util.js';

/** Event reasons (deployment_util.go RollbackRevisionNotFound, RollbackTemplateUnchanged, RollbackDone). */
export const RollbackReason = {
  RevisionNotFound: 'DeploymentRollbackRevisionNotFound',
  TemplateUnchanged: 'DeploymentRollbackTemplateUnchanged',
  Done: 'DeploymentRollback',
} as const;

/** Rolls back to the requested revision (0: the previous one) and always clears the request. */
export async function rollback(s: DeploymentSync, rsList: ReplicaSetObj[]): Promise<void> {
  const { newRS, oldRSs } = await s.allReplicaSets(rsList, true);
  const all = newRS ? [...oldRSs, newRS] : oldRSs;
  const name = s.d.metadata.name!;
  let revision = rollbackTo(s.d) ?? 0;
  if (revision === 0) {
    revision = lastRevision(all);
    if (revision === 0) {
      s.event('Warning', RollbackReason.RevisionNotFound, 'Unable to find last revision.');
      return clearRollbackTo(s, s.d);
    }
  }
  const target = all.find((rs) => revisionOf(rs) === revision);
  if (!target) {
    s.event('Warning', RollbackReason.RevisionNotFound, 'Unable to find the revision to rollback to.');
    return clearRollbackTo(s, s.d);
  }
  const d = structuredClone(s.d) as DeploymentObj;
  if (equalIgnoreHash(d.spec?.template, target.spec?.template)) {
    s.event('Warning', RollbackReason.TemplateUnchanged, `The rollback revision contains the same template as current deployment "${name}"`);
    return clearRollbackTo(s, d);
  }
  setFromReplicaSet(d, target);
  await clearRollbackTo(s, d);
  s.event('Normal', RollbackReason.Done, `Rolled back deployment "${name}" to revision ${revision}`);
}

/** Writes the Deployment without the rollback request (updateDeploymentAndClearRollbackTo); the next sync rolls out. */
async function clearRollbackTo(s: DeploymentSync, d: DeploymentObj): Promise<void> {
  const body = structuredClone(d);
  if (body.metadata.annotations) delete body.metadata.annotations[ROLLBACK_TO];
  delete body.status;
  await s.client.update<DeploymentObj>(R.deployments, body.metadata.namespace!, body);
}
