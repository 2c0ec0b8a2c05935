// Strategies for flowcontrol.apiserver.k8s.io/v1 FlowSchemas and PriorityLevelConfigurations
// (pkg/registry/flowcontrol/*/strategy.go, pkg/apis/flowcontrol/v1/defaults.go): defaults, generation, status.

import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { validateFlowSchema, validatePriorityLevelConfiguration } from '../validation/flowcontrol.js';
import { as, keepStatusOrSpec, startGeneration, updateGeneration, updateValidator } from './common.js';

/** SetDefaults_FlowSchemaSpec: matchingPrecedence 1000. */
export function defaultFlowSchema(fs: FlowSchema): void {
  const spec = (fs.spec ??= { priorityLevelConfiguration: { name: '' } });
  spec.matchingPrecedence ??= 1000;
}

/** SetDefaults_PriorityLevelConfiguration (v1): shares 30 (0 for Exempt), lendable 0, queuing 64/8/50. */
export function defaultPriorityLevel(pl: PriorityLevelConfiguration): void {
  const spec = pl.spec;
  if (!spec) return;
  if (spec.limited) {
    spec.limited.nominalConcurrencyShares ??= 30;
    spec.limited.lendablePercent ??= 0;
    const q = spec.limited.limitResponse?.queuing;
    if (q) { q.queues ??= 64; q.handSize ??= 8; q.queueLengthLimit ??= 50; }
  }
  if (spec.type === 'Exempt') {
    const e = (spec.exempt ??= {});
    e.nominalConcurrencyShares ??= 0;
    e.lendablePercent ??= 0;
  }
}

const lifecycle = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
};

export const flowSchemaStrategy = {
  ...lifecycle,
  defaults: (obj: KubeObject) => defaultFlowSchema(as<FlowSchema>(obj)),
  validate: (obj: KubeObject) => validateFlowSchema(as(obj)),
  validateUpdate: updateValidator((obj) => validateFlowSchema(as(obj))),
} satisfies Strategy;

export const priorityLevelConfigurationStrategy = {
  ...lifecycle,
  defaults: (obj: KubeObject) => defaultPriorityLevel(as<PriorityLevelConfiguration>(obj)),
  validate: (obj: KubeObject) => validatePriorityLevelConfiguration(as(obj)),
  validateUpdate: updateValidator((obj) => validatePriorityLevelConfiguration(as(obj))),
} satisfies Strategy;
