// `agnhost webhook`: the admission webhook server of the Kubernetes e2e tests (test/images/agnhost/webhook), serving
// AdmissionReview v1/v1beta1 over HTTPS with the certificate from --tls-cert-file/--tls-private-key-file. Handlers
// behave as upstream: /always-deny, /always-allow-delay-5s, /add-label, /pods, /mutating-pods, /configmaps,
// /mutating-configmaps, /readyz.

import type { HttpRequest, HttpResponse } from '../interfaces.js';
import { sleep, type Ctx } from '../core/ctx.js';
import { flag, response, serve } from './common.js';

type Review = { kind?: string; apiVersion?: string; request?: Record<string, unknown> & { uid?: string; operation?: string; name?: string; object?: unknown; oldObject?: unknown; resource?: { group?: string; version?: string; resource?: string } } };
type Answer = { allowed: boolean; status?: Record<string, unknown>; patch?: string; patchType?: string } | null;
type Admit = (r: NonNullable<Review['request']>, ctx: Ctx) => Answer | Promise<Answer>;

const b64 = (patch: unknown) => Buffer.from(JSON.stringify(patch)).toString('base64');
const jsonPatch = (patch: unknown): Answer => ({ allowed: true, patch: b64(patch), patchType: 'JSONPatch' });
/** toV1AdmissionResponse(err): a refusal whose message is the error. */
const errorAnswer = (msg: string): Answer => ({ allowed: false, status: { metadata: {}, message: msg } });

