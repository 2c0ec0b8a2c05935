// The node agent's directory of the pods its kubelets run, by IP, and the cluster objects the flat network needs
// (Services, EndpointSlices, pods, node addresses): the FlatNetworkSource behind exec's network commands.

import type { Pod, Service } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { FlatNetworkSource } from '../../network/flat/flat-network.js';
import { ClusterZone } from '../../network/dns/zone.js';
import type { Listener } from '../shell/interfaces.js';
import type { ContainerRuntime, PodRuntime } from '../runtime-state.js';
import { podListener } from './pod-servers.js';

export interface PodEntry {
  rec: PodRuntime;
  /** Sockets the pod's interpreted processes opened, by container. */
  listeners(c: ContainerRuntime): Listener[] | undefined;
}

export interface PodDirectoryOptions {
  now(): number;
  services: Informer<KubeObject>;
  endpointSlices: Informer<KubeObject>;
  pods: Informer<KubeObject>;
  nodeIPs: ReadonlySet<string>;
  dnsIP: string;
  /** Namespaces, for the DNS zone's NXDOMAIN of names in namespaces that do not exist. */
  namespaces?: Informer<KubeObject>;
}

interface EndpointSliceObj {
  metadata: { namespace?: string; labels?: Record<string, string> };
  endpoints?: { addresses: string[]; hostname?: string; conditions?: { ready?: boolean } }[];
  ports?: { name?: string; port?: number; protocol?: string }[];
}

export class PodDirectory implements FlatNetworkSource {
  private readonly byIP = new Map<string, PodEntry>();
  /** The cluster DNS zone, kept from the same informers (src/network/dns). */
  readonly dnsZone: ClusterZone;

  constructor(private readonly o: PodDirectoryOptions) {
    this.dnsZone = new ClusterZone({ dnsIP: o.dnsIP });
    this.dnsZone.attach({ namespaces: o.namespaces, services: o.services, endpointSlices: o.endpointSlices });
  }

  get dnsIP(): string {
    return this.o.dnsIP;
  }

  /** A kubelet gave a pod this IP (sandbox ready), or took it back (undefined). */
  set(ip: string, entry: PodEntry | undefined): void {
    if (entry) this.byIP.set(ip, entry);
    else this.byIP.delete(ip);
  }

  listenerAt(ip: string, port: number, protocol: 'TCP' | 'UDP'): Listener | undefined | null {
    const e = this.byIP.get(ip);
    if (!e) return null;
    return podListener(e.rec, port, protocol, (c) => e.listeners(c)) ?? undefined;
  }

  services(): Service[] {
    return this.o.services.list() as unknown as Service[];
  }

  endpoints(namespace: string, service: string): { ip: string; hostname?: string; ports: { name: string; port: number; protocol: string }[] }[] {
    const out: { ip: string; hostname?: string; ports: { name: string; port: number; protocol: string }[] }[] = [];
    for (const o of this.o.endpointSlices.list(namespace)) {
      const s = o as unknown as EndpointSliceObj;
      if (s.metadata.labels?.['kubernetes.io/service-name'] !== service) continue;
      const ports = (s.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port ?? 0, protocol: p.protocol ?? 'TCP' }));
      for (const e of s.endpoints ?? []) {
        if (e.conditions?.ready === false) continue;
        for (const ip of e.addresses) out.push({ ip, hostname: e.hostname, ports });
      }
    }
    return out;
  }

  pods(): Pod[] {
    return this.o.pods.list() as unknown as Pod[];
  }

  isNodeIP(ip: string): boolean {
    return this.o.nodeIPs.has(ip);
  }

  isPodIP(ip: string): boolean {
    return this.byIP.has(ip);
  }
}
