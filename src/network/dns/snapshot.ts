// A zone built at once from plain lists of Services and endpoints, for network sources without informers (tests,
// the empty cluster). Components with informers keep a ClusterZone attached to them instead.

import type { Service } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../api/types.js';
import { serviceKey, toDnsService } from './cluster-index.js';
import { ClusterZone } from './zone.js';

export interface ListedEndpoint { ip: string; hostname?: string; ports: { name: string; port: number; protocol: string }[] }

export function zoneFromLists(services: Service[], endpoints: (namespace: string, service: string) => ListedEndpoint[], dnsIP: string): ClusterZone {
  const zone = new ClusterZone({ dnsIP });
  for (const s of services) {
    const svc = toDnsService(s as unknown as KubeObject);
    zone.index.setService(svc);
    const eps = endpoints(svc.namespace, svc.name);
    if (!eps.length) continue;
    zone.index.setSlice({
      key: `${svc.namespace}/${svc.name}`, service: serviceKey(svc.name, svc.namespace), namespace: svc.namespace,
      ports: eps[0].ports.map((p) => ({ name: p.name.toLowerCase(), port: p.port, protocol: p.protocol.toLowerCase() })),
      addresses: eps.map((e) => ({ ip: e.ip, hostname: e.hostname })),
    });
  }
  return zone;
}
