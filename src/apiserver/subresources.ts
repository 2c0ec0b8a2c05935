// Subresource requests: status, scale (autoscaling/v1 Scale), pods/binding, namespaces/finalize and node proxy.

import { fieldErr, StatusError } from '../api/errors.js';
import type { ScaleDecl } from '../api/interfaces.js';
import type { KubeObject } from '../api/types.js';
import { cloneJson } from '../util/json.js';
import type { ServerResponse } from './interfaces.js';
import { evict } from './eviction.js';
import { decodeBody, decodeObjectBody, patchTypeOf } from './negotiate.js';
import { refusePatchType, type RequestContext, type ResourceHandler } from './resource-handler.js';
import { rfc3339Seconds } from '../util/clock.js';
import { json } from './server.js';
import { checkKind, checkTypes, decodeObject } from './request-body.js';
import { trackManagedFields } from './write-hooks.js';
import type { AdmissionAttributes } from './admission/interfaces.js';
import { addWarnings } from './admission/warnings.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { logTarget, nodeProxyTarget, portForwardTarget, streamTarget } from './kubelet-locations.js';
import { createTokenRequest } from './token-request.js';
import { ClusterEgress } from './egress/egress.js';
import { proxyCall, proxySubresource } from './egress/proxy-subresource.js';

export async function handleSubresource(h: ResourceHandler, ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse> {
  const { info, decl } = ctx;
  const sub = info.subresource;
  const verb = info.verb;
  if (sub === 'status' && decl.subresources?.status) {
    if (verb === 'get') return h.render(ctx, await ctx.rs.get(namespace, info.name));
    if (verb === 'update') return h.updateStatus(ctx, namespace, info.name);
    if (verb === 'patch') return h.patch(ctx, namespace, info.name, 'status');
  }
  // certificatesigningrequests/approval: only status.conditions change (certificates registry ApprovalREST).
  if (sub === 'approval' && decl.subresources?.extra?.includes('approval')) {
    if (verb === 'get') return h.render(ctx, await ctx.rs.get(namespace, info.name));
    if (verb === 'update') return h.updateSubresource(ctx, namespace, info.name, 'approval');
    if (verb === 'patch') return h.patch(ctx, namespace, info.name, 'approval');
  }
  if (sub === 'scale' && decl.subresources?.scale) return scale(h, ctx, namespace, decl.subresources.scale);
  if (sub === 'binding' && decl.subresources?.extra?.includes('binding') && verb === 'create') return bind(h, ctx, namespace!);
  if (sub === 'eviction' && decl.subresources?.extra?.includes('eviction') && verb === 'create') return evict(h, ctx, namespace!);
  if (sub === 'finalize' && decl.subresources?.extra?.includes('finalize') && verb === 'update') return finalize(h, ctx);
  if (sub === 'token' && decl.kind === 'ServiceAccount' && decl.subresources?.extra?.includes('token') && verb === 'create') return createTokenRequest(h, ctx, namespace!);
  if (sub === 'proxy' && decl.subresources?.extra?.includes('proxy') && decl.kind === 'Node') {
    return { kubelet: nodeProxyTarget(await ctx.rs.get(undefined, info.name), info.rest, ctx.req.query) };
  }
  if (sub === 'proxy' && decl.subresources?.extra?.includes('proxy') && !decl.group && (decl.kind === 'Service' || decl.kind === 'Pod')) {
    return proxySubresource(new ClusterEgress(() => h.cfg.kubeletClient), h.server.lookup, proxyCall(ctx, decl.plural as 'services' | 'pods', namespace!));
  }
  if (decl.kind === 'Pod' && (sub === 'log' || sub === 'exec' || sub === 'attach' || sub === 'portforward')) {
    const allowed = sub === 'log' ? ['get'] : ['get', 'create'];
    if (!allowed.includes(verb)) throw StatusError.methodNotAllowed(verb, decl.group, `${decl.plural}/${sub}`);
    const pod = await ctx.rs.get(namespace, info.name) as unknown as Pod;
    const nodeName = pod.spec?.nodeName;
    const node = nodeName ? await h.server.storeFor('', 'nodes')!.get(undefined, nodeName) : undefined;
    const q = ctx.req.query;
    if (sub === 'log') {
      const target = logTarget(pod, node, q);
      // A pod no node has taken yet has no log: kube-apiserver streams nothing.
      return target ? { kubelet: target } : { status: 200, body: '', contentType: 'text/plain' };
    }
    return { kubelet: sub === 'portforward' ? portForwardTarget(pod, node, q) : streamTarget(sub, pod, node, q) };
  }
  if (!decl.subresources || ![...(decl.subresources.extra ?? []), decl.subresources.status ? 'status' : '', decl.subresources.scale ? 'scale' : ''].includes(sub)) {
    throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  }
  throw StatusError.methodNotAllowed(verb, decl.group, `${decl.plural}/${sub}`);
}

const SCALE = { definition: 'io.k8s.api.autoscaling.v1.Scale', kind: 'Scale', apiVersion: 'autoscaling/v1' };
const BINDING = { definition: 'io.k8s.api.core.v1.Binding', kind: 'Binding', apiVersion: 'v1' };

function getPath(obj: unknown, path: string[]): unknown {
  let cur = obj;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return cur;
}

function setPath(obj: Record<string, unknown>, path: string[], value: unknown): void {
  let cur = obj;
  for (const p of path.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
  cur[path[path.length - 1]] = value;
}

function toScale(obj: KubeObject, s: ScaleDecl): KubeObject {
  const m = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: (getPath(obj, s.specReplicasPath) as number | undefined) ?? 0 },
    status: { replicas: (getPath(obj, s.statusReplicasPath) as number | undefined) ?? 0, selector: s.selector(obj) },
  };
}

