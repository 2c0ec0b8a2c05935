// The services strategy: SetDefaults_Service, clusterIP/clusterIPs normalisation, carrying allocated values
// across updates, IP family fields from the cluster's service CIDRs (kubernetes pkg/apis/core/v1/defaults.go,
// pkg/registry/core/service/strategy.go NormalizeClusterIPs, storage/storage.go patchAllocatedValues, alloc.go).

import type { Service } from 'kubernetes-types/core/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { validateService, validateServiceUpdate } from '../validation/service.js';
import { validateObjectMetaUpdate } from '../validation/object-meta.js';
import type { ObjectMeta } from '../types.js';
import { as, isStatusWrite, keepStatusOrSpec } from './common.js';
import { initIPFamilyFields, IPV4_ONLY, type IPFamily } from './services-ip-families.js';

/** SetDefaults_Service. */
export function defaultService(svc: Service): void {
  const spec = (svc.spec ??= {});
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const p of spec.ports ?? []) {
    if (!p.protocol) p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type)) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
}

const needsClusterIP = (s: Service) => s.spec?.type !== 'ExternalName';
const needsNodePort = (s: Service) => s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer';

/** NormalizeClusterIPs: keep clusterIP and clusterIPs in step for clients that set only one. */
function normalizeClusterIPs(svc: Service, old?: Service): void {
  const spec = svc.spec!;
  const ips = spec.clusterIPs ?? [];
  if (!old) {
    if (spec.clusterIP && ips.length === 0) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  const oldSpec = old.spec ?? {};
  const oldIPs = oldSpec.clusterIPs ?? [];
  if (oldIPs.length > 0 && ips.length === 0 && (oldSpec.clusterIP ?? '') === (spec.clusterIP ?? '')) spec.clusterIPs = [...oldIPs];
  if ((oldSpec.clusterIP ?? '') !== (spec.clusterIP ?? '')) {
    const same = JSON.stringify(oldIPs) === JSON.stringify(spec.clusterIPs ?? []);
    if (oldSpec.clusterIP && !spec.clusterIP) {
      if (same) delete spec.clusterIPs;
    } else if (same && spec.clusterIP) {
      spec.clusterIPs = [spec.clusterIP];
    }
  }
}

/** patchAllocatedValues: an update that omits allocated values (clusterIP, nodePorts) keeps the old ones. */
function patchAllocatedValues(svc: Service, old: Service): void {
  const spec = svc.spec!;
  const oldSpec = old.spec ?? {};
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if (!spec.clusterIP && oldSpec.clusterIP) spec.clusterIP = oldSpec.clusterIP;
    if (!spec.clusterIPs?.length && oldSpec.clusterIPs?.length) spec.clusterIPs = [...oldSpec.clusterIPs];
    if (!spec.ipFamilyPolicy && oldSpec.ipFamilyPolicy) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
    if (!spec.ipFamilies?.length && oldSpec.ipFamilies?.length) spec.ipFamilies = [...oldSpec.ipFamilies];
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const usedByBoth = new Set((oldSpec.ports ?? []).map((p) => p.nodePort).filter((n) => n && (spec.ports ?? []).some((q) => q.nodePort === n)));
    const byName = new Map((oldSpec.ports ?? []).map((p) => [p.name ?? '', p.nodePort]));
    for (const p of spec.ports ?? []) {
      const prev = byName.get(p.name ?? '');
      if (!p.nodePort && prev && !usedByBoth.has(prev)) p.nodePort = prev;
    }
    if (!spec.healthCheckNodePort && oldSpec.healthCheckNodePort && spec.externalTrafficPolicy === 'Local' && spec.type === 'LoadBalancer') {
      spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
    }
  }
}

/**
 * The services strategy for a cluster whose service CIDRs have `families` (primary first). The IP family fields are
 * settled here, before validation, as kube-apiserver settles them before it validates (alloc.go initIPFamilyFields
 * runs in the registry's BeginCreate/BeginUpdate); the ServiceAllocator then allocates one ClusterIP per family.
 */
export function serviceStrategyFor(families: readonly IPFamily[]) {
  return {
    prepareForCreate(obj: KubeObject): void {
      obj.status = {};
      const svc = as<Service>(obj);
      defaultService(svc);
      normalizeClusterIPs(svc);
      initIPFamilyFields(svc, undefined, families);
    },
    prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
      keepStatusOrSpec(obj, old, ctx);
      if (isStatusWrite(ctx)) return;
      const svc = as<Service>(obj);
      defaultService(svc);
      patchAllocatedValues(svc, as<Service>(old));
      normalizeClusterIPs(svc, as<Service>(old));
      initIPFamilyFields(svc, as<Service>(old), families);
    },
    defaults: (obj: KubeObject) => defaultService(as<Service>(obj)),
    validate: (obj: KubeObject) => validateService(as<Service>(obj)),
    validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
      if (isStatusWrite(ctx)) return validateObjectMetaUpdate(obj.metadata as ObjectMeta, old.metadata);
      return validateServiceUpdate(as<Service>(obj), as<Service>(old));
    },
  } satisfies Strategy;
}

/** The services strategy of an IPv4-only cluster (winkube's default service CIDR). */
export const serviceStrategy = serviceStrategyFor(IPV4_ONLY);

/**
 * `strategies` with the services strategy bound to the cluster's families, when it is this module's (a caller that
 * brought its own services strategy keeps it).
 */
export function withServiceIPFamilies(strategies: Record<string, Strategy>, families: readonly IPFamily[]): Record<string, Strategy> {
  if (strategies.services !== serviceStrategy) return strategies;
  return { ...strategies, services: serviceStrategyFor(families) };
}
