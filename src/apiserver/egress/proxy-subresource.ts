// services/<name>/proxy and pods/<name>/proxy: the API server resolves the target (pkg/registry/core/service/storage
// ResourceLocation, pkg/registry/core/pod/strategy.go ResourceLocation) and forwards the request through the egress;
// a transport failure is `error trying to reach service: …` (apimachinery pkg/util/proxy/transport.go).

import { isIP } from 'node:net';
import type { Pod, Service } from 'kubernetes-types/core/v1.js';
import { StatusError } from '../../api/errors.js';
import type { ApiResponse } from '../../client/interfaces.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import { ClusterEgress } from './egress.js';
import { EgressError } from './go-errors.js';
import { resolveServiceEndpoint, type PodEndpoint } from './service-resolver.js';
import { HOP_BY_HOP_HEADERS } from '../../util/hop-headers.js';

export interface ProxyCall {
  kind: 'services' | 'pods';
  namespace: string;
  /** `name`, `name:port` or `scheme:name:port` (utilnet.SplitSchemeNamePort). */
  id: string;
  rest: string[];
  method: string;
  query?: Record<string, string | string[] | undefined>;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** SplitSchemeNamePort: 1–3 colon-separated parts; a scheme must be http or https. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name = '';
  let port = '';
  if (parts.length === 1) [name] = parts;
  else if (parts.length === 2) [name, port] = parts;
  else if (parts.length === 3) [scheme, name, port] = parts;
  else return undefined;
  if (!name || (scheme && scheme !== 'http' && scheme !== 'https')) return undefined;
  return { scheme, name, port };
}

/** The service endpoint: the port may be named by number (its ServicePort's name is then used) or by name. */
function serviceTarget(lookup: AdmissionLookup, namespace: string, id: string, name: string, port: string): PodEndpoint {
  const svc = lookup.get('', 'services', namespace, name) as unknown as Service | undefined;
  if (!svc) throw StatusError.notFound('', 'services', name);
  let portName = port;
  if (/^\d+$/.test(port)) {
    const p = (svc.spec?.ports ?? []).find((x) => x.port === Number(port));
    if (!p) throw StatusError.serviceUnavailable(`no service port ${port} found for service "${name}"`);
    portName = p.name ?? '';
  }
  const byName = (svc.spec?.ports ?? []).find((x) => (x.name ?? '') === portName);
  try {
    if (!byName) throw StatusError.serviceUnavailable(`no endpoints available for service "${id}"`);
    return resolveServiceEndpoint(lookup, namespace, name, byName.port);
  } catch (err) {
    // Endpoints exist but none serves that port: kube names the whole id in this case.
    if (err instanceof StatusError && err.code === 503 && portName) throw StatusError.serviceUnavailable(`no endpoints available for service "${id}"`);
    throw err;
  }
}

/** The pod target: its IP (a global unicast address, else `address not allowed`) and the port, or the first declared one. */
function podTarget(lookup: AdmissionLookup, namespace: string, name: string, port: string): PodEndpoint {
  const pod = lookup.get('', 'pods', namespace, name) as unknown as Pod | undefined;
  if (!pod) throw StatusError.notFound('', 'pods', name);
  let p = port;
  if (!p) for (const c of pod.spec?.containers ?? []) if (c.ports?.length) { p = String(c.ports[0].containerPort); break; }
  const ip = pod.status?.podIP ?? '';
  if (!isIP(ip) || ip === '0.0.0.0' || ip.startsWith('127.') || ip === '::1' || ip === '::') throw StatusError.badRequest('address not allowed');
  return { ip, port: Number(p || 80), node: pod.spec?.nodeName, pod: { namespace, name } };
}

const HOP_HEADERS = new Set([...HOP_BY_HOP_HEADERS, 'host', 'authorization']);

function queryString(q: ProxyCall['query']): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q ?? {})) for (const x of v === undefined ? [] : Array.isArray(v) ? v : [v]) sp.append(k, x);
  const s = sp.toString();
  return s ? `?${s}` : '';
}

export async function proxySubresource(egress: ClusterEgress, lookup: AdmissionLookup, call: ProxyCall): Promise<ApiResponse> {
  const parsed = splitSchemeNamePort(call.id);
  const singular = call.kind === 'services' ? 'service' : 'pod';
  if (!parsed) throw StatusError.badRequest(`invalid ${singular} request "${call.id}"`);
  const ep = call.kind === 'services'
    ? serviceTarget(lookup, call.namespace, call.id, parsed.name, parsed.port)
    : podTarget(lookup, call.namespace, parsed.name, parsed.port);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(call.headers ?? {})) if (!HOP_HEADERS.has(k.toLowerCase())) headers[k] = v;
  const path = `/${call.rest.map(encodeURIComponent).join('/')}${queryString(call.query)}`;
  try {
    const res = await egress.toPod(lookup, ep, { method: call.method, path, headers, body: call.body, scheme: (parsed.scheme || 'http') as 'http' | 'https', insecure: true, timeoutMs: 30_000 });
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (!HOP_HEADERS.has(k) && k !== 'content-type') out[k] = v;
    return { status: res.status, body: res.body, contentType: res.headers['content-type'], headers: out };
  } catch (err) {
    if (err instanceof EgressError) throw StatusError.serviceUnavailable(`error trying to reach service: ${err.message}`);
    throw err;
  }
}

/** The proxy call a services/pods proxy request makes: the request's method, body, content headers and query. */
export function proxyCall(ctx: { req: { method: string; body?: unknown; contentType?: string; accept?: string; query?: ProxyCall['query'] }; info: { name: string; rest: string[] } }, kind: 'services' | 'pods', namespace: string): ProxyCall {
  const b = ctx.req.body;
  const body = b === undefined ? undefined : Buffer.isBuffer(b) ? b : Buffer.from(typeof b === 'string' ? b : JSON.stringify(b));
  const headers: Record<string, string> = {};
  if (ctx.req.contentType) headers['content-type'] = ctx.req.contentType;
  if (ctx.req.accept) headers.accept = ctx.req.accept;
  return { kind, namespace, id: ctx.info.name, rest: ctx.info.rest, method: ctx.req.method, query: ctx.req.query, headers, body };
}
