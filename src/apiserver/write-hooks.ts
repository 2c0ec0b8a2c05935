// The hooks around one write request, in kube-apiserver's order: defaulting, mutating admission, validation,
// validating admission, the resource's storage hook (e.g. Service IP allocation) and managedFields tracking.

import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { AdmissionAttributes, Operation } from './admission/interfaces.js';
import { addWarnings } from './admission/warnings.js';
import type { StorageHook, StorageTxn } from './interfaces.js';
import type { RequestContext, ResourceHandler } from './resource-handler.js';
import type { WriteHooks } from './resource-store.js';
import { first } from './server.js';

/**
 * The hooks of one write request, plus `settle`, which awaits the write and then commits the storage hook's
 * transaction, or reverts it when the write failed (e.g. AlreadyExists, or a validation error after allocation).
 */
export interface RequestHooks extends WriteHooks {
  settle(write: Promise<KubeObject>): Promise<KubeObject>;
}

/** The resource's registry-storage hook (ApiServerConfig.storageHooks), e.g. Service IP allocation. */
export function storageHook(h: ResourceHandler, ctx: RequestContext): StorageHook | undefined {
  const key = ctx.decl.group ? `${ctx.decl.group}/${ctx.decl.plural}` : ctx.decl.plural;
  return h.cfg.storageHooks?.[key];
}

/** Defaulting, admission and validation around a write (the order kube-apiserver runs them). */
export function writeHooks(h: ResourceHandler, ctx: RequestContext, operation: Operation, namespace: string | undefined, subresource = '', trackFields = true): RequestHooks {
  const { strategy } = ctx.decl;
  const hook = subresource ? undefined : storageHook(h, ctx);
  // One write runs mutate then validate on the same object; a retried update runs both again.
  let attrs: AdmissionAttributes | undefined;
  // The storage hook's work for the latest attempt, settled when the write is done.
  let pending: StorageTxn | undefined;
  const take = () => {
    const txn = pending;
    pending = undefined;
    return txn;
  };
  return {
    mutate: async (obj, old) => {
      if (!subresource) strategy.defaults?.(obj);
      attrs = {
        operation, decl: ctx.decl, namespace: namespace ?? '', name: obj.metadata.name ?? '', subresource,
        object: obj, oldObject: old, user: ctx.user, dryRun: ctx.dryRun, warnings: [],
      };
      try {
        await h.cfg.admission?.admit(attrs, h.server.lookup);
      } finally {
        // Warnings reach the client even when admission rejects (kube's recorder writes them as they are added).
        addWarnings(ctx.headers, attrs.warnings);
      }
    },
    validate: async (obj, old) => {
      const a = attrs!;
      a.name = obj.metadata.name ?? a.name;
      const sctx = { now: h.cfg.clock.now(), subresource: subresource || undefined };
      const errs = old ? [...(strategy.validate?.(obj, old) ?? []), ...(strategy.validateUpdate?.(obj, old, sctx) ?? [])] : strategy.validate?.(obj) ?? [];
      if (errs.length) throw StatusError.invalid(ctx.decl.group, ctx.decl.kind, obj.metadata.name ?? '', errs);
      try {
        await h.cfg.admission?.validate(a, h.server.lookup);
      } finally {
        addWarnings(ctx.headers, a.warnings);
      }
      if (hook) {
        // A retried update starts over on a newer object: what the failed attempt allocated goes back first.
        await take()?.revert();
        pending = await hook.beforeWrite(obj, old, h.server.lookup, ctx.dryRun);
      }
      if (trackFields) trackManagedFields(h, ctx, obj, old, subresource);
    },
    settle: async (write) => {
      let stored: KubeObject;
      try {
        stored = await write;
      } catch (err) {
        await take()?.revert();
        throw err;
      }
      await take()?.commit(stored);
      return stored;
    },
  };
}

/**
 * Records the writer in metadata.managedFields (an `Update` entry), so a later server-side apply conflicts with what
 * e.g. `kubectl scale` changed. Only for writes that name a field manager, objects whose fields are already tracked,
 * and creates by a client that sends a User-Agent (a controller's ReplicaSet is `kube-controller-manager`'s, as on
 * kube); the per-pod high-volume kinds below stay untracked unless named, so the kubelets' status writes stay cheap.
 */
const UNTRACKED_CREATES = new Set(['pods', 'events', 'leases', 'endpoints', 'endpointslices']);

export function trackManagedFields(h: ResourceHandler, ctx: RequestContext, obj: KubeObject, old: KubeObject | undefined, subresource: string): void {
  const named = first(ctx.req.query?.fieldManager);
  const createdByAgent = !old && !subresource && !!ctx.req.userAgent && !UNTRACKED_CREATES.has(ctx.decl.plural);
  if (!h.cfg.patcher.trackUpdate || (!named && !old?.metadata.managedFields && !createdByAgent)) return;
  // Without fieldManager kube-apiserver names the manager after the User-Agent's product (e.g. `kubectl`); the
  // in-process components have no User-Agent, so their user name stands in (system:kube-scheduler → kube-scheduler).
  const manager = named || ctx.req.userAgent?.split('/')[0] || ctx.user.name.replace(/^system:/, '');
  obj.metadata.managedFields = h.cfg.patcher.trackUpdate(old, obj, ctx.decl, manager, subresource);
}
