// The windows-gmsa admission webhook (registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook, ENTRYPOINT
// /admission-webhook/admission-webhook): env TLS_CRT/TLS_KEY/HTTPS_PORT/RANDOM_HOSTNAME as main.go reads them, HTTPS
// routing as webhook.go ServeHTTP does it (/mutate, /validate, /health, /info), decisions in gmsa-admission.ts.

import type { HttpRequest, HttpResponse } from '../interfaces.js';
import type { Ctx } from '../core/ctx.js';
import { admitPod, type AdmissionRequest, type AdmissionResponse, type AdmitOptions, type CredSpecClient, type Operation } from './gmsa-admission.js';
import { inClusterCredSpecClient, inClusterHost } from './gmsa-kube-client.js';
import { goJsonSyntaxError, goMarshal } from './go-json.js';
import { response, serve } from './common.js';

/** The released image's build version (-X main.version=$(TAG), TAG from `git describe --tags`). */
export const GMSA_WEBHOOK_VERSION = 'v0.13.0';
const LEVELS = ['panic', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/** A Go panic on the main goroutine: the message, a trace, exit status 2. */
function panic(ctx: Ctx, msg: string): number {
  ctx.stderr.write(`panic: ${msg}\n\ngoroutine 1 [running]:\nmain.main()\n\t/go/src/sigs.k8s.io/windows-gmsa/admission-webhook/main.go +0x1a5\n`);
  return 2;
}

/** logrus's text formatter without a terminal. */
function logger(ctx: Ctx, level: string) {
  const rank = LEVELS.indexOf(level);
  return (lvl: 'debug' | 'info' | 'warning', msg: string) => {
    if (LEVELS.indexOf(lvl === 'warning' ? 'warn' : lvl) > rank) return;
    const time = new Date(ctx.env.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    ctx.stdout.write(`time="${time}" level=${lvl} msg=${JSON.stringify(msg)}\n`);
  };
}

type Log = ReturnType<typeof logger>;

function jsonResponse(body: unknown): HttpResponse {
  return response(200, goMarshalOrdered(body), { 'Content-Type': 'application/json' });
}

/** Go marshals structs in field order (not sorted): JSON.stringify keeps ours, with Go's HTML escaping. */
function goMarshalOrdered(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => goMarshal(c).slice(1, -1));
}

async function review(req: HttpRequest, op: Operation, client: CredSpecClient, o: AdmitOptions, log: Log): Promise<AdmissionResponse> {
  const text = req.body.toString();
  const deny = (message: string, code: number): AdmissionResponse => {
    log('info', `refusing to admit with code ${code}: ${message}`);
    return { uid: '', allowed: false, status: { metadata: {}, message, code } };
  };
  // json.Unmarshal into an AdmissionReview struct.
  const syntax = goJsonSyntaxError(text);
  let parsed: unknown;
  if (!syntax) parsed = JSON.parse(text);
  if (syntax || (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed)))) {
    const why = syntax ?? `json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type v1.AdmissionReview`;
    return deny(`unable to unmarshall JSON body as an admission review: ${why}`, 400);
  }
  const request = (parsed as { request?: AdmissionRequest } | null)?.request;
  if (!request) return deny('no \'Request\' field in JSON body', 400);
  const answer = await admitPod(request, op, client, o);
  if (!answer.allowed && answer.status) log('info', `refusing to admit with code ${answer.status.code}: ${answer.status.message}`);
  return { uid: request.uid ?? '', ...answer };
}

