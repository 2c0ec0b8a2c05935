// What a DaemonSet pod looks like and which nodes should run one (pkg/controller/daemon/util/daemonset_util.go,
// pkg/controller/daemon/daemon_controller.go NodeShouldRunDaemonPod and predicates).

import type { DaemonSet } from 'kubernetes-types/apps/v1.js';
import type { Affinity, Node, Pod, PodTemplateSpec, Toleration } from 'kubernetes-types/core/v1.js';
import { compileTerms, matchAnyTerm } from '../../scheduler/util/node-selector.js';
import { findMatchingUntoleratedTaint } from '../../scheduler/util/tolerations.js';
import { timeMs } from '../util/pod.js';

/** apps.DefaultDaemonSetUniqueLabelKey (= ControllerRevisionHashLabelKey). */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
/** extensions.DaemonSetTemplateGenerationKey. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** The apps/v1 home of the internal spec.templateGeneration (pkg/apis/apps/v1/conversion.go). */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

const NO_EXECUTE = (key: string): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute' });
const NO_SCHEDULE = (key: string): Toleration => ({ key, operator: 'Exists', effect: 'NoSchedule' });

/**
 * AddOrUpdateDaemonPodTolerations: daemon pods ride out not-ready and unreachable nodes, node pressure and cordons;
 * host-network pods also tolerate an unavailable pod network.
 */
export function daemonPodTolerations(template: PodTemplateSpec | undefined): Toleration[] {
  const extra = [
    NO_EXECUTE('node.kubernetes.io/not-ready'),
    NO_EXECUTE('node.kubernetes.io/unreachable'),
    NO_SCHEDULE('node.kubernetes.io/disk-pressure'),
    NO_SCHEDULE('node.kubernetes.io/memory-pressure'),
    NO_SCHEDULE('node.kubernetes.io/pid-pressure'),
    NO_SCHEDULE('node.kubernetes.io/unschedulable'),
  ];
  if (template?.spec?.hostNetwork) extra.push(NO_SCHEDULE('node.kubernetes.io/network-unavailable'));
  const out = [...(template?.spec?.tolerations ?? [])];
  // v1helper.AddOrUpdateTolerationInPodSpec: a toleration with the same key, operator, value and effect is replaced.
  for (const t of extra) {
    const i = out.findIndex((o) => (o.key ?? '') === t.key && (o.operator ?? 'Equal') === t.operator && (o.value ?? '') === '' && (o.effect ?? '') === t.effect);
    if (i >= 0) out[i] = t;
    else out.push(t);
  }
  return out;
}

/** The DaemonSet's template generation (its deprecated annotation), if it parses. */
export function templateGeneration(ds: DaemonSet): string | undefined {
  const v = ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return v && /^\d+$/.test(v) ? v : undefined;
}

/** CreatePodTemplate: the template plus daemon tolerations, the template-generation and revision-hash labels. */
export function createPodTemplate(ds: DaemonSet, hash: string): PodTemplateSpec {
  const t = structuredClone(ds.spec?.template ?? {});
  t.spec ??= { containers: [] };
  t.spec.tolerations = daemonPodTolerations(ds.spec?.template);
  const labels = (t.metadata ??= {}).labels = { ...(t.metadata?.labels ?? {}) };
  const gen = templateGeneration(ds);
  if (gen !== undefined) labels[TEMPLATE_GENERATION_LABEL] = gen;
  if (hash) labels[REVISION_HASH_LABEL] = hash;
  return t;
}

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes one term naming the node by
 * `metadata.name` (matchFields), so the default scheduler binds the pod there; preferred terms are kept.
 */
export function pinToNode(affinity: Affinity | undefined, nodeName: string): Affinity {
  const out: Affinity = structuredClone(affinity ?? {});
  const na = (out.nodeAffinity ??= {});
  na.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
  };
  return out;
}

/** GetTargetNodeName: the pod's node, or the node its matchFields term names while it is unscheduled. */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}

/** IsPodUpdated: the pod carries the current revision hash or the current template generation. */
export function isPodUpdated(pod: Pod, hash: string, generation: string | undefined): boolean {
  const labels = pod.metadata?.labels ?? {};
  return (!!hash && labels[REVISION_HASH_LABEL] === hash) || (generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === generation);
}

/** NodeShouldRunDaemonPod: whether a daemon pod should be placed on the node, and whether one there may stay. */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const spec = ds.spec?.template?.spec;
  const name = node.metadata?.name ?? '';
  if (spec?.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  if (!fitsNodeAffinity(ds.spec?.template, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = daemonPodTolerations(ds.spec?.template);
  const taints = node.spec?.taints ?? [];
  const blocking = findMatchingUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  if (!blocking) return { shouldRun: true, shouldContinueRunning: true };
  // Pods already there stay unless a NoExecute taint is not tolerated.
  const evicting = findMatchingUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute');
  return { shouldRun: false, shouldContinueRunning: !evicting };
}

/** nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): the nodeSelector map and the required terms. */
function fitsNodeAffinity(t: PodTemplateSpec | undefined, node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(t?.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const req = t?.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!req) return true;
  return matchAnyTerm(compileTerms(req.nodeSelectorTerms ?? []), node.metadata?.name ?? '', labels);
}

/** podByCreationTimestampAndPhase: scheduled pods first, then the oldest, then by name. */
export function byCreationAndPhase(a: Pod, b: Pod): number {
  const as = a.spec?.nodeName ? 0 : 1, bs = b.spec?.nodeName ? 0 : 1;
  if (as !== bs) return as - bs;
  const at = timeMs(a.metadata?.creationTimestamp), bt = timeMs(b.metadata?.creationTimestamp);
  if (at !== bt) return at - bt;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

/** GetScaledValueFromIntOrPercent rounding up, as the DaemonSet controller scales maxUnavailable and maxSurge. */
export function scaledValue(v: number | string | undefined, total: number): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (m) return Math.ceil((Number(m[1]) * total) / 100);
  return /^\d+$/.test(v) ? Number(v) : 0;
}
