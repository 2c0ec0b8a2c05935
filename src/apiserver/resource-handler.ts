// Resource requests: get, list, watch, create, update, patch, delete and deletecollection on a registry resource,
// with admission, validation, dry-run, field validation and Table rendering (apiserver pkg/endpoints/handlers).

import { fieldErr, StatusError } from '../api/errors.js';
import { isObject } from './patch/json-value.js';
import { parseFieldSelector } from '../api/field-selectors.js';
import type { ResourceDecl } from '../api/interfaces.js';
import type { KubeList, KubeObject } from '../api/types.js';
import type { UserInfo } from './admission/interfaces.js';
import { forbiddenReason, type AuthorizationAttributes } from './authz/interfaces.js';
import { DEFAULT_VERBS } from './discovery.js';
import type { ServerRequest, ServerResponse } from './interfaces.js';
import { listFilter } from './list-filter.js';
import { chooseRendering, decodeBody, patchTypeOf } from './negotiate.js';
import type { RequestInfo } from './request-info.js';
import type { ResourceStore } from './resource-store.js';
import { errorResponse, first, isTrue, json, type ApiServer, type ApiServerConfig } from './server.js';
import { deleteCollection, deleteOne } from './delete-handler.js';
import { handleSubresource } from './subresources.js';
import { watchResponse } from './watch-handler.js';
import { parseIncludeObject, toTable } from './table.js';
import { checkKind, checkTypes, decodeObject } from './request-body.js';
import { writeHooks } from './write-hooks.js';

const NOT_FOUND_MESSAGE = 'the server could not find the requested resource';
const ITEM_VERBS = ['get', 'update', 'patch', 'delete'];
const COLLECTION_VERBS = ['list', 'watch', 'create', 'deletecollection'];
const ALL_NAMESPACES_VERBS = ['list', 'watch'];

/** go-restful's 405 for a method with no route on the path (apimachinery errors.NewGenericServerResponse). */
function routeMethodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export interface RequestContext {
  req: ServerRequest;
  info: RequestInfo;
  decl: ResourceDecl;
  rs: ResourceStore;
  user: UserInfo;
  dryRun: boolean;
  /** Response headers to add, e.g. Warning for fieldValidation=Warn. */
  headers: Record<string, string>;
}

export class ResourceHandler {
  constructor(readonly server: ApiServer, readonly cfg: ApiServerConfig) {}

  async handle(req: ServerRequest, info: RequestInfo, user: UserInfo): Promise<ServerResponse> {
    const decl = this.server.registry.lookup(info.group, info.version, info.resource);
    if (!decl) throw new StatusError(404, 'NotFound', NOT_FOUND_MESSAGE, {});
    const namespacedPath = info.namespace !== '' && !(info.resource === 'namespaces' && !info.group);
    if (!decl.namespaced && namespacedPath) throw new StatusError(404, 'NotFound', NOT_FOUND_MESSAGE, {});
    if (decl.namespaced && !namespacedPath && info.name) throw new StatusError(404, 'NotFound', NOT_FOUND_MESSAGE, {});
    await this.authorize(info, decl, user, first(req.query?.fieldSelector));
    // A path kube-apiserver routes, but not for this method: namespaced resources across namespaces only list and
    // watch, items take no POST, collections no PUT/PATCH, and a verb the resource does not declare has no route.
    if (!info.subresource) {
      const routed = info.name ? ITEM_VERBS : decl.namespaced && !namespacedPath ? ALL_NAMESPACES_VERBS : COLLECTION_VERBS;
      if (!routed.includes(info.verb) || !(decl.verbs ?? DEFAULT_VERBS).includes(info.verb)) throw routeMethodNotAllowed();
    }
    const dryRunParam = req.query?.dryRun;
    const dryRunValues = dryRunParam === undefined ? [] : Array.isArray(dryRunParam) ? dryRunParam : [dryRunParam];
    for (const v of dryRunValues) {
      if (v !== 'All') throw StatusError.badRequest(`dryRun: Unsupported value: "${v}": supported values: "All"`);
    }
    const ctx: RequestContext = {
      req, info, decl, rs: this.server.stores.get(decl)!, user, dryRun: dryRunValues.length > 0, headers: {},
    };
    try {
      return await this.serve(ctx, info);
    } catch (err) {
      // Warnings recorded before a failure (an admission webhook's, then its rejection) go out with the error.
      if (!ctx.headers.Warning) throw err;
      const res = errorResponse(err, this.cfg.logger);
      return { ...res, headers: { ...res.headers, ...ctx.headers } };
    }
  }

