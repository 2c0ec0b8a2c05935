// Strategies for apps/v1 DaemonSets and ControllerRevisions (kubernetes pkg/registry/apps/daemonset/strategy.go,
// pkg/registry/apps/controllerrevision/strategy.go, pkg/apis/apps/v1/defaults.go SetDefaults_DaemonSet).

import type { ControllerRevision, DaemonSet } from 'kubernetes-types/apps/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validateControllerRevision, validateControllerRevisionUpdate, validateDaemonSet, validateDaemonSetStatusUpdate,
  validateDaemonSetUpdate,
} from '../validation/daemonset.js';
import { as, isStatusWrite, keepStatusOrSpec, startGeneration, updateGeneration } from './common.js';
import { defaultPodSpec } from './pod-defaults.js';
import { deepEqual } from '../validation/object-meta.js';

/** SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0, ten revisions kept, pod defaults. */
export function defaultDaemonSet(ds: DaemonSet): void {
  const spec = (ds.spec ??= { selector: undefined as never, template: {} });
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  if (spec.template?.spec) defaultPodSpec(spec.template.spec);
}

/**
 * The internal spec.templateGeneration, which apps/v1 carries in the `deprecated.daemonset.template.generation`
 * annotation (pkg/apis/apps/v1/conversion.go); PrepareForCreate starts it at 1.
 */
const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

function templateGeneration(obj: KubeObject): number {
  const v = obj.metadata.annotations?.[TEMPLATE_GENERATION];
  return v && /^\d+$/.test(v) ? Number(v) : 0;
}

function setTemplateGeneration(obj: KubeObject, gen: number): void {
  if (gen < 1) {
    if (obj.metadata.annotations) delete obj.metadata.annotations[TEMPLATE_GENERATION];
    return;
  }
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [TEMPLATE_GENERATION]: String(gen) };
}

export const daemonSetStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
    startGeneration(obj);
    setTemplateGeneration(obj, Math.max(1, templateGeneration(obj)));
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
    // The template generation is the server's: it rises by one when the template changes, and never otherwise.
    const prev = templateGeneration(old);
    const changed = !isStatusWrite(ctx) && !deepEqual((obj.spec as DaemonSet['spec'])?.template, (old.spec as DaemonSet['spec'])?.template);
    setTemplateGeneration(obj, changed ? prev + 1 : prev);
  },
  defaults: (obj: KubeObject) => defaultDaemonSet(as<DaemonSet>(obj)),
  validate: (obj: KubeObject) => validateDaemonSet(as<DaemonSet>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    return isStatusWrite(ctx)
      ? validateDaemonSetStatusUpdate(as<DaemonSet>(obj), as<DaemonSet>(old))
      : validateDaemonSetUpdate(as<DaemonSet>(obj), as<DaemonSet>(old));
  },
} satisfies Strategy;

export const controllerRevisionStrategy = {
  validate: (obj: KubeObject) => validateControllerRevision(as<ControllerRevision>(obj)),
  validateUpdate: (obj: KubeObject, old: KubeObject) => validateControllerRevisionUpdate(as<ControllerRevision>(obj), as<ControllerRevision>(old)),
} satisfies Strategy;