/** ServeHTTP: routing, then POST and JSON only; the reply is always an admission.k8s.io/v1 AdmissionReview. */
export function gmsaHandler(client: CredSpecClient, o: AdmitOptions, log: Log): (req: HttpRequest) => Promise<HttpResponse> {
  return async (req) => {
    const path = req.path.split('?')[0];
    const op: Operation | undefined = path === '/validate' ? 'VALIDATE' : path === '/mutate' ? 'MUTATE' : undefined;
    if (path === '/info') return jsonResponse({ version: GMSA_WEBHOOK_VERSION });
    if (path === '/health') return response(204, '');
    if (!op) {
      log('info', `received ${req.method} request for unknown path ${path}`);
      return response(404, '');
    }
    if (req.method.toUpperCase() !== 'POST') {
      log('info', `expected POST HTTP request, got a ${req.method} ${op} request`);
      return response(405, '');
    }
    const contentType = Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    if (contentType !== 'application/json') {
      log('info', `expected JSON content-type header for ${op} request, got ${JSON.stringify(contentType)}`);
      return response(415, '');
    }
    const answer = await review(req, op, client, o, log);
    return jsonResponse({ kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', response: answer });
  };
}

/** main.go: flags, in-cluster client, env, then the HTTPS server until stopped; set-up failures panic. */
export async function gmsaWebhook(argv: string[], ctx: Ctx): Promise<number> {
  const rawLevel = ctx.vars.LOG_LEVEL;
  const level = rawLevel !== undefined && LEVELS.includes(rawLevel.toLowerCase()) ? rawLevel.toLowerCase() : 'debug';
  const log = logger(ctx, level);
  if (rawLevel !== undefined && !LEVELS.includes(rawLevel.toLowerCase())) log('warning', `Unknown log level ${rawLevel}, valid log levels are: ${LEVELS.join(', ')}`);
  let certReload = false;
  for (const a of argv.slice(1)) {
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(a);
    if (m?.[1] === 'version') {
      // main.go prints "v" before a version that already starts with one.
      ctx.stdout.write(`windows-gmsa-webhook v${GMSA_WEBHOOK_VERSION}\n`);
      return 0;
    }
    if (m?.[1] === 'cert-reload' && ['', 'true', '1', 't', 'T', 'TRUE', 'True', undefined].includes(m[2])) certReload = true;
    else if (m?.[1] === 'cert-reload' && ['false', '0', 'f', 'F', 'FALSE', 'False'].includes(m[2] ?? '')) certReload = false;
    else {
      ctx.stderr.write(m?.[1] === 'cert-reload' ? `invalid boolean value "${m[2]}" for -cert-reload: parse error\n` : `flag provided but not defined: -${m?.[1] ?? a}\n`);
      ctx.stderr.write('Usage of /admission-webhook/admission-webhook:\n  -cert-reload\n    \tenable certificate reload\n  -version\n    \tshow version\n');
      return 2;
    }
  }
  const base = inClusterHost(ctx.vars);
  if (typeof base !== 'string') return panic(ctx, base.error);
  log('info', `QPS: ${Number(ctx.vars.QPS ?? 5).toFixed(6)}, Burst: ${Number(ctx.vars.BURST ?? 10)}`);
  const rawRandom = ctx.vars.RANDOM_HOSTNAME;
  let randomHostname = false;
  if (rawRandom !== undefined) {
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(rawRandom)) randomHostname = true;
    else if (!['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(rawRandom)) return panic(ctx, `unable to parse environment variable RANDOM_HOSTNAME with value ${rawRandom} to bool`);
  }
  const crtPath = ctx.vars.TLS_CRT;
  if (crtPath === undefined) return panic(ctx, 'TLS_CRT env var not found');
  const keyPath = ctx.vars.TLS_KEY;
  if (keyPath === undefined) return panic(ctx, 'TLS_KEY env var not found');
  let port = 443;
  if (ctx.vars.HTTPS_PORT !== undefined) {
    if (/^[+-]?\d+$/.test(ctx.vars.HTTPS_PORT)) port = Number(ctx.vars.HTTPS_PORT);
    else log('warning', `unable to parse environment variable HTTPS_PORT with value ${ctx.vars.HTTPS_PORT}; using default value 443`);
  }
  log('info', `starting webhook server at port ${port}`);
  if (certReload) log('info', 'Webhook certificate reload enabled');
  let tls: { cert: string; key: string };
  try {
    const read = (p: string) => ctx.env.fs.readFile(ctx.env.fs.resolve(ctx.cwd, p)).toString();
    const cert = (() => { try { return read(crtPath); } catch { throw new Error(`open ${crtPath}: no such file or directory`); } })();
    const key = (() => { try { return read(keyPath); } catch { throw new Error(`open ${keyPath}: no such file or directory`); } })();
    tls = { cert, key };
  } catch (e) {
    return panic(ctx, (e as Error).message);
  }
  const handler = gmsaHandler(inClusterCredSpecClient(ctx, base), { randomHostname }, log);
  return serve(ctx, 'admission-webhook', [{ port, handler, tls }], (p) => panic(ctx, `listen tcp :${p}: bind: address already in use`));
}
