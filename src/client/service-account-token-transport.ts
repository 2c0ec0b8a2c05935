// A transport that acts as one ServiceAccount over HTTP: it asks TokenRequest (serviceaccounts/<name>/token) for a
// bound token with another client's credentials and renews it before it runs out, as kube-controller-manager's
// DynamicControllerClientBuilder does for every controller (k8s.io/controller-manager/pkg/clientbuilder).

import type { WatchEvent } from '../api/types.js';
import type { Clock } from '../util/clock.js';
import { HttpTransport, type HttpTransportOptions } from './http-transport.js';
import type { ApiRequest, ApiResponse, Client, Transport, WatchStream } from './interfaces.js';
import { R } from './resources.js';

/** clientbuilder's defaultExpirationSeconds: one hour; renewed once 80% of it has passed (its leewayPercent 20). */
export const DEFAULT_TOKEN_SECONDS = 3600;
const RENEW_AT = 0.8;

export interface ServiceAccountTokenTransportOptions {
  /** Whose credentials create the TokenRequest (the controller-manager's own kubeconfig). */
  issuer: Client;
  namespace: string;
  name: string;
  /** Server URL, CA and TLS settings; any credentials in it are replaced by the token. */
  server: HttpTransportOptions;
  userAgent: string;
  clock: Clock;
  expirationSeconds?: number;
}

interface TokenRequestObj {
  status?: { token?: string; expirationTimestamp?: string };
}

export class ServiceAccountTokenTransport implements Transport {
  private current?: { transport: HttpTransport; renewAt: number };
  private pending?: Promise<HttpTransport>;
  /** Every transport made; a watch opened on an older one keeps its stream after a renewal, as client-go's does. */
  private readonly made: HttpTransport[] = [];

  constructor(private readonly opts: ServiceAccountTokenTransportOptions) {}

  async request(req: ApiRequest): Promise<ApiResponse> {
    const res = await (await this.transport()).request(req);
    if (res.status !== 401) return res;
    // Revoked or expired early (the ServiceAccount was recreated): one fresh token, then the answer stands.
    return (await this.transport(true)).request(req);
  }

  async watch(req: ApiRequest, onEvent: (ev: WatchEvent) => void): Promise<WatchStream> {
    return (await this.transport()).watch(req, onEvent);
  }

  close(): void {
    for (const t of this.made.splice(0)) t.close();
    this.current = undefined;
  }

  private transport(force = false): Promise<HttpTransport> {
    const cur = this.current;
    if (!force && cur && this.opts.clock.now() < cur.renewAt) return Promise.resolve(cur.transport);
    // One TokenRequest at a time however many requests wait for it.
    this.pending ??= this.renew().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async renew(): Promise<HttpTransport> {
    const { issuer, namespace, name, clock } = this.opts;
    const seconds = this.opts.expirationSeconds ?? DEFAULT_TOKEN_SECONDS;
    const issuedAt = clock.now();
    const tr = await issuer.createSubresource(R.serviceaccounts, namespace, name, 'token', {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: seconds },
    }) as TokenRequestObj;
    const token = tr.status?.token;
    if (!token) throw new Error(`TokenRequest for ${namespace}/${name} returned no token`);
    const expires = tr.status?.expirationTimestamp ? Date.parse(tr.status.expirationTimestamp) : issuedAt + seconds * 1000;
    const { server, ca, insecureSkipTlsVerify, tlsServerName, maxSockets, timeoutMs } = this.opts.server;
    const transport = new HttpTransport({ server, ca, insecureSkipTlsVerify, tlsServerName, maxSockets, timeoutMs, token, userAgent: this.opts.userAgent });
    this.made.push(transport);
    this.current = { transport, renewAt: issuedAt + (expires - issuedAt) * RENEW_AT };
    return transport;
  }
}
