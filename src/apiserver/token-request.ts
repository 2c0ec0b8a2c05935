// serviceaccounts/token: the TokenRequest subresource (pkg/registry/core/serviceaccount/storage/token.go), which mints
// a bound ServiceAccount JWT; spec validated as pkg/apis/authentication/validation ValidateTokenRequest does.

import { fieldErr, StatusError, type FieldError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { rfc3339 } from '../util/clock.js';
import type { ServerResponse } from './interfaces.js';
import { decodeBody, decodeObjectBody } from './negotiate.js';
import { checkTypes } from './request-body.js';
import type { RequestContext, ResourceHandler } from './resource-handler.js';
import { json } from './server.js';
import {
  boundClaims, EXPIRATION_EXTENSION_SECONDS, WARN_ONLY_EXPIRATION_SECONDS, type ObjectRef, type TokenSigner,
} from './authn/service-account-token.js';

export const GROUP = 'authentication.k8s.io';
const TOKEN_REQUEST = { definition: 'io.k8s.api.authentication.v1.TokenRequest', kind: 'TokenRequest', apiVersion: `${GROUP}/v1` };
/** ValidateTokenRequest: at least 10 minutes, at most 2^32 seconds. */
export const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** SetDefaults_TokenRequestSpec: an hour. */
export const DEFAULT_EXPIRATION_SECONDS = 60 * 60;

/** How this API server mints tokens (kube-apiserver's --service-account-* and --api-audiences flags). */
export interface TokenIssuerConfig {
  signer: TokenSigner;
  apiAudiences: string[];
  /** --service-account-max-token-expiration in seconds; none when absent (kubeadm sets none). */
  maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true): kubelet tokens of 3607 s live a year, warning after. */
  extendExpiration?: boolean;
  /** The ServiceAccountTokenNodeBinding gate (beta, on by default since 1.31). */
  nodeBinding?: boolean;
}

interface TokenRequestBody {
  metadata?: { name?: string; namespace?: string };
  spec?: { audiences?: string[] | null; expirationSeconds?: number | null; boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null };
}

