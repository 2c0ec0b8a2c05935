// Strategy for apps/v1 StatefulSets (kubernetes pkg/registry/apps/statefulset/strategy.go, pkg/apis/apps/v1/defaults.go
// SetDefaults_StatefulSet, and SetDefaults_PersistentVolumeClaim on the embedded claim templates).

import type { StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { validateStatefulSet, validateStatefulSetStatusUpdate, validateStatefulSetUpdate } from '../validation/statefulset.js';
import { as, isStatusWrite, keepStatusOrSpec, startGeneration, updateGeneration } from './common.js';
import { defaultPodSpec } from './pod-defaults.js';

/** SetDefaults_StatefulSet: OrderedReady, RollingUpdate with partition 0, Retain/Retain, one replica, ten revisions. */
export function defaultStatefulSet(ss: StatefulSet): void {
  const spec = (ss.spec ??= { selector: undefined as never, template: {}, serviceName: '' } as NonNullable<StatefulSet['spec']>);
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const us = (spec.updateStrategy ??= {});
  if (!us.type) {
    us.type = 'RollingUpdate';
    us.rollingUpdate ??= {};
  }
  if (us.type === 'RollingUpdate' && us.rollingUpdate) us.rollingUpdate.partition ??= 0;
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
  if (!retention.whenScaled) retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  if (spec.template?.spec) defaultPodSpec(spec.template.spec);
  // The claim templates are PersistentVolumeClaims and get their defaults (and type meta) like any other.
  for (const c of spec.volumeClaimTemplates ?? []) {
    c.apiVersion ??= 'v1';
    c.kind ??= 'PersistentVolumeClaim';
    if (c.spec) c.spec.volumeMode ??= 'Filesystem';
    const claim = c as { status?: { phase?: string } };
    const status = (claim.status ??= {});
    if (!status.phase) status.phase = 'Pending';
  }
}

export const statefulSetStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = { replicas: 0, availableReplicas: 0 };
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
  defaults: (obj: KubeObject) => defaultStatefulSet(as<StatefulSet>(obj)),
  validate: (obj: KubeObject) => validateStatefulSet(as<StatefulSet>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    return isStatusWrite(ctx)
      ? validateStatefulSetStatusUpdate(as<StatefulSet>(obj), as<StatefulSet>(old))
      : validateStatefulSetUpdate(as<StatefulSet>(obj), as<StatefulSet>(old));
  },
} satisfies Strategy;
