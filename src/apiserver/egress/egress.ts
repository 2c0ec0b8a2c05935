// The API server's way into the cluster network: requests to a Service (resolved to one ready endpoint at dial time,
// as kube-apiserver's webhook client and aggregator do with aggregator routing) and to a pod address, each carried
// by the node agent that hosts the pod. Webhooks, services/proxy, pods/proxy and (next) APIServices share it.

import type { AdmissionLookup } from '../admission/interfaces.js';
import type { KubeletClientTls } from '../kubelet-proxy.js';
import { egressRequest, egressStream, type EgressRequest, type EgressResponse, type EgressStream } from './http-request.js';
import { dialPod } from './pod-dialer.js';
import { resolveServiceEndpoint, type PodEndpoint } from './service-resolver.js';

export interface ServiceRef {
  namespace: string;
  name: string;
  port: number;
}

export type ClusterRequest = Omit<EgressRequest, 'dial' | 'url' | 'serverName'> & { path: string; scheme?: 'https' | 'http' };

export class ClusterEgress {
  constructor(private readonly creds: () => KubeletClientTls | undefined) {}

  /** The DNS name a Service's serving certificate must carry (`<svc>.<ns>.svc`, webhookutil client.go). */
  static serviceHost(svc: ServiceRef): string {
    return `${svc.name}.${svc.namespace}.svc`;
  }

  /**
   * A request to a Service by its DNS name; the endpoint is chosen when the connection is opened, so resolution
   * failures (`no endpoints available for service "x"`) surface as the transport error of that URL.
   */
  toService(lookup: AdmissionLookup, svc: ServiceRef, r: ClusterRequest): Promise<EgressResponse> {
    return egressRequest(this.serviceRequest(lookup, svc, r));
  }

  /** The same, for a long-running answer read as it arrives (a watch through an aggregated API). */
  streamFromService(lookup: AdmissionLookup, svc: ServiceRef, r: ClusterRequest): Promise<EgressStream> {
    return egressStream(this.serviceRequest(lookup, svc, r));
  }

  private serviceRequest(lookup: AdmissionLookup, svc: ServiceRef, r: ClusterRequest): EgressRequest {
    const host = ClusterEgress.serviceHost(svc);
    return {
      ...r, url: new URL(`${r.scheme ?? 'https'}://${host}:${svc.port}${r.path}`), serverName: host,
      // Kept connections go to the endpoint chosen when each was opened, as connections to a ClusterIP do.
      poolKey: `service:${svc.namespace}/${svc.name}:${svc.port}`,
      dial: async (signal) => dialPod(lookup, this.creds(), resolveServiceEndpoint(lookup, svc.namespace, svc.name, svc.port), signal),
    };
  }

  /** A request to one pod address (services/proxy and pods/proxy after their own resolution). */
  toPod(lookup: AdmissionLookup, ep: PodEndpoint, r: ClusterRequest): Promise<EgressResponse> {
    const host = ep.ip.includes(':') ? `[${ep.ip}]` : ep.ip;
    return egressRequest({
      ...r, url: new URL(`${r.scheme ?? 'http'}://${host}:${ep.port}${r.path}`),
      poolKey: `pod:${host}:${ep.port}`,
      dial: (signal) => dialPod(lookup, this.creds(), ep, signal),
    });
  }
}
