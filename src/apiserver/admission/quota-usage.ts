// What an object costs against a ResourceQuota and what a namespace uses in total: the pod, service, claim and
// object-count evaluators of pkg/quota/v1/evaluator/core and pkg/quota/v1/generic, shared by the ResourceQuota
// admission plugin and the resourcequota controller.

import type { PersistentVolumeClaim, Pod, ResourceQuota, Service } from 'kubernetes-types/core/v1.js';
import { quantityFromValue } from '../../api/quantity.js';
import type { KubeObject } from '../../api/types.js';
import { podTotals } from './pod-resources.js';
import { matchesScopes, type GroupResource } from './quota-scopes.js';
import { addInto, parseList, type ResourceList } from './resource-list.js';

export type { GroupResource };

/** Lists a namespace's objects of one resource: the admission lookup, or a client in the controller. */
export type ListFn = (group: string, resource: string, namespace: string) => KubeObject[] | Promise<KubeObject[]>;

const one = () => quantityFromValue(1);
/** Core resources whose bare plural is also a quota name (pkg/apis/core ResourceServices, ResourceSecrets, …). */
const LEGACY_COUNTS = new Set(['pods', 'services', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas', 'persistentvolumeclaims']);
const POD_COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

/** `count/pods`, `count/deployments.apps`. */
export function countName(gr: GroupResource): string {
  return gr.group ? `count/${gr.resource}.${gr.group}` : `count/${gr.resource}`;
}

/** Which resource a quota name measures, e.g. `requests.cpu` → pods, `count/deployments.apps` → apps/deployments. */
export function resourceOfQuotaName(name: string): GroupResource | undefined {
  if (name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
  }
  if (LEGACY_COUNTS.has(name)) return { group: '', resource: name };
  if (name === 'services.loadbalancers' || name === 'services.nodeports') return { group: '', resource: 'services' };
  if (name === 'requests.storage' || name.includes(STORAGE_CLASS_SUFFIX)) return { group: '', resource: 'persistentvolumeclaims' };
  const base = name.replace(/^(requests|limits)\./, '');
  if (POD_COMPUTE.includes(base) || base.startsWith('hugepages-')) return { group: '', resource: 'pods' };
  // Extended resources (vendor.example/gpu) are quota'd as requests.<name>.
  if (name.startsWith('requests.') && base.includes('/')) return { group: '', resource: 'pods' };
  return undefined;
}

/** Pods that finished no longer use compute quota (QuotaV1Pod). */
function podIsActive(pod: Pod): boolean {
  return pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}

function podUsage(pod: Pod): ResourceList {
  const usage: ResourceList = new Map([['count/pods', one()]]);
  if (!podIsActive(pod)) return usage;
  usage.set('pods', one());
  const overhead = parseList(pod.spec?.overhead);
  // Overhead counts towards requests always and towards limits only where a limit is set (PodRequests/PodLimits).
  const requests = addInto(podTotals(pod, 'requests'), overhead);
  const limits = podTotals(pod, 'limits');
  for (const [k, q] of overhead) if (limits.has(k)) addInto(limits, new Map([[k, q]]));
  return addInto(usage, computeUsage(requests, limits));
}

/** podComputeUsageHelper: cpu/memory/ephemeral-storage as bare and requests./limits. names, hugepages, extended resources. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const usage: ResourceList = new Map();
  for (const [k, q] of requests) {
    if (POD_COMPUTE.includes(k) || k.startsWith('hugepages-')) usage.set(k, q);
    if (POD_COMPUTE.includes(k) || k.startsWith('hugepages-') || k.includes('/')) usage.set(`requests.${k}`, q);
  }
  for (const [k, q] of limits) if (POD_COMPUTE.includes(k)) usage.set(`limits.${k}`, q);
  return usage;
}

/** Quota names that every container must request explicitly once a quota limits them (podEvaluator.Constraints). */
const MUST_SPECIFY = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** One `must specify limits.cpu,limits.memory` per container that lacks a limited resource. */
export function podConstraints(required: string[], pod: Pod): string[] {
  const needed = required.filter((n) => MUST_SPECIFY.has(n));
  if (!needed.length) return [];
  const errs: string[] = [];
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const has = computeUsage(parseList(c.resources?.requests), parseList(c.resources?.limits));
    const missing = needed.filter((n) => !has.has(n)).sort();
    if (missing.length) errs.push(`must specify ${missing.join(',')}`);
  }
  return errs;
}

function serviceUsage(svc: Service): ResourceList {
  const usage: ResourceList = new Map([['services', one()], ['count/services', one()]]);
  const ports = svc.spec?.ports ?? [];
  if (svc.spec?.type === 'NodePort') usage.set('services.nodeports', quantityFromValue(ports.length));
  if (svc.spec?.type === 'LoadBalancer') {
    // With node-port allocation switched off only explicit node ports count.
    const n = svc.spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length;
    usage.set('services.nodeports', quantityFromValue(n));
    usage.set('services.loadbalancers', one());
  }
  return usage;
}

function claimUsage(pvc: PersistentVolumeClaim): ResourceList {
  const usage: ResourceList = new Map([['persistentvolumeclaims', one()], ['count/persistentvolumeclaims', one()]]);
  const storage = parseList(pvc.spec?.resources?.requests).get('storage');
  const cls = pvc.spec?.storageClassName;
  if (cls) usage.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, one());
  if (storage) {
    usage.set('requests.storage', storage);
    if (cls) usage.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
  }
  return usage;
}