export function validateTokenRequestSpec(expirationSeconds: number): FieldError[] {
  const errs: FieldError[] = [];
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) errs.push(fieldErr.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (expirationSeconds > MAX_EXPIRATION_SECONDS) errs.push(fieldErr.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

const refOf = (o: KubeObject): ObjectRef => ({ name: o.metadata.name ?? '', uid: o.metadata.uid ?? '' });

export async function createTokenRequest(h: ResourceHandler, ctx: RequestContext, namespace: string): Promise<ServerResponse> {
  const issuer = h.cfg.serviceAccountTokens;
  if (!issuer) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  const body = checkTypes(ctx, decodeObjectBody(decodeBody(ctx.req.body, ctx.req.contentType), 'TokenRequest'), 'decode', TOKEN_REQUEST) as TokenRequestBody;
  const name = ctx.info.name;
  if (body.metadata?.name && body.metadata.name !== name) {
    throw StatusError.invalid(GROUP, 'TokenRequest', name, [fieldErr.invalid('metadata.name', body.metadata.name, 'must match the service account name if specified')]);
  }
  if (body.metadata?.namespace && body.metadata.namespace !== namespace) {
    throw StatusError.invalid(GROUP, 'TokenRequest', name, [fieldErr.invalid('metadata.namespace', body.metadata.namespace, 'must match the service account namespace if specified')]);
  }
  // Mutating admission sees the TokenRequest before the registry does (NodeRestriction limits a kubelet to its pods).
  await h.cfg.admission?.admit({
    operation: 'CREATE', decl: ctx.decl, namespace, name, subresource: 'token', object: body as unknown as KubeObject, user: ctx.user, dryRun: ctx.dryRun,
  }, h.server.lookup);
  const sa = await ctx.rs.get(namespace, name);
  const audiences = body.spec?.audiences?.length ? body.spec.audiences : issuer.apiAudiences;
  let expirationSeconds = body.spec?.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  const now = h.cfg.clock.now();
  const errs = validateTokenRequestSpec(expirationSeconds);
  // NewInvalid with an empty name: kubectl prints `TokenRequest.authentication.k8s.io "" is invalid: …`.
  if (errs.length) throw StatusError.invalid(GROUP, 'TokenRequest', '', errs);

  let pod: KubeObject | undefined;
  let secret: KubeObject | undefined;
  let node: ObjectRef | undefined;
  const ref = body.spec?.boundObjectRef;
  if (ref) {
    const group = (ref.apiVersion ?? '').includes('/') ? ref.apiVersion!.split('/')[0] : '';
    const version = (ref.apiVersion ?? '').split('/').pop() ?? '';
    const get = (resource: string, ns: string | undefined, n: string) => h.server.storeFor('', resource)!.get(ns, n);
    let uid: string | undefined;
    if (group === '' && ref.kind === 'Pod') {
      pod = await get('pods', namespace, ref.name ?? '');
      const podSA = (pod.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName;
      if (podSA !== name) throw StatusError.badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
      uid = pod.metadata.uid;
      // ServiceAccountTokenPodNodeInfo: the pod's node rides along; a missing Node still gives its name.
      const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
      if (nodeName) {
        const n = await get('nodes', undefined, nodeName).catch(() => undefined);
        node = n ? refOf(n) : { name: nodeName, uid: '' };
      }
    } else if (group === '' && ref.kind === 'Node') {
      if (issuer.nodeBinding === false) throw StatusError.badRequest('cannot bind token to a Node object as the "ServiceAccountTokenNodeBinding" feature-gate is disabled');
      const n = await get('nodes', undefined, ref.name ?? '');
      node = refOf(n);
      uid = n.metadata.uid;
    } else if (group === '' && ref.kind === 'Secret') {
      secret = await get('secrets', namespace, ref.name ?? '');
      uid = secret.metadata.uid;
    } else {
      // schema.GroupVersionKind.String(): "group/version, Kind=kind" (the group empty for core).
      throw StatusError.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ''}`);
    }
    if (ref.uid && ref.uid !== uid) {
      throw StatusError.conflict(group, ref.kind ?? '', ref.name ?? '', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
  }

  const headers: Record<string, string> = {};
  if (issuer.maxExpirationSeconds && expirationSeconds > issuer.maxExpirationSeconds) {
    headers.Warning = `299 - "requested expiration of ${expirationSeconds} seconds shortened to ${issuer.maxExpirationSeconds} seconds"`;
    expirationSeconds = issuer.maxExpirationSeconds;
  }
  // The safe rollout of bound tokens: a pod's kubelet-requested API token lives a year and only warns after 3607 s.
  let exp = expirationSeconds;
  let warnAfter: number | undefined;
  if (issuer.extendExpiration !== false && pod && expirationSeconds === WARN_ONLY_EXPIRATION_SECONDS && audiences.every((a) => issuer.apiAudiences.includes(a))) {
    warnAfter = expirationSeconds;
    exp = issuer.maxExpirationSeconds && issuer.maxExpirationSeconds > EXPIRATION_EXTENSION_SECONDS ? issuer.maxExpirationSeconds : EXPIRATION_EXTENSION_SECONDS;
  }
  const token = await issuer.signer.sign(boundClaims(issuer.signer.issuer, {
    namespace, serviceAccount: refOf(sa), pod: pod && refOf(pod), secret: secret && refOf(secret), node,
    audiences, expirationSeconds: exp, warnAfterSeconds: warnAfter, nowMs: now,
  }));
  const spec: Record<string, unknown> = { audiences, expirationSeconds };
  if (ref) spec.boundObjectRef = ref;
  return json(201, {
    kind: 'TokenRequest', apiVersion: `${GROUP}/v1`,
    metadata: { name, namespace, uid: sa.metadata.uid, creationTimestamp: rfc3339(now) },
    spec,
    // The status names the requested lifetime, not the extended one (token.go).
    status: { token, expirationTimestamp: rfc3339(now + expirationSeconds * 1000) },
  }, Object.keys(headers).length ? headers : undefined);
}
