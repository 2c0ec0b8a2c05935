// What a StatefulSet pod and its claims look like (pkg/controller/statefulset/stateful_set_utils.go): ordinal names,
// identity (hostname, subdomain, pod-name and pod-index labels), stable storage, revisions and health.

import type { StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { PersistentVolumeClaim, Pod, PodTemplateSpec, Volume } from 'kubernetes-types/core/v1.js';
import type { KubeObject, ObjectMeta, OwnerReference } from '../../api/types.js';
import { podFromTemplate } from '../replicaset/pod-template.js';
import { isPodAvailable, isPodReady } from '../util/pod.js';
import type { PodObj, Typed } from '../util/types.js';

export type StatefulSetObj = Typed<StatefulSet>;
export type ClaimObj = PersistentVolumeClaim & KubeObject & { metadata: ObjectMeta };

/** apps.StatefulSetPodNameLabel. */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** apps.PodIndexLabel (PodIndexLabel is GA in 1.32). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** apps.ControllerRevisionHashLabelKey: on StatefulSet pods it holds the revision's name. */
export const REVISION_LABEL = 'controller-revision-hash';

/** The first ordinal (spec.ordinals.start, 0 when unset). */
export function startOrdinal(set: StatefulSet): number {
  return set.spec?.ordinals?.start ?? 0;
}

export function replicaCount(set: StatefulSet): number {
  return set.spec?.replicas ?? 1;
}

export function podName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata?.name}-${ordinal}`;
}

/** getParentNameAndOrdinal: `<parent>-<ordinal>` or undefined. */
export function parentAndOrdinal(pod: Pod): { parent: string; ordinal: number } | undefined {
  const m = /^(.*)-([0-9]+)$/.exec(pod.metadata?.name ?? '');
  return m ? { parent: m[1], ordinal: Number(m[2]) } : undefined;
}

/** The pod's ordinal, or -1 when its name has none. */
export function ordinalOf(pod: Pod): number {
  return parentAndOrdinal(pod)?.ordinal ?? -1;
}

/** isMemberOf: the pod's name says it belongs to the set. */
export function isMemberOf(set: StatefulSet, pod: Pod): boolean {
  return parentAndOrdinal(pod)?.parent === set.metadata?.name;
}

export function claimName(set: StatefulSet, template: PersistentVolumeClaim, ordinal: number): string {
  return `${template.metadata?.name}-${set.metadata?.name}-${ordinal}`;
}

/** getPersistentVolumeClaims: the claims a pod of the set uses, keyed by the template (volume) name. */
export function claimsFor(set: StatefulSet, ordinal: number): Map<string, ClaimObj> {
  const out = new Map<string, ClaimObj>();
  for (const t of set.spec?.volumeClaimTemplates ?? []) {
    const labels = { ...(t.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) };
    out.set(t.metadata?.name ?? '', {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim',
      metadata: {
        name: claimName(set, t, ordinal), namespace: set.metadata?.namespace, labels,
        ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
      },
      spec: structuredClone(t.spec ?? {}),
    });
  }
  return out;
}

/** updateStorage: each claim template becomes a volume of the same name naming the pod's claim. */
function withStorage(set: StatefulSet, ordinal: number, volumes: Volume[] | undefined): Volume[] {
  const claims = claimsFor(set, ordinal);
  const out: Volume[] = [];
  for (const [name, c] of claims) out.push({ name, persistentVolumeClaim: { claimName: c.metadata.name! } });
  for (const v of volumes ?? []) if (!claims.has(v.name)) out.push(v);
  return out;
}

/** newVersionedStatefulSetPod's pod: the template with identity, storage and the revision label. */
export function newStatefulSetPod(set: StatefulSetObj, template: PodTemplateSpec | undefined, ordinal: number, revision: string, ref: OwnerReference): PodObj {
  const pod = podFromTemplate(template, set.metadata.namespace!, set.metadata.name!, ref);
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [POD_NAME_LABEL]: pod.metadata.name, [POD_INDEX_LABEL]: String(ordinal), [REVISION_LABEL]: revision };
  if (!Object.keys(pod.metadata.annotations ?? {}).length) delete pod.metadata.annotations;
  const spec = pod.spec!;
  spec.hostname = pod.metadata.name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  if (set.spec?.volumeClaimTemplates?.length) spec.volumes = withStorage(set, ordinal, spec.volumes);
  return pod;
}

export function podRevision(pod: Pod): string {
  return pod.metadata?.labels?.[REVISION_LABEL] ?? '';
}

export const isCreated = (pod: Pod | undefined): pod is PodObj => !!pod?.metadata?.uid;
export const isTerminating = (pod: Pod): boolean => !!pod.metadata?.deletionTimestamp;
export const isFailedOrSucceeded = (pod: Pod): boolean => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';

/** isRunningAndReady. */
export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod);
}

/** isRunningAndAvailable: ready for minReadySeconds. */
export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  return pod.status?.phase === 'Running' && isPodAvailable(pod, minReadySeconds, now);
}

/** isHealthy: running, ready and not terminating. */
export function isHealthy(pod: Pod): boolean {
  return isRunningAndReady(pod) && !isTerminating(pod);
}
