// Delete requests: DeleteOptions from the body and the query, admission for DELETE, and kube-apiserver's answers
// (the deleted pod, a Success Status for other resources once gone, the object while it is being deleted).

import { fieldErr, StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { AdmissionAttributes } from './admission/interfaces.js';
import { addWarnings } from './admission/warnings.js';
import type { ServerResponse } from './interfaces.js';
import { listFilter } from './list-filter.js';
import { decodeBody, decodeObjectBody } from './negotiate.js';
import type { RequestContext, ResourceHandler } from './resource-handler.js';
import type { DeleteParams, DeleteResult } from './resource-store.js';
import { first, json } from './server.js';
import { checkTypes } from './request-body.js';
import { storageHook } from './write-hooks.js';

const DELETE_OPTIONS = { definition: 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions', kind: 'DeleteOptions', apiVersion: 'v1' };

function parseDeleteOptions(h: ResourceHandler, ctx: RequestContext): DeleteParams {
  const raw = decodeBody(ctx.req.body, ctx.req.contentType);
  const body = raw === undefined ? undefined
    : checkTypes(ctx, decodeObjectBody(raw, 'DeleteOptions'), 'decode', DELETE_OPTIONS);
  const q = ctx.req.query ?? {};
  const opts: DeleteParams = {};
  if (body && typeof body === 'object') {
    if (typeof body.gracePeriodSeconds === 'number') opts.gracePeriodSeconds = body.gracePeriodSeconds;
    if (typeof body.propagationPolicy === 'string') opts.propagationPolicy = body.propagationPolicy;
    if (body.orphanDependents === true) opts.propagationPolicy = 'Orphan';
    if (body.preconditions && typeof body.preconditions === 'object') opts.preconditions = body.preconditions as { uid?: string };
    if (Array.isArray(body.dryRun) && body.dryRun.includes('All')) ctx.dryRun = true;
  }
  const gp = first(q.gracePeriodSeconds);
  if (gp !== undefined) {
    if (!/^-?\d+$/.test(gp)) throw StatusError.badRequest(`gracePeriodSeconds: Invalid value: "${gp}": must be an integer`);
    opts.gracePeriodSeconds = Number(gp);
  }
  const pp = first(q.propagationPolicy);
  if (pp !== undefined) opts.propagationPolicy = pp;
  if (opts.propagationPolicy && !['Background', 'Foreground', 'Orphan'].includes(opts.propagationPolicy)) {
    throw StatusError.invalid('meta.k8s.io', 'DeleteOptions', '', [
      fieldErr.notSupported('propagationPolicy', opts.propagationPolicy, ['Foreground', 'Background', 'Orphan', 'nil']),
    ]);
  }
  return opts;
}

/** The storage hook's afterDelete once the object is gone from storage (e.g. its Service IP and NodePorts freed). */
async function afterDelete(h: ResourceHandler, ctx: RequestContext, res: DeleteResult): Promise<void> {
  if (res.deleted && !ctx.dryRun) await storageHook(h, ctx)?.afterDelete?.(res.object);
}

export async function deleteOne(h: ResourceHandler, ctx: RequestContext, namespace: string | undefined, name: string): Promise<ServerResponse> {
  const opts = parseDeleteOptions(h, ctx);
  const current = await ctx.rs.get(namespace, name);
  const attrs: AdmissionAttributes = {
    operation: 'DELETE', decl: ctx.decl, namespace: namespace ?? '', name, subresource: '', oldObject: current, user: ctx.user, dryRun: ctx.dryRun, warnings: [],
  };
  try {
    await h.cfg.admission?.admit(attrs, h.server.lookup);
    await h.cfg.admission?.validate(attrs, h.server.lookup);
  } finally {
    // Admission warnings go out with the answer, a rejection included.
    addWarnings(ctx.headers, attrs.warnings);
  }
  const res = await ctx.rs.delete(namespace, name, { ...opts, dryRun: ctx.dryRun });
  await afterDelete(h, ctx, res);
  // Pods return the deleted object (ReturnDeletedObject); other resources a Success Status once gone.
  if (res.deleted && !(ctx.decl.plural === 'pods' && !ctx.decl.group)) {
    return json(200, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
      details: { name, group: ctx.decl.group || undefined, kind: ctx.decl.plural, uid: res.object.metadata.uid },
    }, ctx.headers);
  }
  return json(200, res.object, ctx.headers);
}

export async function deleteCollection(h: ResourceHandler, ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse> {
  const q = ctx.req.query ?? {};
  const filter = listFilter(ctx.decl, first(q.labelSelector), first(q.fieldSelector));
  const opts = parseDeleteOptions(h, ctx);
  const list = await ctx.rs.list(namespace, { filter });
  const items: KubeObject[] = [];
  for (const obj of list.items) {
    try {
      const res = await ctx.rs.delete(obj.metadata.namespace, obj.metadata.name!, { ...opts, dryRun: ctx.dryRun });
      await afterDelete(h, ctx, res);
      items.push(res.object);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  return json(200, { ...list, items });
}
