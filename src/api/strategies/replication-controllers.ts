// Strategy for core/v1 ReplicationControllers (kubernetes pkg/registry/core/replicationcontroller/strategy.go,
// pkg/apis/core/v1/defaults.go SetDefaults_ReplicationController).

import type { ReplicationController } from 'kubernetes-types/core/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validateReplicationController, validateReplicationControllerStatusUpdate, validateReplicationControllerUpdate,
} from '../validation/replication-controller.js';
import { as, isStatusWrite, keepStatusOrSpec, startGeneration, updateGeneration } from './common.js';
import { defaultPodSpec } from './pod-defaults.js';

/** SetDefaults_ReplicationController: selector and labels from the template's labels, one replica. */
export function defaultReplicationController(rc: ReplicationController): void {
  const spec = (rc.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels && Object.keys(labels).length) {
    if (!spec.selector || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    const meta = (rc.metadata ??= {});
    if (!meta.labels || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
  }
  spec.replicas ??= 1;
  if (spec.template?.spec) defaultPodSpec(spec.template.spec);
}

export const replicationControllerStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = { replicas: 0 };
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
  defaults: (obj: KubeObject) => defaultReplicationController(as<ReplicationController>(obj)),
  validate: (obj: KubeObject) => validateReplicationController(as<ReplicationController>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    return isStatusWrite(ctx)
      ? validateReplicationControllerStatusUpdate(as<ReplicationController>(obj), as<ReplicationController>(old))
      : validateReplicationControllerUpdate(as<ReplicationController>(obj), as<ReplicationController>(old));
  },
  fieldSelectors: {
    'status.replicas': (o: KubeObject) => String(as<ReplicationController>(o).status?.replicas ?? 0),
  },
} satisfies Strategy;
