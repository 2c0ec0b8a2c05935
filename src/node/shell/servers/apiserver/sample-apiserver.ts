// The Kubernetes e2e aggregator backend (registry.k8s.io/e2e-test-images/sample-apiserver; kubernetes/sample-apiserver):
// wardle.example.com v1alpha1 (flunders, fischers) and v1beta1 (flunders) over HTTPS on --secure-port (443), with
// the generic server's discovery, Tables (the default convertor: Name, Created At), watch streams, its types'
// OpenAPI and Status errors.

import type { HttpRequest, HttpResponse } from '../../interfaces.js';
import type { Ctx } from '../../core/ctx.js';
import { response, serve } from '../common.js';
import { flag, json, notFoundPath, serveGeneric, servingCert, statusError, type ServedGroup } from './generic.js';
import { wardleV2, wardleV3, wardleV3Discovery } from './wardle-openapi.js';
import { WARDLE_GROUP, WardleStore, type Failure, type WardleObject } from './wardle-store.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const FLUNDERS = { plural: 'flunders', singular: 'flunder', kind: 'Flunder', namespaced: true, verbs: VERBS };
const FISCHERS = { plural: 'fischers', singular: 'fischer', kind: 'Fischer', namespaced: false, verbs: VERBS };

export const WARDLE: ServedGroup = {
  group: WARDLE_GROUP,
  versions: [{ version: 'v1alpha1', resources: [FISCHERS, FLUNDERS] }, { version: 'v1beta1', resources: [FLUNDERS] }],
};

const isFailure = (x: WardleObject | Failure): x is Failure => typeof (x as Failure).code === 'number';
const fail = (f: Failure) => statusError(f.code, f.reason, f.message, f.details);

