// `agnhost crd-conversion-webhook`: the CRD conversion webhook of the Kubernetes e2e tests
// (kubernetes/test/images/agnhost/crd-conversion-webhook: main.go, config.go, converter/framework.go serve and
// doConversionV1/V1beta1, converter/example_converter.go convertExampleCRD). It serves /crdconvert over HTTPS and
// converts stable.example.com objects between v1 (a top-level `hostPort: "host:port"`) and v2 (`host` and `port`).

import type { HttpRequest, HttpResponse } from '../interfaces.js';
import type { Ctx } from '../core/ctx.js';
import { inClusterHost } from './gmsa-kube-client.js';
import { flag, response, serve } from './common.js';

type Obj = Record<string, unknown>;
type Status = { metadata: Record<string, never>; status: 'Success' | 'Failure'; message?: string };

const succeeded = (): Status => ({ metadata: {}, status: 'Success' });
const failure = (message: string): Status => ({ metadata: {}, status: 'Failure', message });
const TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/** Go's %q of a string (enough for version names). */
const goQuote = (s: string) => JSON.stringify(s);

/**
 * convertExampleCRD. A `hostPort` that is not a string fails Go's type assertion: the handler panics and net/http
 * drops the connection, which a throw does here.
 */
export function convertExample(obj: Obj, toVersion: string): { obj?: Obj; status: Status } {
  const out = structuredClone(obj);
  const from = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  if (toVersion === from) return { status: failure(`conversion from a version to itself should not call the webhook: ${toVersion}`) };
  if (from === 'stable.example.com/v1') {
    if (toVersion !== 'stable.example.com/v2') return { status: failure(`unexpected conversion version ${goQuote(toVersion)}`) };
    if ('hostPort' in out) {
      const hostPort = out.hostPort;
      delete out.hostPort;
      if (typeof hostPort !== 'string') throw new Error(`interface conversion: interface {} is ${goTypeOf(hostPort)}, not string`);
      const parts = hostPort.split(':');
      if (parts.length !== 2) return { status: failure(`invalid hostPort value \`${hostPort}\``) };
      out.host = parts[0];
      out.port = parts[1];
    }
  } else if (from === 'stable.example.com/v2') {
    if (toVersion !== 'stable.example.com/v1') return { status: failure(`unexpected conversion version ${goQuote(toVersion)}`) };
    const hasHost = 'host' in out;
    const hasPort = 'port' in out;
    if (hasHost || hasPort) {
      out.hostPort = `${goSprint(hasHost ? out.host : '')}:${goSprint(hasPort ? out.port : '')}`;
      delete out.host;
      delete out.port;
    }
  } else {
    return { status: failure(`unexpected conversion version ${goQuote(from)}`) };
  }
  return { obj: out, status: succeeded() };
}

function goTypeOf(v: unknown): string {
  if (v === null) return 'nil';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v;
}

/** fmt's %s of a decoded JSON value: strings as they are, other types in Go's %!s(...) form. */
function goSprint(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return `%!s(${goTypeOf(v)}=${v})`;
  if (typeof v === 'boolean') return `%!s(bool=${v})`;
  if (v === null) return '%!s(<nil>)';
  return `%!s(${goTypeOf(v)}=${JSON.stringify(v)})`;
}

/** doConversionV1 / doConversionV1beta1: every object converted, or the first failure alone. */
function doConversion(request: Obj): Obj {
  const desired = typeof request.desiredAPIVersion === 'string' ? request.desiredAPIVersion : '';
  const converted: Obj[] = [];
  for (const raw of Array.isArray(request.objects) ? request.objects : []) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || typeof (raw as Obj).kind !== 'string') {
      return { convertedObjects: null, result: failure(`failed to unmarshall object (${JSON.stringify(raw)}) with error: Object 'Kind' is missing in '${JSON.stringify(raw)}'`) };
    }
    const r = convertExample(raw as Obj, desired);
    if (r.status.status !== 'Success') return { convertedObjects: null, result: r.status };
    converted.push({ ...r.obj!, apiVersion: desired });
  }
  return { convertedObjects: converted.length ? converted : null, result: succeeded() };
}

