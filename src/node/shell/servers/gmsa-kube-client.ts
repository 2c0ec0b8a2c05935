// The GMSA webhook's API client (windows-gmsa admission-webhook/kube_client.go over client-go's rest.InClusterConfig):
// the `kubernetes` Service from KUBERNETES_SERVICE_HOST/PORT, the pod's projected ServiceAccount token read on each
// call (the kubelet rotates it), requests carried by the container's network view like any in-pod client.

import { fetchUrl } from '../net/http-client.js';
import type { Ctx } from '../core/ctx.js';
import type { CredSpecClient } from './gmsa-admission.js';
import { goMarshal } from './go-json.js';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const GROUP = 'windows.k8s.io';
const VERSION = 'v1';
const RESOURCE = 'gmsacredentialspecs';
const USER_AGENT = 'admission-webhook/v0.0.0 (linux/amd64) kubernetes/$Format';

/** rest.InClusterConfig: where the API server is, or the error the program panics with. */
export function inClusterHost(vars: Record<string, string>): string | { error: string } {
  const host = vars.KUBERNETES_SERVICE_HOST;
  const port = vars.KUBERNETES_SERVICE_PORT;
  if (!host || !port) return { error: 'unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined' };
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const DIAL_ERRORS: Record<string, string> = { refused: 'connect: connection refused', unreachable: 'connect: no route to host', timeout: 'i/o timeout' };

/** One API call: the decoded body, or the error text client-go gives (a Status's message, or Go's transport error). */
async function call(ctx: Ctx, base: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ ok: true; obj: Record<string, unknown> } | { ok: false; error: string }> {
  let token: string;
  try {
    token = ctx.env.fs.readFile(`${SA_DIR}/token`).toString().trim();
  } catch {
    return { ok: false, error: `open ${SA_DIR}/token: no such file or directory` };
  }
  const url = `${base}${path}`;
  const headers: Record<string, string> = { Accept: 'application/json, */*', 'User-Agent': USER_AGENT, Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetchUrl(ctx, { method, url, headers, body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)), timeoutMs: 30_000 });
  const verb = method === 'GET' ? 'Get' : 'Post';
  if (!r.ok) {
    // Go names the address it dialled, port included (URL drops a default one).
    const ip = r.ip ?? r.host;
    const addr = `${ip.includes(':') ? `[${ip}]` : ip}:${r.port ?? 443}`;
    return { ok: false, error: `${verb} "${url}": dial tcp ${addr}: ${DIAL_ERRORS[r.error] ?? 'connect: connection refused'}` };
  }
  let obj: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(r.body.toString());
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) obj = parsed as Record<string, unknown>;
  } catch {
    obj = undefined;
  }
  if (r.status >= 200 && r.status < 300 && obj) return { ok: true, obj };
  // A Status body's message is the error; otherwise client-go words the bare code.
  if (obj?.kind === 'Status' && typeof obj.message === 'string') return { ok: false, error: obj.message };
  return { ok: false, error: `the server responded with the status code ${r.status} but did not return more information` };
}

export function inClusterCredSpecClient(ctx: Ctx, base: string): CredSpecClient {
  return {
    async isAuthorizedToUse(serviceAccount, namespace, credSpec) {
      // serviceaccount.UserInfo(namespace, name, ""): the user and groups the pod's token would carry.
      const review = {
        kind: 'LocalSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { namespace },
        spec: {
          resourceAttributes: { namespace, verb: 'use', group: GROUP, version: VERSION, resource: RESOURCE, name: credSpec },
          user: `system:serviceaccount:${namespace}:${serviceAccount}`,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
        },
        status: { allowed: false },
      };
      const r = await call(ctx, base, 'POST', `/apis/authorization.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/localsubjectaccessreviews`, review);
      if (!r.ok) return { allowed: false, reason: `error when checking authz access: ${r.error}` };
      const status = (r.obj.status ?? {}) as { allowed?: boolean; denied?: boolean; reason?: string };
      return { allowed: status.allowed === true && status.denied !== true, reason: status.reason ?? '' };
    },

    async contents(credSpec) {
      const r = await call(ctx, base, 'GET', `/apis/${GROUP}/${VERSION}/${RESOURCE}/${encodeURIComponent(credSpec)}`);
      if (!r.ok) {
        // isNotFoundError: the error text ends in "not found".
        if (r.error.endsWith('not found')) return { ok: false, code: 404, message: `cred spec ${credSpec} does not exist` };
        return { ok: false, code: 500, message: `unable to retrieve the contents of cred spec ${credSpec}: ${r.error}` };
      }
      const value = r.obj.credspec;
      if (!('credspec' in r.obj) || value === '') return { ok: false, code: 417, message: `cred spec ${credSpec} does not have a credspec key` };
      return { ok: true, contents: goMarshal(value) };
    },
  };
}
