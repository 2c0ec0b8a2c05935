// ReplicaSet status from its pods (pkg/controller/replicaset/replica_set_utils.go calculateStatus).

import type { ReplicaSetStatus } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { ReplicaSetObj } from '../util/types.js';
import { isPodAvailable, isPodReady } from '../util/pod.js';
import { omitZero } from '../util/status.js';

/** Status counts for `rs` given its active pods; conditions are carried over unchanged. */
export function calculateStatus(rs: ReplicaSetObj, pods: Pod[], now: number): ReplicaSetStatus {
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  const minReady = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0, ready = 0, available = 0;
  for (const p of pods) {
    const labels = p.metadata?.labels ?? {};
    if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, now)) available++;
    }
  }
  const s: ReplicaSetStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata.generation,
  };
  if (rs.status?.conditions?.length) s.conditions = rs.status.conditions;
  return omitZero(s, ['replicas']);
}