/** rest.NewDefaultTableConvertor: Name and Created At (watch events after the first leave the columns out). */
function table(items: WardleObject[], rv: string, single: boolean, noHeaders = false): object {
  return {
    kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: single ? {} : { resourceVersion: rv },
    columnDefinitions: noHeaders ? [] : [
      { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names', priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata', priority: 0 },
    ],
    rows: items.map((o) => ({
      cells: [o.metadata.name, o.metadata.creationTimestamp],
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}

/** RFC 7386 merge patch (kubectl patch --type merge; apply of a kind without a schema). */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** The group's own OpenAPI (the generic server's handlers, fed by the generated definitions). */
function serveOpenApi(path: string): HttpResponse | undefined {
  if (path === '/openapi/v2') return json(200, wardleV2(WARDLE));
  if (path === '/openapi/v3') return json(200, wardleV3Discovery(WARDLE));
  const m = /^\/openapi\/v3\/apis\/([^/]+)\/([^/]+)$/.exec(path);
  if (!m) return undefined;
  const doc = m[1] === WARDLE.group ? wardleV3(WARDLE, m[2]) : undefined;
  return doc ? json(200, doc) : response(404, '404 page not found\n', { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
}

/** strconv.ParseBool, as the generic server reads `watch`. */
const isTrue = (v: string | null) => v !== null && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);

/**
 * A watch as the generic registry serves it: 200 at once, then one JSON event per line, flushed as it happens;
 * `fieldSelector=metadata.name=x` (kubectl get NAME -w) narrows it to one object. Tables (kubectl get -w) carry the
 * column definitions in the first event only.
 */
function watchResponse(store: WardleStore, resource: string, namespace: string | undefined, params: URLSearchParams, asTable: boolean, out: (o: WardleObject) => WardleObject, stopped?: AbortSignal): HttpResponse {
  const only = /^metadata\.name=(.*)$/.exec(params.get('fieldSelector') ?? '')?.[1];
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' };
  return {
    status: 200, headers, body: Buffer.alloc(0),
    stream: (w) => {
      let headersSent = false;
      const line = (type: string, object: unknown) => w.write(`${JSON.stringify({ type, object })}\n`);
      const stop = store.watch(resource, namespace, params.get('resourceVersion') ?? undefined, (ev) => {
        if (only !== undefined && ev.object.metadata.name !== only) return;
        if (!asTable) return line(ev.type, out(ev.object));
        line(ev.type, table([ev.object], ev.object.metadata.resourceVersion ?? store.revision, false, headersSent));
        headersSent = true;
      });
      if (typeof stop !== 'function') {
        // Errors after the 200 travel in the stream, as an ERROR event with the Status (410 Expired).
        line('ERROR', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: stop.message, reason: stop.reason, code: stop.code });
        w.end();
        return () => {};
      }
      // The program stopping ends its open watches (the client sees the stream end, and re-lists elsewhere).
      const onStop = () => {
        stop();
        w.end();
      };
      stopped?.addEventListener('abort', onStop, { once: true });
      return () => {
        stopped?.removeEventListener('abort', onStop);
        stop();
      };
    },
  };
}

export function sampleApiserverHandler(store: WardleStore, stopped?: AbortSignal): (req: HttpRequest) => Promise<HttpResponse> {
  return async (req) => {
    const openapi = serveOpenApi(req.path.split('?')[0]);
    if (openapi) return openapi;
    const generic = serveGeneric(req, [WARDLE]);
    if (generic) return generic;
    const [rawPath, query = ''] = req.path.split('?');
    const params = new URLSearchParams(query);
    const segs = rawPath.split('/').filter(Boolean).map(decodeURIComponent);
    if (segs[0] !== 'apis' || segs[1] !== WARDLE_GROUP) return notFoundPath();
    const version = WARDLE.versions.find((v) => v.version === segs[2]);
    if (!version) return notFoundPath();
    let rest = segs.slice(3);
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    const res = version.resources.find((r) => r.plural === rest[0]);
    if (!res || rest.length > 2 || (res.namespaced === false && namespace)) return notFoundPath();
    const name = rest[1];
    const apiVersion = `${WARDLE_GROUP}/${version.version}`;
    const asTable = /as=Table/.test(req.headers.accept ?? '');
    const out = (o: WardleObject) => ({ ...o, kind: res.kind, apiVersion });
    if (req.method === 'GET' && !name && isTrue(params.get('watch'))) {
      return watchResponse(store, res.plural, namespace, params, asTable, out, stopped);
    }
    if (req.method === 'GET' && !name) {
      const items = store.list(res.plural, namespace);
      if (asTable) return json(200, table(items, store.revision, false));
      return json(200, { kind: `${res.kind}List`, apiVersion, metadata: { resourceVersion: store.revision }, items: items.map(out) });
    }
    if (req.method === 'GET') {
      const got = store.get(res.plural, namespace, name);
      if (isFailure(got)) return fail(got);
      return json(200, asTable ? table([got], store.revision, true) : out(got));
    }
    let body: WardleObject | undefined;
    if (req.body.length) {
      try {
        body = JSON.parse(req.body.toString()) as WardleObject;
      } catch (err) {
        return statusError(400, 'BadRequest', `the object provided is unrecognized (${(err as Error).message})`);
      }
    }
    if (req.method === 'POST' && !name) {
      if (!body) return statusError(400, 'BadRequest', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
      const created = store.create(res.plural, namespace, { ...body, metadata: { ...(body.metadata ?? {}) } });
      return isFailure(created) ? fail(created) : json(201, out(created));
    }
    if (req.method === 'PUT' && name && body) {
      const updated = store.update(res.plural, namespace, name, body);
      return isFailure(updated) ? fail(updated) : json(200, out(updated));
    }
    if (req.method === 'PATCH' && name && body) {
      const cur = store.get(res.plural, namespace, name);
      if (isFailure(cur)) return fail(cur);
      const updated = store.update(res.plural, namespace, name, mergePatch(cur, body) as WardleObject);
      return isFailure(updated) ? fail(updated) : json(200, out(updated));
    }
    if (req.method === 'DELETE' && name) {
      const gone = store.delete(res.plural, namespace, name);
      return isFailure(gone) ? fail(gone) : json(200, out(gone));
    }
    return statusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
  };
}

/** `sample-apiserver --secure-port=443 --tls-cert-file=… --tls-private-key-file=… [--etcd-servers=…]`. */
export async function sampleApiserver(argv: string[], ctx: Ctx): Promise<number> {
  const args = argv.slice(1);
  const tls = servingCert(args, ctx, 'localhost');
  if (typeof tls === 'string') {
    ctx.stderr.write(`Error: failed to load serving certificate: ${tls}\n`);
    return 1;
  }
  const port = Number(flag(args, 'secure-port') ?? '443');
  ctx.stderr.write(`I0000 00:00:00.000000       1 secure_serving.go:213] Serving securely on [::]:${port}\n`);
  const store = new WardleStore(() => ctx.env.clock.now());
  return serve(ctx, 'sample-apiserver', [{ port, handler: sampleApiserverHandler(store, ctx.signal), tls }], () => {
    ctx.stderr.write(`Error: failed to create listener: failed to listen on 0.0.0.0:${port}: listen tcp 0.0.0.0:${port}: bind: address already in use\n`);
    return 1;
  });
}
