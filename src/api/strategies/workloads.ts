// Strategies for apps/v1 Deployments and ReplicaSets: defaults, generation, spec/status separation and
// validation (kubernetes pkg/registry/apps/deployment/strategy.go, replicaset/strategy.go,
// pkg/apis/apps/v1/defaults.go).

import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validateDeployment, validateDeploymentStatusUpdate, validateDeploymentUpdate, validateReplicaSet,
  validateReplicaSetStatusUpdate, validateReplicaSetUpdate,
} from '../validation/apps.js';
import { as, isStatusWrite, keepStatusOrSpec, startGeneration, updateGeneration } from './common.js';
import { defaultPodSpec } from './pod-defaults.js';

/** SetDefaults_Deployment, and the pod template's own defaults. */
export function defaultDeployment(d: Deployment): void {
  const spec = (d.spec ??= { selector: undefined as never, template: {} });
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  if (spec.template?.spec) defaultPodSpec(spec.template.spec);
}

/** SetDefaults_ReplicaSet. */
export function defaultReplicaSet(rs: ReplicaSet): void {
  const spec = (rs.spec ??= { selector: undefined as never });
  spec.replicas ??= 1;
  if (spec.template?.spec) defaultPodSpec(spec.template.spec);
}

export const deploymentStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    // deployments/status may not relabel the deployment either (deploymentStatusStrategy.PrepareForUpdate).
    if (isStatusWrite(ctx)) {
      if (old.metadata.labels) obj.metadata.labels = structuredClone(old.metadata.labels);
      else delete obj.metadata.labels;
    }
    updateGeneration(obj, old, ctx, true);
  },
  defaults: (obj: KubeObject) => defaultDeployment(as<Deployment>(obj)),
  validate: (obj: KubeObject) => validateDeployment(as<Deployment>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    return isStatusWrite(ctx)
      ? validateDeploymentStatusUpdate(as<Deployment>(obj), as<Deployment>(old))
      : validateDeploymentUpdate(as<Deployment>(obj), as<Deployment>(old));
  },
} satisfies Strategy;

export const replicaSetStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = { replicas: 0 };
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
  defaults: (obj: KubeObject) => defaultReplicaSet(as<ReplicaSet>(obj)),
  validate: (obj: KubeObject) => validateReplicaSet(as<ReplicaSet>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    return isStatusWrite(ctx)
      ? validateReplicaSetStatusUpdate(as<ReplicaSet>(obj), as<ReplicaSet>(old))
      : validateReplicaSetUpdate(as<ReplicaSet>(obj), as<ReplicaSet>(old));
  },
  // pkg/registry/apps/replicaset/strategy.go ReplicaSetToSelectableFields.
  fieldSelectors: {
    'status.replicas': (o: KubeObject) => String(as<ReplicaSet>(o).status?.replicas ?? 0),
  },
} satisfies Strategy;
