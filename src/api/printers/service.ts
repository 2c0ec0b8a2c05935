// Table printing for services: Type, Cluster-IP, External-IP, Port(s) and the selector.

import type { Service, ServicePort } from 'kubernetes-types/core/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';
import { formatLabels } from './selector-string.js';

/**
 * printers.go loadBalancerStatusStringer with wide=true (the server always prints wide, so no 16-char clipping):
 * ingress IPs, or hostnames where no IP, sorted and de-duplicated.
 */
function loadBalancerIngress(svc: Service): string {
  const set = new Set<string>();
  for (const ing of svc.status?.loadBalancer?.ingress ?? []) {
    if (ing.ip) set.add(ing.ip);
    else if (ing.hostname) set.add(ing.hostname);
  }
  return [...set].sort().join(',');
}

/** printers.go getServiceExternalIP. */
export function serviceExternalIP(svc: Service): string {
  const externalIPs = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIngress(svc);
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb.length > 0 ? lb : '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
  }
  return '<unknown>';
}

/** printers.go makePortString: `port/proto` or `port:nodePort/proto` (protocol defaults to TCP); `<none>` when empty. */
export function servicePorts(ports: ServicePort[] | undefined): string {
  const s = (ports ?? [])
    .map((p) => (p.nodePort && p.nodePort > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`))
    .join(',');
  return s.length === 0 ? '<none>' : s;
}

function serviceRow(obj: KubeObject, now: number): TableCell[] {
  const svc = obj as unknown as Service;
  // v1 conversion/defaulting mirrors clusterIP into clusterIPs[0]; fall back for objects stored without it.
  const clusterIP = svc.spec?.clusterIPs?.[0] || svc.spec?.clusterIP || '<none>';
  return [
    svc.metadata?.name ?? '',
    svc.spec?.type ?? '',
    clusterIP,
    serviceExternalIP(svc),
    servicePorts(svc.spec?.ports),
    translateTimestampSince(svc.metadata?.creationTimestamp, now),
    formatLabels(svc.spec?.selector),
  ];
}

export const SERVICE_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.'),
    column('Cluster-IP', 'string', 'The virtual IP of the service (first of spec.clusterIPs).'),
    column('External-IP', 'string', 'External IPs or load-balancer ingress addresses.'),
    column('Port(s)', 'string', 'Service ports, with node ports where allocated.'),
    AGE_COLUMN,
    column('Selector', 'string', 'Labels of the pods that back the service.', true),
  ],
  row: serviceRow,
};