/** framework.go serve: JSON or YAML in by Content-Type, a ConversionReview of either version, the same one out. */
export async function serveConversion(req: HttpRequest, log: (line: string) => void): Promise<HttpResponse> {
  const contentType = Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  // getInputSerializer splits on the first "/": parameters make the subtype unknown.
  const [type, subtype] = contentType.split(/\/(.*)/s);
  if (type !== 'application' || (subtype !== 'json' && subtype !== 'yaml')) {
    const msg = `invalid Content-Type header \`${contentType}\``;
    log(msg);
    return response(400, `${msg}\n`, TEXT);
  }
  const text = req.body.toString();
  let review: Obj;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`couldn't get version/kind; json parse error: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
    review = parsed as Obj;
    if (typeof review.kind !== 'string' || !review.kind) throw new Error(`Object 'Kind' is missing in '${text}'`);
  } catch (err) {
    const msg = `failed to deserialize body (${text}) with error ${(err as Error).message}`;
    log(msg);
    return response(400, `${msg}\n`, TEXT);
  }
  const gv = review.apiVersion;
  if (review.kind !== 'ConversionReview' || (gv !== 'apiextensions.k8s.io/v1' && gv !== 'apiextensions.k8s.io/v1beta1')) {
    // The scheme knows only the two ConversionReviews: anything else fails to decode.
    const msg = `failed to deserialize body (${text}) with error no kind "${String(review.kind)}" is registered for version "${String(gv ?? '')}" in scheme "pkg/runtime/scheme.go:100"`;
    log(msg);
    return response(400, `${msg}\n`, TEXT);
  }
  const request = (typeof review.request === 'object' && review.request !== null ? review.request : {}) as Obj;
  const converted = doConversion(request);
  const result = converted.result as Status;
  if (result.status !== 'Success') log(`&Status{ListMeta:ListMeta{SelfLink:,ResourceVersion:,Continue:,RemainingItemCount:nil,},Status:Failure,Message:${result.message},Reason:,Details:nil,Code:0,}`);
  const answer = { uid: typeof request.uid === 'string' ? request.uid : '', ...converted };
  // The request is reset before the review goes back.
  const body = { kind: 'ConversionReview', apiVersion: gv, request: { uid: '', desiredAPIVersion: '', objects: null }, response: answer };
  return response(200, `${JSON.stringify(body)}\n`, { 'Content-Type': 'application/json' });
}

/** main.go: the in-cluster client first, then the key pair, then HTTPS on --port (443) until stopped. */
export async function agnhostCrdConversionWebhook(args: string[], ctx: Ctx): Promise<number> {
  const fatal = (file: string, msg: string) => {
    ctx.stderr.write(`F0000 00:00:00.000000       1 ${file}] ${msg}\n`);
    return 255;
  };
  const host = inClusterHost(ctx.vars);
  if (typeof host !== 'string') return fatal('config.go:32', host.error);
  const certFile = flag(args, 'tls-cert-file', '');
  const keyFile = flag(args, 'tls-private-key-file', '');
  const port = Number(flag(args, 'port', '443'));
  let tls: { cert: string; key: string };
  const read = (p: string) => ctx.env.fs.readFile(ctx.env.fs.resolve(ctx.cwd, p)).toString();
  try {
    tls = { cert: read(certFile), key: read(keyFile) };
  } catch {
    return fatal('config.go:44', `open ${certFile}: no such file or directory`);
  }
  const log = (line: string) => ctx.stderr.write(`E0000 00:00:00.000000       1 framework.go] ${line}\n`);
  const handler = async (req: HttpRequest): Promise<HttpResponse> => {
    if (req.path.split('?')[0] !== '/crdconvert') return response(404, '404 page not found\n', TEXT);
    return serveConversion(req, log);
  };
  // ListenAndServeTLS's error is panicked with: the message, a trace, exit status 2.
  return serve(ctx, 'agnhost', [{ port, handler, tls }], () => {
    ctx.stderr.write(`panic: listen tcp :${port}: bind: address already in use\n\ngoroutine 1 [running]:\n`);
    return 2;
  });
}
