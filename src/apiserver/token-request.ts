// serviceaccounts/token: the TokenRequest subresource (pkg/registry/core/serviceaccount/storage/token.go), which mints
// a bound ServiceAccount JWT; spec validated as pkg/apis/authentication/validation ValidateTokenRequest does.

import { fieldErr, StatusError, type FieldError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { rfc3339 } from '../util/clock.js';
import { cloneJson } from '../util/json.js';
import type { AdmissionAttributes } from './admission/interfaces.js';
import { addWarnings } from './admission/warnings.js';
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

/**
 * The TokenRequest as the create handler hands it to admission: decoded with spec.expirationSeconds defaulted to an
 * hour (SetDefaults_TokenRequestSpec), system metadata wiped (rest.WipeObjectMetaSystemFields) and the request's
 * namespace filled in (EnsureObjectNamespaceMatchesRequestNamespace).
 */
function admissionObject(body: TokenRequestBody, namespace: string): KubeObject {
  const { creationTimestamp: _c, uid: _u, deletionTimestamp: _d, deletionGracePeriodSeconds: _g, selfLink: _s, ...meta } = (cloneJson(body.metadata ?? {}) as Record<string, unknown>);
  const spec = cloneJson(body.spec ?? {});
  const status = (body as { status?: { token?: unknown; expirationTimestamp?: unknown } }).status;
  return {
    kind: TOKEN_REQUEST.kind, apiVersion: TOKEN_REQUEST.apiVersion,
    metadata: { ...meta, namespace: (meta.namespace as string | undefined) || namespace },
    spec: wireSpec(spec.audiences, spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS, spec.boundObjectRef),
    status: { token: typeof status?.token === 'string' ? status.token : '', expirationTimestamp: status?.expirationTimestamp ?? null },
  } as KubeObject;
}

/**
 * TokenRequestSpec and TokenRequestStatus as authentication/v1 serialises them: none of their fields is omitempty,
 * so an absent audience list or bound object is `null` and an empty status is `{"token":"","expirationTimestamp":null}`.
 */
function wireSpec(audiences: unknown, expirationSeconds: unknown, boundObjectRef: unknown): Record<string, unknown> {
  return { audiences: audiences ?? null, expirationSeconds, boundObjectRef: boundObjectRef ?? null };
}

const EMPTY_STATUS = (): Record<string, unknown> => ({ token: '', expirationTimestamp: null });

/**
 * A TokenRequest patched by a mutating webhook is decoded into authentication/v1 and defaulted again
 * (mutating/dispatcher.go; pkg/apis/authentication/v1/defaults.go SetDefaults_TokenRequestSpec): a removed or null
 * spec.expirationSeconds comes back as an hour, and the spec and status keep their always-serialised fields.
 */
export function defaultTokenRequest(obj: KubeObject): void {
  const o = obj as unknown as { spec?: Record<string, unknown> | null; status?: Record<string, unknown> | null };
  const spec = o.spec && typeof o.spec === 'object' ? o.spec : {};
  o.spec = wireSpec(spec.audiences, spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS, spec.boundObjectRef);
  const status = o.status && typeof o.status === 'object' ? o.status : {};
  o.status = { token: status.token ?? '', expirationTimestamp: status.expirationTimestamp ?? null };
}

const refOf = (o: KubeObject): ObjectRef => ({ name: o.metadata.name ?? '', uid: o.metadata.uid ?? '' });

export async function createTokenRequest(h: ResourceHandler, ctx: RequestContext, namespace: string): Promise<ServerResponse> {
  const issuer = h.cfg.serviceAccountTokens;
  if (!issuer) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  const body = checkTypes(ctx, decodeObjectBody(decodeBody(ctx.req.body, ctx.req.contentType), 'TokenRequest'), 'decode', TOKEN_REQUEST) as TokenRequestBody;
  const name = ctx.info.name;
  // The create handler's mutating admission, then the registry's static validation and validating admission
  // (token.go: createValidation after ValidateTokenRequest, before the bound object is looked up). Webhooks and
  // policies see a TokenRequest of authentication.k8s.io/v1 on serviceaccounts/token.
  const attrs: AdmissionAttributes = {
    operation: 'CREATE', decl: ctx.decl, namespace, name, subresource: 'token', object: admissionObject(body, namespace),
    kind: { group: GROUP, version: 'v1', kind: TOKEN_REQUEST.kind }, kindDefaults: defaultTokenRequest, user: ctx.user, dryRun: ctx.dryRun, warnings: [],
  };
  try {
    await h.cfg.admission?.admit(attrs, h.server.lookup);
  } finally {
    addWarnings(ctx.headers, attrs.warnings);
    attrs.warnings = [];
  }
  const req = attrs.object as unknown as TokenRequestBody;
  if (req.metadata?.name && req.metadata.name !== name) {
    throw StatusError.invalid(GROUP, 'TokenRequest', name, [fieldErr.invalid('metadata.name', req.metadata.name, 'must match the service account name if specified')]);
  }
  if (req.metadata?.namespace && req.metadata.namespace !== namespace) {
    throw StatusError.invalid(GROUP, 'TokenRequest', name, [fieldErr.invalid('metadata.namespace', req.metadata.namespace, 'must match the service account namespace if specified')]);
  }
  const sa = await ctx.rs.get(namespace, name);
  const audiences = req.spec?.audiences?.length ? req.spec.audiences : issuer.apiAudiences;
  let expirationSeconds = req.spec?.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  const now = h.cfg.clock.now();
  const errs = validateTokenRequestSpec(expirationSeconds);
  // NewInvalid with an empty name: kubectl prints `TokenRequest.authentication.k8s.io "" is invalid: …`.
  if (errs.length) throw StatusError.invalid(GROUP, 'TokenRequest', '', errs);
  // Validating admission sees the request as the registry completed it: audiences defaulted, name and namespace
  // filled in, the creation time set and the status cleared.
  const completed = cloneJson(req) as unknown as KubeObject & { spec?: Record<string, unknown> };
  completed.metadata = { ...completed.metadata, name: completed.metadata?.name || name, namespace: completed.metadata?.namespace || namespace, creationTimestamp: rfc3339(now) };
  completed.spec = wireSpec(audiences, expirationSeconds, completed.spec?.boundObjectRef);
  // token.go clears the status before validation.
  (completed as Record<string, unknown>).status = EMPTY_STATUS();
  try {
    await h.cfg.admission?.validate({ ...attrs, object: completed }, h.server.lookup);
  } finally {
    addWarnings(ctx.headers, attrs.warnings);
  }

  let pod: KubeObject | undefined;
  let secret: KubeObject | undefined;
  let node: ObjectRef | undefined;
  const ref = req.spec?.boundObjectRef;
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
  const spec = wireSpec(audiences, expirationSeconds, ref);
  return json(201, {
    kind: 'TokenRequest', apiVersion: `${GROUP}/v1`,
    metadata: { name, namespace, uid: sa.metadata.uid, creationTimestamp: rfc3339(now) },
    spec,
    // The status names the requested lifetime, not the extended one (token.go).
    status: { token, expirationTimestamp: rfc3339(now + expirationSeconds * 1000) },
  }, Object.keys(headers).length ? headers : undefined);
}
