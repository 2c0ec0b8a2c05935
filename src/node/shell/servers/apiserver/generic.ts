// What every emulated extension API server built on k8s.io/apiserver answers (metrics-server, the e2e
// sample-apiserver): flags, a serving certificate (given, or self-signed as SecureServingOptions.
// MaybeDefaultWithSelfSignedCerts makes one), health, legacy and aggregated discovery, a minimal OpenAPI, and
// metav1 Status errors; the resources themselves are the program's.

import type { HttpRequest, HttpResponse } from '../../interfaces.js';
import type { Ctx } from '../../core/ctx.js';
import { createCa, issueCert } from '../../../../apiserver/pki.js';
import { response } from '../common.js';

/** A resource as discovery lists it. */
export interface ServedResource { plural: string; singular: string; kind: string; namespaced: boolean; verbs: string[]; shortNames?: string[]; categories?: string[] }

export interface ServedGroup { group: string; versions: { version: string; resources: ServedResource[] }[] }

/** `--name=value` or `--name value`; the last one wins, as pflag does. */
export function flag(args: string[], name: string): string | undefined {
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === `--${name}`) out = args[++i];
    else if (a.startsWith(`--${name}=`)) out = a.slice(name.length + 3);
  }
  return out;
}

/** The serving pair: --tls-cert-file/--tls-private-key-file, else a self-signed one as the library generates. */
export function servingCert(args: string[], ctx: Ctx, host: string): { cert: string; key: string } | string {
  const certFile = flag(args, 'tls-cert-file');
  const keyFile = flag(args, 'tls-private-key-file');
  if (certFile || keyFile) {
    try {
      return { cert: ctx.env.fs.readFile(certFile ?? '').toString(), key: ctx.env.fs.readFile(keyFile ?? '').toString() };
    } catch {
      return `open ${certFile}: no such file or directory`;
    }
  }
  const ca = createCa(`${host}-ca@${Math.floor(ctx.env.clock.now() / 1000)}`);
  return issueCert(ca, { cn: `${host}@${Math.floor(ctx.env.clock.now() / 1000)}`, server: { dns: [host, 'localhost'], ips: ['127.0.0.1'] } });
}

export const JSON_HEADERS = { 'Content-Type': 'application/json' };

export function json(status: number, body: unknown, type = 'application/json'): HttpResponse {
  return response(status, JSON.stringify(body), { 'Content-Type': type });
}

/** A metav1.Status failure, as responsewriters.ErrorNegotiated writes it. */
export function statusError(code: number, reason: string, message: string, details?: Record<string, unknown>): HttpResponse {
  return json(code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
}

export const notFoundPath = (): HttpResponse => statusError(404, 'NotFound', 'the server could not find the requested resource', {});

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

function resourceList(g: ServedGroup, v: ServedGroup['versions'][number]): object {
  return {
    kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${g.group}/${v.version}`,
    resources: v.resources.map((r) => ({
      name: r.plural, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}), ...(r.categories ? { categories: r.categories } : {}),
    })),
  };
}

function aggregated(groups: ServedGroup[], version: 'v2' | 'v2beta1'): object {
  return {
    kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {},
    items: groups.map((g) => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v.version, freshness: 'Current',
        resources: v.resources.map((r) => ({
          resource: r.plural, responseKind: { group: g.group, version: v.version, kind: r.kind }, scope: r.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: r.singular, verbs: r.verbs, ...(r.shortNames ? { shortNames: r.shortNames } : {}), ...(r.categories ? { categories: r.categories } : {}),
        })),
      })),
    })),
  };
}

/** Health, discovery and OpenAPI paths; undefined for anything else (a resource request). */
export function serveGeneric(req: HttpRequest, groups: ServedGroup[]): HttpResponse | undefined {
  const path = req.path.split('?')[0].replace(/\/$/, '') || '/';
  if (path === '/healthz' || path === '/livez' || path === '/readyz') return response(200, 'ok', { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  if (path === '/apis') {
    const accept = (req.headers.accept ?? '').replace(/\s+/g, '');
    if (accept.includes('v=v2;') || accept.endsWith('v=v2') || accept.includes('v=v2,')) return json(200, aggregated(groups, 'v2'), V2);
    if (accept.includes('v=v2beta1')) return json(200, aggregated(groups, 'v2beta1'), V2BETA1);
    return json(200, {
      kind: 'APIGroupList', apiVersion: 'v1',
      groups: groups.map((g) => {
        const versions = g.versions.map((v) => ({ groupVersion: `${g.group}/${v.version}`, version: v.version }));
        return { name: g.group, versions, preferredVersion: versions[0] };
      }),
    });
  }
  const segs = path.split('/').filter(Boolean);
  if (segs[0] === 'apis' && segs.length === 2) {
    const g = groups.find((x) => x.group === segs[1]);
    if (!g) return notFoundPath();
    const versions = g.versions.map((v) => ({ groupVersion: `${g.group}/${v.version}`, version: v.version }));
    return json(200, { kind: 'APIGroup', apiVersion: 'v1', name: g.group, versions, preferredVersion: versions[0] });
  }
  if (segs[0] === 'apis' && segs.length === 3) {
    const g = groups.find((x) => x.group === segs[1]);
    const v = g?.versions.find((x) => x.version === segs[2]);
    return g && v ? json(200, resourceList(g, v)) : notFoundPath();
  }
  if (path === '/openapi/v2') return json(200, { swagger: '2.0', info: { title: 'Api', version: 'unversioned' }, paths: {}, definitions: {} });
  if (path === '/openapi/v3') {
    const paths: Record<string, object> = {};
    for (const g of groups) for (const v of g.versions) paths[`apis/${g.group}/${v.version}`] = { serverRelativeURL: `/openapi/v3/apis/${g.group}/${v.version}` };
    return json(200, { paths });
  }
  if (path.startsWith('/openapi/v3/')) return json(200, { openapi: '3.0.0', info: { title: 'Api', version: 'unversioned' }, paths: {}, components: { schemas: {} } });
  return undefined;
}