const isCore = (r: NonNullable<Review['request']>, resource: string) => r.resource?.group === '' && r.resource?.version === 'v1' && r.resource?.resource === resource;
const labelsOf = (o: unknown) => ((o as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels ?? {});

const HANDLERS: Record<string, Admit> = {
  '/always-deny': () => ({ allowed: false, status: { metadata: {}, message: 'this webhook denies all requests' } }),
  '/always-allow-delay-5s': async (_r, ctx) => {
    await sleep(ctx, 5000);
    return { allowed: true, status: { metadata: {}, message: 'this webhook allows all requests' } };
  },
  // addlabel.go: add {"added-label": "yes"}, or set it to yes.
  '/add-label': (r) => {
    const labels = labelsOf(r.object);
    if (Object.keys(labels).length === 0) return jsonPatch([{ op: 'add', path: '/metadata/labels', value: { 'added-label': 'yes' } }]);
    if (!('added-label' in labels)) return jsonPatch([{ op: 'add', path: '/metadata/labels/added-label', value: 'yes' }]);
    if (labels['added-label'] !== 'yes') return jsonPatch([{ op: 'replace', path: '/metadata/labels/added-label', value: 'yes' }]);
    return { allowed: true };
  },
  // pods.go admitPods: unwanted label values and container names.
  '/pods': (r) => {
    if (!isCore(r, 'pods')) return errorAnswer('expect resource to be { v1 pods}');
    const pod = r.object as { metadata?: { labels?: Record<string, string> }; spec?: { containers?: { name?: string }[] } };
    let msg = '';
    let allowed = true;
    const v = labelsOf(pod)['webhook-e2e-test'];
    if (v === 'webhook-disallow') { allowed = false; msg += 'the pod contains unwanted label; '; }
    for (const c of pod.spec?.containers ?? []) if (c.name?.includes('webhook-disallow')) { allowed = false; msg += 'the pod contains unwanted container name; '; }
    return allowed ? { allowed } : { allowed, status: { metadata: {}, message: msg.trim() } };
  },
  // pods.go mutatePods: the pod named webhook-to-be-mutated gets an init container.
  '/mutating-pods': (r) => {
    if (!isCore(r, 'pods')) return null;
    const pod = r.object as { metadata?: { name?: string }; spec?: { initContainers?: { name?: string }[] } };
    if (pod.metadata?.name !== 'webhook-to-be-mutated' || (pod.spec?.initContainers ?? []).some((c) => c.name === 'webhook-added-init-container')) return { allowed: true };
    return jsonPatch([{ op: 'add', path: '/spec/initContainers', value: [{ image: 'webhook-added-image', name: 'webhook-added-init-container', resources: {} }] }]);
  },
  // configmap.go admitConfigMaps: the refusal text is in the Status reason.
  '/configmaps': (r) => {
    if (!isCore(r, 'configmaps')) return null;
    const cm = (r.operation === 'DELETE' ? r.oldObject : r.object) as { data?: Record<string, string> };
    for (const [k, v] of Object.entries(cm?.data ?? {})) {
      if (k === 'webhook-e2e-test' && v === 'webhook-disallow' && (r.operation === 'CREATE' || r.operation === 'UPDATE')) {
        return { allowed: false, status: { metadata: {}, reason: 'the configmap contains unwanted key and value' } };
      }
      if (k === 'webhook-e2e-test' && v === 'webhook-nondeletable' && r.operation === 'DELETE') {
        return { allowed: false, status: { metadata: {}, reason: 'the configmap cannot be deleted because it contains unwanted key and value' } };
      }
    }
    return { allowed: true };
  },
  '/mutating-configmaps': (r) => {
    if (!isCore(r, 'configmaps')) return null;
    const data = (r.object as { data?: Record<string, string> } | undefined)?.data ?? {};
    let patch: unknown;
    if (data['mutation-start'] === 'yes') patch = [{ op: 'add', path: '/data/mutation-stage-1', value: 'yes' }];
    if (data['mutation-stage-1'] === 'yes') patch = [{ op: 'add', path: '/data/mutation-stage-2', value: 'yes' }];
    return patch ? jsonPatch(patch) : { allowed: true };
  },
};

/** main.go serve(): JSON only, an AdmissionReview of either version in, the same version out with the request uid. */
async function serveReview(req: HttpRequest, admit: Admit, ctx: Ctx): Promise<HttpResponse> {
  // A wrong content type is logged and answered with an empty 200, as upstream's early return does.
  if (req.headers['content-type'] !== 'application/json') {
    ctx.stderr.write(`contentType=${req.headers['content-type'] ?? ''}, expect application/json\n`);
    return response(200, '');
  }
  let review: Review;
  try {
    review = JSON.parse(req.body.toString()) as Review;
  } catch (err) {
    return response(400, `Request could not be decoded: ${(err as Error).message}\n`, { 'Content-Type': 'text/plain; charset=utf-8' });
  }
  const gv = review.apiVersion;
  if (review.kind !== 'AdmissionReview' || (gv !== 'admission.k8s.io/v1' && gv !== 'admission.k8s.io/v1beta1')) {
    return response(400, `Unsupported group version kind: ${gv ?? ''}, Kind=${review.kind ?? ''}\n`, { 'Content-Type': 'text/plain; charset=utf-8' });
  }
  const answer = await admit(review.request ?? {}, ctx);
  // A handler that returns nil leaves only the uid (upstream sets Response.UID on whatever it got).
  const body = { kind: 'AdmissionReview', apiVersion: gv, response: { uid: review.request?.uid ?? '', allowed: false, ...(answer ?? {}) } };
  return response(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
}

export async function agnhostWebhook(args: string[], ctx: Ctx): Promise<number> {
  const certFile = flag(args, 'tls-cert-file', '');
  const keyFile = flag(args, 'tls-private-key-file', '');
  const port = Number(flag(args, 'port', '443'));
  let tls: { cert: string; key: string };
  try {
    tls = { cert: ctx.env.fs.readFile(certFile).toString(), key: ctx.env.fs.readFile(keyFile).toString() };
  } catch {
    // tls.LoadX509KeyPair failing is klog.Fatal: the message, then exit 255.
    ctx.stderr.write(`F0000 00:00:00.000000       1 config.go:33] open ${certFile}: no such file or directory\n`);
    return 255;
  }
  const handler = async (req: HttpRequest): Promise<HttpResponse> => {
    const path = req.path.split('?')[0];
    if (path === '/readyz') return response(200, 'ok');
    const admit = HANDLERS[path];
    if (!admit) return response(404, '404 page not found\n', { 'Content-Type': 'text/plain; charset=utf-8' });
    return serveReview(req, admit, ctx);
  };
  return serve(ctx, 'agnhost', [{ port, handler, tls }], () => 1);
}
