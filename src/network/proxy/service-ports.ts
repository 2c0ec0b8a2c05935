// What every kube-proxy starts from: each Service port with its frontends (ClusterIPs, NodePort, externalIPs, load
// balancer ingress) and its endpoints from the EndpointSlices (pkg/proxy servicechangetracker + endpointslicecache).

import type { Service } from 'kubernetes-types/core/v1.js';

export type L4Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface ProxyEndpoint {
  ip: string;
  port: number;
  nodeName?: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  /** `namespace/name` of the Pod behind the address, if any. */
  pod?: string;
}

export interface ServicePort {
  namespace: string;
  name: string;
  /** The port's name ('' for a single unnamed port). */
  portName: string;
  protocol: L4Protocol;
  port: number;
  nodePort?: number;
  targetPort: number | string;
  clusterIPs: string[];
  externalIPs: string[];
  loadBalancerIPs: string[];
  type: string;
  sessionAffinityClientIP: boolean;
  externalTrafficLocal: boolean;
  internalTrafficLocal: boolean;
  healthCheckNodePort?: number;
  annotations: Record<string, string>;
  endpoints: ProxyEndpoint[];
}

/** `namespace/name:port` as kube-proxy logs a ServicePortName. */
export function servicePortKey(sp: Pick<ServicePort, 'namespace' | 'name' | 'portName'>): string {
  return `${sp.namespace}/${sp.name}${sp.portName ? `:${sp.portName}` : ''}`;
}

/** The subset of discovery.k8s.io/v1 EndpointSlice kube-proxy reads. */
export interface SliceLike {
  metadata?: { namespace?: string; labels?: Record<string, string> };
  addressType?: string;
  endpoints?: { addresses: string[]; nodeName?: string; conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean }; targetRef?: { kind?: string; namespace?: string; name?: string } }[];
  ports?: { name?: string; port?: number; protocol?: string }[];
}

/**
 * The Service's ports with their endpoints. Services without a selector-less proxy role are skipped as kube-proxy
 * skips them: ExternalName, and headless (clusterIP None) Services get no rules (pkg/proxy/serviceport.go).
 */
export function servicePortsOf(svc: Service, slices: readonly SliceLike[]): ServicePort[] {
  const spec = svc.spec ?? {};
  if (spec.type === 'ExternalName') return [];
  const clusterIPs = (spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : [])).filter((ip) => ip && ip !== 'None');
  if (clusterIPs.length === 0) return [];
  const namespace = svc.metadata?.namespace ?? 'default';
  const name = svc.metadata?.name ?? '';
  const lbIPs = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip).filter((ip): ip is string => !!ip);
  return (spec.ports ?? []).map((p) => {
    const portName = p.name ?? '';
    const protocol = (p.protocol ?? 'TCP') as L4Protocol;
    const endpoints: ProxyEndpoint[] = [];
    for (const s of slices) {
      const sp = s.ports?.find((x) => (x.name ?? '') === portName && (x.protocol ?? 'TCP') === protocol);
      if (!sp?.port) continue;
      for (const e of s.endpoints ?? []) {
        const c = e.conditions ?? {};
        // Unset conditions read as true for ready/serving (discovery/v1 field docs), false for terminating.
        const ready = c.ready !== false;
        for (const ip of e.addresses) {
          endpoints.push({
            ip, port: sp.port, nodeName: e.nodeName, ready, serving: c.serving ?? ready, terminating: c.terminating === true,
            pod: e.targetRef?.kind === 'Pod' ? `${e.targetRef.namespace ?? namespace}/${e.targetRef.name}` : undefined,
          });
        }
      }
    }
    return {
      namespace, name, portName, protocol, port: p.port, nodePort: p.nodePort, targetPort: p.targetPort ?? p.port,
      clusterIPs, externalIPs: spec.externalIPs ?? [], loadBalancerIPs: lbIPs, type: spec.type ?? 'ClusterIP',
      sessionAffinityClientIP: spec.sessionAffinity === 'ClientIP',
      externalTrafficLocal: spec.externalTrafficPolicy === 'Local' && (spec.type === 'NodePort' || spec.type === 'LoadBalancer'),
      internalTrafficLocal: spec.internalTrafficPolicy === 'Local',
      healthCheckNodePort: spec.healthCheckNodePort, annotations: svc.metadata?.annotations ?? {}, endpoints,
    };
  });
}

/** The slices that belong to a Service (label kubernetes.io/service-name). */
export function slicesOf(all: readonly SliceLike[], namespace: string, service: string): SliceLike[] {
  return all.filter((s) => s.metadata?.namespace === namespace && s.metadata?.labels?.['kubernetes.io/service-name'] === service);
}