/** What one object costs (Evaluator.Usage). */
export function usageOf(gr: GroupResource, obj: KubeObject): ResourceList {
  if (!gr.group && gr.resource === 'pods') return podUsage(obj as unknown as Pod);
  if (!gr.group && gr.resource === 'services') return serviceUsage(obj as unknown as Service);
  if (!gr.group && gr.resource === 'persistentvolumeclaims') return claimUsage(obj as unknown as PersistentVolumeClaim);
  const usage: ResourceList = new Map([[countName(gr), one()]]);
  if (!gr.group && LEGACY_COUNTS.has(gr.resource)) usage.set(gr.resource, one());
  return usage;
}

/** The hard limits admission enforces: status.hard once the controller has copied it, else spec.hard. */
export function hardOf(rq: ResourceQuota): ResourceList {
  const status = rq.status?.hard;
  return parseList(status && Object.keys(status).length ? status : rq.spec?.hard);
}

/** The quota names in `names` that measure `gr` (Evaluator.MatchingResources). */
export function matchingResources(gr: GroupResource, names: Iterable<string>): string[] {
  return [...names].filter((n) => {
    const of = resourceOfQuotaName(n);
    return of !== undefined && of.group === gr.group && of.resource === gr.resource;
  });
}

/** Keeps only the named entries (quota.Mask). */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) {
    const q = list.get(n);
    if (q) out.set(n, q);
  }
  return out;
}

/** A namespace's usage of every resource the quota limits, zero where nothing is used (CalculateUsage). */
export async function calculateUsage(rq: ResourceQuota, namespace: string, list: ListFn): Promise<ResourceList> {
  const hard = hardOf(rq);
  const used: ResourceList = new Map();
  const byResource = new Map<string, GroupResource>();
  for (const name of hard.keys()) {
    const gr = resourceOfQuotaName(name);
    if (gr) byResource.set(`${gr.group}/${gr.resource}`, gr);
  }
  for (const gr of byResource.values()) {
    for (const obj of await list(gr.group, gr.resource, namespace)) {
      if (matchesScopes(rq, gr, obj)) addInto(used, mask(usageOf(gr, obj), hard.keys()));
    }
  }
  for (const name of hard.keys()) if (!used.has(name)) used.set(name, quantityFromValue(0));
  return used;
}