  private async serve(ctx: RequestContext, info: RequestInfo): Promise<ServerResponse> {
    const { decl } = ctx;
    const namespace = decl.namespaced ? info.namespace : undefined;
    if (info.subresource) return handleSubresource(this, ctx, namespace);
    const custom = this.cfg.customRest?.[decl.group ? `${decl.group}/${decl.plural}` : decl.plural];
    if (custom) return custom.serve(this, ctx, namespace);
    switch (info.verb) {
      case 'get': return this.render(ctx, await ctx.rs.get(namespace, info.name));
      case 'list': return this.list(ctx, namespace);
      case 'watch': return watchResponse(this, ctx, namespace);
      case 'create': return this.create(ctx, namespace);
      case 'update': return this.update(ctx, namespace, info.name);
      case 'patch': return this.patch(ctx, namespace, info.name);
      case 'delete': return deleteOne(this, ctx, namespace, info.name);
      case 'deletecollection': return deleteCollection(this, ctx, namespace);
    }
    throw StatusError.methodNotAllowed(info.verb, decl.group, decl.plural);
  }

  /** Asks the authorizer; anything but Allow is kube-apiserver's 403 (a `<resource> "<name>" is forbidden: User ...`). */
  private async authorize(info: RequestInfo, decl: ResourceDecl, user: UserInfo, fieldSelector?: string): Promise<void> {
    if (!this.cfg.authorizer) return;
    const listing = info.verb === 'list' || info.verb === 'watch';
    // kube's RequestInfoFactory names a list or watch by its `metadata.name=` field selector, so RBAC resourceNames and
    // the Node authorizer can allow reading one object that way (the kubelet's configmap and secret watches).
    const name = info.name || (listing && fieldSelector ? selectedName(fieldSelector) : '');
    const attrs: AuthorizationAttributes = {
      user, verb: info.verb, isResourceRequest: true, group: decl.group, resource: decl.plural, subresource: info.subresource,
      namespace: decl.namespaced ? info.namespace : '', name, path: info.path, ...(listing && fieldSelector ? { fieldSelector } : {}),
    };
    const res = await this.cfg.authorizer.authorize(attrs);
    if (res.decision !== 'Allow') throw StatusError.forbidden(decl.group, decl.plural, name, forbiddenReason(attrs, res.reason));
  }

  /** JSON or Table rendering of one object or a list, per the Accept header. */
  render(ctx: RequestContext, body: KubeObject | KubeList, status = 200): ServerResponse {
    const rendering = chooseRendering(ctx.req.accept);
    if (!rendering) throw StatusError.notAcceptable('only the following media types are accepted: application/json, application/yaml, application/json;as=Table;v=v1;g=meta.k8s.io');
    if (rendering.kind === 'table' && ctx.decl.table) {
      const isList = Array.isArray((body as KubeList).items);
      const objects = isList ? (body as KubeList).items : [body as KubeObject];
      const listMeta = isList ? (body as KubeList).metadata : { resourceVersion: (body as KubeObject).metadata.resourceVersion };
      const table = toTable(ctx.decl.table, objects, listMeta, {
        includeObject: parseIncludeObject(first(ctx.req.query?.includeObject)),
        tableVersion: rendering.tableVersion ?? 'v1',
        now: this.cfg.clock.now(),
      });
      return json(status, table, ctx.headers);
    }
    return json(status, body, ctx.headers);
  }