/** The kind a scale subresource's object has in every version winkube serves (ScaleREST.GroupVersionKind). */
export const SCALE_KIND = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/**
 * ValidateScale (pkg/apis/autoscaling/validation): replicas a non-negative integer, as the registry checks it after
 * mutating admission (scaleUpdatedObjectInfo.UpdatedObject).
 */
function validateScale(desired: KubeObject, name: string): number {
  const replicas = (desired.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw StatusError.invalid('autoscaling', 'Scale', name, [fieldErr.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
  }
  return replicas;
}

/**
 * The scale subresource (deployments, replicasets, statefulsets, replicationcontrollers, custom resources): the
 * request's Scale is worked out against the current object's Scale, mutating admission runs on that autoscaling/v1
 * Scale (old Scale beside it), its replicas go into the parent, and validating admission sees the Scales of the new
 * and the old parent (pkg/registry/apps/deployment/storage/storage.go ScaleREST.Update, scaleUpdatedObjectInfo,
 * toScaleUpdateValidation; apiextensions-apiserver's customresource ScaleREST alike).
 */
async function scale(h: ResourceHandler, ctx: RequestContext, namespace: string | undefined, s: ScaleDecl): Promise<ServerResponse> {
  const { info, rs, decl } = ctx;
  if (info.verb === 'get') return json(200, toScale(await rs.get(namespace, info.name), s));
  if (info.verb !== 'update' && info.verb !== 'patch') throw StatusError.methodNotAllowed(info.verb, decl.group, `${decl.plural}/scale`);
  const admission = (object: KubeObject, oldObject: KubeObject): AdmissionAttributes => ({
    operation: 'UPDATE', decl, namespace: namespace ?? '', name: info.name, subresource: 'scale', object, oldObject,
    kind: SCALE_KIND, user: ctx.user, dryRun: ctx.dryRun, warnings: [],
  });
  const updated = await rs.update(namespace, info.name, async (current) => {
    let desired: KubeObject;
    const scaleNow = toScale(current, s);
    if (info.verb === 'update') {
      const body = decodeObjectBody(cloneJson(decodeBody(ctx.req.body, ctx.req.contentType)), 'Scale');
      desired = checkTypes(ctx, checkKind(h, ctx, body as KubeObject, 'Scale', 'autoscaling/v1'), 'decode', SCALE);
      const pinned = desired.metadata.resourceVersion || undefined;
      if (pinned && pinned !== current.metadata.resourceVersion) throw StatusError.staleResourceVersion(decl.group, decl.plural, info.name);
    } else {
      const type = patchTypeOf(ctx.req.contentType);
      refusePatchType(ctx, type);
      if (type === 'apply') throw StatusError.unsupportedMediaType('application/apply-patch+yaml');
      const patch = decodeBody(ctx.req.body, ctx.req.contentType, true);
      if (patch === undefined) throw StatusError.badRequest('the body of the request was empty');
      desired = h.cfg.patcher.apply(type, cloneJson(scaleNow), patch, decl);
      if (typeof desired !== 'object' || desired === null || Array.isArray(desired)) {
        throw StatusError.badRequest('the patch produced an object that is not a JSON object');
      }
      checkTypes(ctx, desired, 'patch', SCALE, type === 'strategic' ? JSON.stringify(patch) : undefined);
    }
    // The update handler's admit transformer: the Scale as decoded, the namespace and name the request's.
    desired = { ...desired, kind: SCALE.kind, apiVersion: SCALE.apiVersion, metadata: { ...desired.metadata, name: info.name, ...(namespace ? { namespace } : {}) } };
    const attrs = admission(desired, scaleNow);
    try {
      await h.cfg.admission?.admit(attrs, h.server.lookup);
    } finally {
      addWarnings(ctx.headers, attrs.warnings);
    }
    desired = attrs.object!;
    const replicas = validateScale(desired, info.name);
    if (desired.metadata?.uid && desired.metadata.uid !== current.metadata.uid) {
      throw StatusError.uidPreconditionFailed(decl.group, `${decl.plural}/scale`, info.name, desired.metadata.uid, current.metadata.uid);
    }
    setPath(current as Record<string, unknown>, s.specReplicasPath, replicas);
    return current;
  }, {
    // The parent's own validation, then validating admission on the Scales of the new and the old parent.
    validate: async (obj, old) => {
      const sctx = { now: h.cfg.clock.now(), subresource: 'scale' };
      const errs = [...(decl.strategy.validate?.(obj, old ?? undefined) ?? []), ...(old ? decl.strategy.validateUpdate?.(obj, old, sctx) ?? [] : [])];
      if (errs.length) throw StatusError.invalid(decl.group, decl.kind, obj.metadata.name ?? '', errs);
      const attrs = admission(toScale(obj, s), toScale(old ?? obj, s));
      try {
        await h.cfg.admission?.validate(attrs, h.server.lookup);
      } finally {
        addWarnings(ctx.headers, attrs.warnings);
      }
      trackManagedFields(h, ctx, obj, old, 'scale');
    },
  }, { dryRun: ctx.dryRun, subresource: 'scale' });
  return json(200, toScale(updated, s));
}

/**
 * pods/binding: set spec.nodeName and PodScheduled=True in one write (pkg/registry/core/pod/storage BindingREST). The
 * legacy `bindings` resource (LegacyBindingREST) comes here too, naming the pod by the body's metadata.name and
 * passing the pods store.
 */
export async function bind(h: ResourceHandler, ctx: RequestContext, namespace: string, legacy?: { pods: RequestContext['rs'] }): Promise<ServerResponse> {
  const body = checkTypes(ctx, decodeObjectBody(decodeBody(ctx.req.body, ctx.req.contentType), 'Binding'), 'decode', BINDING) as BindingBody;
  // The create handler: EnsureObjectNamespaceMatchesRequestNamespace before admission (handlers/create.go).
  if (body.metadata?.namespace && body.metadata.namespace !== namespace) {
    throw StatusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  // Only pods/binding keeps the request's uid as a precondition (SubresourceObjectMetaPreserver); the legacy resource
  // is no subresource, so WipeObjectMetaSystemFields drops it.
  if (legacy && body.metadata?.uid) body.metadata = { ...body.metadata, uid: undefined };
  const pods = legacy?.pods ?? ctx.rs;
  // The legacy `bindings` resource is admitted as itself (resource bindings, no subresource), named by its object.
  const bound = await admitBinding(h, ctx, namespace, legacy ? body.metadata?.name ?? '' : ctx.info.name, body, legacy ? '' : 'binding');
  // LegacyBindingREST passes the (admitted) object's own name, so only pods/binding can disagree with its URL.
  const name = legacy ? bound.metadata?.name ?? '' : ctx.info.name;
  if (name !== (bound.metadata?.name ?? '')) throw StatusError.badRequest('name in URL does not match name in Binding object');
  // ValidatePodBinding (pkg/apis/core/validation): a Node target, named.
  const node = bound.target?.name;
  const errs = [];
  if (bound.target?.kind && bound.target.kind !== 'Node') errs.push(fieldErr.notSupported('target.kind', bound.target.kind, ['Node', '<empty>']));
  if (!node) errs.push(fieldErr.required('target.name', ''));
  if (errs.length || !node) throw StatusError.invalid('', 'Binding', name, errs);
  // BindingREST.Create: validating admission (webhooks, policies) after ValidatePodBinding, on a copy.
  await h.cfg.admission?.validate({ ...bound.attrs, object: cloneJson(bound.attrs.object!) }, h.server.lookup);
  addWarnings(ctx.headers, bound.attrs.warnings);
  // NamespaceKeyFunc refuses a key without a name (a legacy Binding that names no pod), after admission.
  if (!name) throw StatusError.badRequest('Name parameter required.');
  // Copy-on-write: only spec and status.conditions change, so the rest of the pod is shared with the stored one.
  await pods.update(namespace, name, (pod) => {
    const spec = (pod.spec ?? {}) as { nodeName?: string; schedulingGates?: unknown[] };
    if (pod.metadata.deletionTimestamp) throw StatusError.conflict('', 'pods', name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (bound.metadata?.uid && bound.metadata.uid !== pod.metadata.uid) {
      throw StatusError.uidPreconditionFailed('', 'pods', name, bound.metadata.uid, pod.metadata.uid);
    }
    if (spec.nodeName) throw StatusError.conflict('', 'pods', name, `pod ${name} is already assigned to node "${spec.nodeName}"`);
    if (spec.schedulingGates?.length) throw StatusError.conflict('', 'pods', name, `pod ${name} has non-empty .spec.schedulingGates`);
    type Cond = { type: string; status: string; lastTransitionTime?: string; lastProbeTime?: null };
    const status = (pod.status ?? {}) as { conditions?: Cond[] };
    const conditions: Cond[] = [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339Seconds(h.cfg.clock.now()) }];
    for (const c of status.conditions ?? []) if (c.type !== 'PodScheduled') conditions.push(c);
    return { ...pod, spec: { ...spec, nodeName: node }, status: { ...status, conditions } };
  }, {}, { dryRun: ctx.dryRun, subresource: 'binding', skipStrategy: true, copyOnWrite: true });
  return json(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}

type BindingBody = { metadata?: { name?: string; uid?: string; namespace?: string }; target?: { name?: string; kind?: string } };

/**
 * The create handler's mutating admission of a Binding: CREATE on pods/binding with the core/v1 Binding as object and
 * kind (BindingREST has no kind of its own, so the subresource's is its New() object's). A mutating webhook may change
 * the Binding; the rest of the bind uses what it returns.
 */
async function admitBinding(h: ResourceHandler, ctx: RequestContext, namespace: string, name: string, body: BindingBody, subresource: string): Promise<BindingBody & { attrs: AdmissionAttributes }> {
  const object = { ...cloneJson(body), apiVersion: BINDING.apiVersion, kind: BINDING.kind, metadata: { ...cloneJson(body.metadata ?? {}), namespace } } as unknown as KubeObject;
  const attrs: AdmissionAttributes = {
    operation: 'CREATE', decl: ctx.decl, namespace, name, subresource, object,
    kind: { group: '', version: 'v1', kind: BINDING.kind }, user: ctx.user, dryRun: ctx.dryRun, warnings: [],
  };
  try {
    await h.cfg.admission?.admit(attrs, h.server.lookup);
  } finally {
    addWarnings(ctx.headers, attrs.warnings);
    attrs.warnings = [];
  }
  return { ...(attrs.object as unknown as BindingBody), attrs };
}

/** namespaces/finalize: only spec.finalizers changes (pkg/registry/core/namespace/storage FinalizeREST). */
async function finalize(h: ResourceHandler, ctx: RequestContext): Promise<ServerResponse> {
  const body = decodeObject(h, ctx);
  const finalizers = (body.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
  const updated = await ctx.rs.update(undefined, ctx.info.name, (ns) => {
    (ns.spec ??= {}) as Record<string, unknown>;
    (ns.spec as { finalizers?: string[] }).finalizers = finalizers;
    return ns;
  }, {}, { dryRun: ctx.dryRun, subresource: 'finalize', skipStrategy: true, pinnedRV: body.metadata.resourceVersion || undefined });
  return json(200, updated);
}
