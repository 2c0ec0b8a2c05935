// Endpoints subsets from pods (pkg/controller/endpoint/endpoints_controller.go syncService and
// pkg/api/v1/endpoints/util.go RepackSubsets): addresses grouped by the exact set of ports they serve.

import type { EndpointAddress, EndpointPort, EndpointSubset, Pod } from 'kubernetes-types/core/v1.js';
import { findPort, podIPs, shouldPodBeInEndpoints } from '../util/endpoints.js';
import { isPodReady } from '../util/pod.js';
import type { ServiceObj } from '../util/types.js';

export function subsetsFor(svc: ServiceObj, pods: Pod[]): EndpointSubset[] {
  const tolerateUnready = !!svc.spec?.publishNotReadyAddresses;
  const raw: { addr: EndpointAddress; ready: boolean; ports: EndpointPort[] }[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const ip = podIPs(pod).find((x) => !x.includes(':')) ?? podIPs(pod)[0];
    const addr: EndpointAddress = {
      ip,
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      targetRef: { kind: 'Pod', namespace: pod.metadata?.namespace, name: pod.metadata?.name, uid: pod.metadata?.uid },
    };
    if (pod.spec?.hostname && pod.spec.subdomain === svc.metadata.name && pod.metadata?.namespace === svc.metadata.namespace) {
      addr.hostname = pod.spec.hostname;
    }
    const ready = tolerateUnready || isPodReady(pod);
    const svcPorts = svc.spec?.ports ?? [];
    if (!svcPorts.length) {
      // Headless services without ports still list their addresses.
      if (svc.spec?.clusterIP === 'None') raw.push({ addr, ready, ports: [] });
      continue;
    }
    for (const sp of svcPorts) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      raw.push({ addr, ready, ports: [{ ...(sp.name ? { name: sp.name } : {}), port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) }] });
    }
  }
  return repack(raw);
}

/** RepackSubsets: one subset per distinct address set, carrying every port those addresses share. */
function repack(raw: { addr: EndpointAddress; ready: boolean; ports: EndpointPort[] }[]): EndpointSubset[] {
  const portKey = (p: EndpointPort) => JSON.stringify([p.name ?? '', p.port, p.protocol ?? 'TCP', p.appProtocol ?? '']);
  const addrKey = (a: EndpointAddress) => `${a.ip}/${a.targetRef?.uid ?? ''}`;
  // port -> addresses that offer it
  const byPort = new Map<string, { port?: EndpointPort; addrs: Map<string, { addr: EndpointAddress; ready: boolean }> }>();
  for (const r of raw) {
    for (const p of r.ports.length ? r.ports : [undefined]) {
      const k = p ? portKey(p) : 'none';
      let e = byPort.get(k);
      if (!e) byPort.set(k, (e = { port: p, addrs: new Map() }));
      e.addrs.set(addrKey(r.addr), { addr: r.addr, ready: r.ready });
    }
  }
  // address set -> ports
  const bySet = new Map<string, { addrs: { addr: EndpointAddress; ready: boolean }[]; ports: EndpointPort[] }>();
  for (const e of byPort.values()) {
    const addrs = [...e.addrs.values()].sort((a, b) => cmpAddr(a.addr, b.addr));
    const k = addrs.map((a) => `${addrKey(a.addr)}:${a.ready}`).join(',');
    let s = bySet.get(k);
    if (!s) bySet.set(k, (s = { addrs, ports: [] }));
    if (e.port) s.ports.push(e.port);
  }
  const out: EndpointSubset[] = [];
  for (const s of bySet.values()) {
    const ready = s.addrs.filter((a) => a.ready).map((a) => a.addr);
    const notReady = s.addrs.filter((a) => !a.ready).map((a) => a.addr);
    const subset: EndpointSubset = {};
    if (ready.length) subset.addresses = ready;
    if (notReady.length) subset.notReadyAddresses = notReady;
    if (s.ports.length) subset.ports = s.ports.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.port - b.port);
    out.push(subset);
  }
  return out.sort((a, b) => cmpAddr(first(a), first(b)));
}

const first = (s: EndpointSubset): EndpointAddress => s.addresses?.[0] ?? s.notReadyAddresses?.[0] ?? { ip: '' };

function cmpAddr(a: EndpointAddress, b: EndpointAddress): number {
  return a.ip.localeCompare(b.ip, 'en', { numeric: true }) || (a.targetRef?.uid ?? '').localeCompare(b.targetRef?.uid ?? '');
}
