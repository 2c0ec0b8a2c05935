// A service-backed APIService's group/version as the API server serves it: every request under /apis/<g>/<v>
// proxied to the Service through the cluster egress with the caller's identity in X-Remote-* headers, long-running
// requests (watch) relayed as they arrive, and 503 `service unavailable` while the APIService is not Available
// (kube-aggregator pkg/apiserver/handler_proxy.go).

import { StatusError } from '../../api/errors.js';
import type { UserInfo } from '../admission/interfaces.js';
import type { ClusterEgress } from '../egress/egress.js';
import type { EgressResponse } from '../egress/http-request.js';
import type { AggregatedApi, AggregatedContext, AggregatedResource, ServerRequest, ServerResponse } from '../interfaces.js';
import type { RequestInfo } from '../request-info.js';
import type { ApiService } from '../../api/validation/apiregistration.js';
import type { V2Resource } from './discovery-convert.js';
import { relayedHeaders, streamedWatch } from './stream-relay.js';

/** What the proxy and the discovery fetch need to reach one APIService's backend. */
export interface Backend {
  service: ApiService;
  egress: ClusterEgress;
}

/** transport.SetAuthProxyHeaders: who is asking, one header line per group and extra value. */
export function authProxyHeaders(user: UserInfo): Record<string, string | string[]> {
  const h: Record<string, string | string[]> = { 'X-Remote-User': user.name };
  if (user.groups.length) h['X-Remote-Group'] = [...user.groups];
  for (const [k, v] of Object.entries(user.extra ?? {})) h[`X-Remote-Extra-${encodeURIComponent(k)}`] = [...v];
  return h;
}

interface BackendRequest { method: string; path: string; headers: Record<string, string | string[]>; body?: Buffer; timeoutMs?: number }

/** TLS towards the backend: checked against the caBundle, or not at all with insecureSkipTLSVerify. */
function tlsOf(b: Backend): { ca?: string; insecure: boolean } {
  const spec = b.service.spec ?? {};
  return { ca: spec.caBundle ? Buffer.from(spec.caBundle, 'base64').toString() : undefined, insecure: spec.insecureSkipTLSVerify === true };
}

/** One request to the backend Service, read whole. */
export function requestBackend(b: Backend, ctx: Pick<AggregatedContext, 'lookup'>, r: BackendRequest): Promise<EgressResponse> {
  const ref = b.service.spec?.service ?? {};
  return b.egress.toService(ctx.lookup, { namespace: ref.namespace ?? '', name: ref.name ?? '', port: ref.port ?? 443 }, {
    method: r.method, path: r.path, headers: r.headers, body: r.body, timeoutMs: r.timeoutMs, ...tlsOf(b),
  });
}

/**
 * kube-apiserver's long-running check (BasicLongRunningRequestCheck with watch/proxy verbs and the attach, exec,
 * proxy, log, portforward subresources): such requests get no request timeout, so their answers are relayed as
 * they arrive rather than read whole.
 */
export function isLongRunning(info: Pick<RequestInfo, 'verb' | 'subresource'>): boolean {
  return info.verb === 'watch' || info.verb === 'proxy' || ['attach', 'exec', 'proxy', 'log', 'portforward'].includes(info.subresource);
}

/**
 * A long-running request to the backend: no deadline once it answers (the dial and the wait for headers keep the
 * request timeout). A watch's 200 is relayed as a stream; an error answer is read whole like any other.
 */
async function streamBackend(b: Backend, ctx: Pick<AggregatedContext, 'lookup'>, r: BackendRequest, watch: boolean): Promise<ServerResponse> {
  const spec = b.service.spec ?? {};
  const ref = spec.service ?? {};
  const res = await b.egress.streamFromService(ctx.lookup, { namespace: ref.namespace ?? '', name: ref.name ?? '', port: ref.port ?? 443 }, { ...tlsOf(b), ...r, timeoutMs: 60_000 });
  if (watch && res.status !== 200) {
    const chunks: Buffer[] = [];
    for await (const c of res.body) chunks.push(c as Buffer);
    return relay({ status: res.status, headers: res.headers, body: Buffer.concat(chunks) });
  }
  return watch ? streamedWatch(res.status, res.headers, res.body) : { status: res.status, headers: relayedHeaders(res.headers), stream: res.body };
}

/** The request's query as Go's url.Values.Encode writes it: keys sorted. */
function encodeQuery(q: ServerRequest['query']): string {
  const parts: string[] = [];
  for (const k of Object.keys(q ?? {}).sort()) {
    const v = q![k];
    for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(x)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function bodyOf(req: ServerRequest): Buffer | undefined {
  if (req.body === undefined || req.body === null) return undefined;
  if (Buffer.isBuffer(req.body)) return req.body;
  return Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
}

/** http.Error: a plain-text body and the status. */
export function plainError(status: number, text: string): ServerResponse {
  return { status, body: `${text}\n`, contentType: 'text/plain; charset=utf-8', headers: { 'X-Content-Type-Options': 'nosniff' } };
}

/** The backend's answer as the API server returns it: JSON parsed (in-process callers read objects), else bytes. */
export function relay(res: EgressResponse): ServerResponse {
  const type = res.headers['content-type'];
  if (type?.startsWith('application/json')) {
    try {
      return { status: res.status, body: JSON.parse(res.body.toString()), contentType: type };
    } catch {
      // Not JSON after all: pass the bytes on as they are.
    }
  }
  return { status: res.status, body: res.body, contentType: type };
}

export class RemoteApi implements AggregatedApi {
  readonly group: string;
  readonly version: string;
  readonly proxiesDiscovery = true;
  readonly resources: readonly AggregatedResource[];

  constructor(
    private readonly backend: Backend,
    private readonly available: boolean,
    discovery: readonly V2Resource[] | undefined,
    readonly freshness: 'Current' | 'Stale',
  ) {
    this.group = backend.service.spec?.group ?? '';
    this.version = backend.service.spec?.version ?? '';
    this.resources = (discovery ?? []).map((r) => ({
      plural: r.resource, singular: r.singularResource ?? '', kind: r.responseKind?.kind ?? '', namespaced: r.scope === 'Namespaced', verbs: r.verbs, v2: r,
    }));
  }

  async handle(req: ServerRequest, info: RequestInfo, ctx: AggregatedContext): Promise<ServerResponse> {
    if (!this.available) return plainError(503, 'service unavailable');
    if (!req.user) throw StatusError.internal('missing user');
    const headers: Record<string, string | string[]> = { ...authProxyHeaders(req.user) };
    if (req.accept) headers.Accept = req.accept;
    if (req.contentType) headers['Content-Type'] = req.contentType;
    if (req.userAgent) headers['User-Agent'] = req.userAgent;
    const r = { method: req.method, path: `${req.path}${encodeQuery(req.query)}`, headers, body: bodyOf(req) };
    try {
      if (isLongRunning(info)) return await streamBackend(this.backend, ctx, r, info.verb === 'watch');
      // Other requests get the API server's request timeout (--request-timeout, 1m).
      return relay(await requestBackend(this.backend, ctx, { ...r, timeoutMs: 60_000 }));
    } catch (err) {
      // The upgrade-aware proxy's responder: the transport error's text, 503.
      return plainError(503, err instanceof Error ? err.message : String(err));
    }
  }
}