  private async list(ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse> {
    const q = ctx.req.query ?? {};
    const filter = listFilter(ctx.decl, first(q.labelSelector), first(q.fieldSelector));
    const limitText = first(q.limit);
    const limit = limitText ? Number(limitText) : undefined;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw StatusError.badRequest(`limit: Invalid value: "${limitText}"`);
    const list = await ctx.rs.list(namespace, { filter, limit, continueToken: first(q.continue) || undefined });
    return this.render(ctx, list);
  }

  private async create(ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse> {
    const obj = decodeObject(this, ctx);
    if (ctx.decl.namespaced && obj.metadata.namespace && obj.metadata.namespace !== namespace) {
      throw StatusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (!obj.metadata.name && !obj.metadata.generateName) {
      throw StatusError.invalid(ctx.decl.group, ctx.decl.kind, '', [fieldErr.required('metadata.name', 'name or generateName is required')]);
    }
    const hooks = writeHooks(this, ctx, 'CREATE', namespace);
    const created = await hooks.settle(ctx.rs.create(namespace, obj, hooks, { dryRun: ctx.dryRun }));
    return json(201, created, ctx.headers);
  }

  private async update(ctx: RequestContext, namespace: string | undefined, name: string, subresource = ''): Promise<ServerResponse> {
    const obj = decodeObject(this, ctx);
    // handlers/rest.go checkName: a body without a name does not match either.
    if ((obj.metadata.name ?? '') !== name) {
      throw StatusError.badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${name})`);
    }
    if (ctx.decl.namespaced && obj.metadata.namespace && obj.metadata.namespace !== namespace) {
      throw StatusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const hooks = writeHooks(this, ctx, 'UPDATE', namespace, subresource);
    const updated = await hooks.settle(ctx.rs.update(namespace, name, () => obj, hooks,
      { dryRun: ctx.dryRun, subresource, pinnedRV: obj.metadata.resourceVersion || undefined }));
    return json(200, updated, ctx.headers);
  }

  /** PUT to /status goes through the same path with the status strategy. */
  updateStatus(ctx: RequestContext, namespace: string | undefined, name: string): Promise<ServerResponse> {
    return this.update(ctx, namespace, name, 'status');
  }

  /** PUT to another status-like subresource (certificatesigningrequests/approval); its strategy decides what changes. */
  updateSubresource(ctx: RequestContext, namespace: string | undefined, name: string, subresource: string): Promise<ServerResponse> {
    return this.update(ctx, namespace, name, subresource);
  }

  async patch(ctx: RequestContext, namespace: string | undefined, name: string, subresource = ''): Promise<ServerResponse> {
    const type = patchTypeOf(ctx.req.contentType);
    refusePatchType(ctx, type);
    const body = decodeBody(ctx.req.body, ctx.req.contentType, true);
    if (body === undefined) throw StatusError.badRequest('the body of the request was empty');
    const hooks = writeHooks(this, ctx, 'UPDATE', namespace, subresource);
    if (type === 'apply') return this.apply(ctx, namespace, name, body, subresource);
    // A merge patch can only make the paths it names wrong: the rest is the stored object, checked when written. So
    // the decoder's checks walk those paths alone (a kubelet's status patch no longer walks the whole pod); not for
    // custom resources, whose stored objects may predate a schema change, nor resources stored in another version.
    const mask = type === 'merge' && !ctx.decl.unknownFields && !ctx.decl.storedAs && isObject(body) ? body : undefined;
    // Such a patch of /status (a kubelet's pod status, a node's status) copies only the parts it sets and shares the
    // rest of the stored object (copyOnWrite): no defaulting runs on a subresource, the status strategy puts the
    // stored spec back anyway, and the checks above touch only the patch's paths, so nothing writes into the shared,
    // frozen parts. Other writes keep a private copy.
    const updated = await hooks.settle(ctx.rs.update(namespace, name, (current) => {
      const patched = this.cfg.patcher.apply(type, current, body, ctx.decl);
      if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
        throw StatusError.badRequest('the patch produced an object that is not a JSON object');
      }
      return checkTypes(ctx, checkKind(this, ctx, patched, undefined, undefined, mask), 'patch', {}, type === 'strategic' ? JSON.stringify(body) : undefined, mask);
    }, hooks, { dryRun: ctx.dryRun, subresource, copyOnWrite: mask !== undefined && subresource === 'status' }));
    return json(200, updated, ctx.headers);
  }

  private async apply(ctx: RequestContext, namespace: string | undefined, name: string, body: unknown, subresource: string): Promise<ServerResponse> {
    const q = ctx.req.query ?? {};
    const manager = first(q.fieldManager);
    if (!manager) throw StatusError.invalid(ctx.decl.group, ctx.decl.kind, name, [fieldErr.required('fieldManager', 'is required for apply patch')]);
    const ssa = this.cfg.patcher.serverSideApply;
    if (!ssa) throw StatusError.unsupportedMediaType('application/apply-patch+yaml');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw StatusError.badRequest('apply patch must be an object');
    const applied = checkTypes(ctx, checkKind(this, ctx, body as KubeObject), 'apply');
    const force = isTrue(first(q.force));
    const exists = ctx.rs.cache.get(ctx.rs.key(namespace, name));
    if (!exists && !subresource) {
      if (applied.metadata.name && applied.metadata.name !== name) {
        throw StatusError.badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`);
      }
      const obj = ssa(undefined, applied, ctx.decl, manager, force);
      obj.metadata.name = name;
      const createHooks = writeHooks(this, ctx, 'CREATE', namespace, '', false);
      const created = await createHooks.settle(ctx.rs.create(namespace, obj, createHooks, { dryRun: ctx.dryRun }));
      return json(201, created, ctx.headers);
    }
    const hooks = writeHooks(this, ctx, 'UPDATE', namespace, subresource, false);
    const updated = await hooks.settle(ctx.rs.update(namespace, name, (current) => ssa(current, applied, ctx.decl, manager, force, subresource),
      hooks, { dryRun: ctx.dryRun, subresource }));
    return json(200, updated, ctx.headers);
  }
}

/**
 * Custom resources take no strategic merge patch: kube's patch handler answers 415 naming the types it supports
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go with customresource_handler.go's supportedTypes).
 */
export function refusePatchType(ctx: RequestContext, type: string): void {
  if (type !== 'strategic' || !ctx.decl.refusedPatchTypes?.includes('strategic')) return;
  throw new StatusError(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
}

/** The name a `metadata.name=<name>` field selector asks for, when it is a valid path segment (requestinfo.go). */
function selectedName(fieldSelector: string): string {
  try {
    const r = parseFieldSelector(fieldSelector).find((x) => x.field === 'metadata.name' && x.operator === '=');
    return r && r.value && r.value !== '.' && r.value !== '..' && !/[/%]/.test(r.value) ? r.value : '';
  } catch {
    return '';
  }
}
