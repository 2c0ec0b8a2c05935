// pods/eviction: a delete that honours PodDisruptionBudgets (kubernetes pkg/registry/core/pod/storage/eviction.go).
// The Eviction goes through admission as a pods/eviction CREATE first (mutating in the create handler, validating as
// the REST's createValidation), so webhooks, ValidatingAdmissionPolicies and NodeRestriction can refuse it.
// 201 Success then a graceful delete; 429 while a budget allows no disruption; 500 when two budgets select the pod.

import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { StatusError, isConflict } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { rfc3339 } from '../util/clock.js';
import type { ServerResponse } from './interfaces.js';
import { budgetsFor, checkAndDecrement, MULTIPLE_PDBS_MESSAGE, stillProcessing } from './eviction-budget.js';
import { decodeBody, decodeObjectBody } from './negotiate.js';
import type { RequestContext, ResourceHandler } from './resource-handler.js';
import type { DeleteParams, ResourceStore } from './resource-store.js';
import { json } from './server.js';
import { checkTypes } from './request-body.js';
import type { AdmissionAttributes } from './admission/interfaces.js';
import { addWarnings } from './admission/warnings.js';

interface EvictionBody {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  deleteOptions?: {
    gracePeriodSeconds?: number;
    propagationPolicy?: string;
    orphanDependents?: boolean;
    preconditions?: { uid?: string; resourceVersion?: string };
    dryRun?: string[];
  };
}

const EVICTION = { definition: 'io.k8s.api.policy.v1.Eviction', kind: 'Eviction', apiVersion: 'policy/v1' };

/** EvictionsRetry.Steps: conflicts retried this many times. */
const RETRIES = 20;

const asPod = (o: KubeObject) => o as unknown as Pod;

/** canIgnorePDB: finished, pending or already-deleting pods have nothing left to protect. */
function canIgnorePdb(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

/** shouldEnforceResourceVersion: pin the delete unless the pod is finished or already deleting. */
function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata?.deletionTimestamp);
}

const isReady = (pod: Pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** The Eviction's deleteOptions as store parameters, with propagateDryRun's merge of the query's dryRun. */
function deleteParams(body: EvictionBody, queryDryRun: boolean): DeleteParams {
  const o = body.deleteOptions ?? {};
  const params: DeleteParams = {};
  if (typeof o.gracePeriodSeconds === 'number') params.gracePeriodSeconds = o.gracePeriodSeconds;
  if (typeof o.propagationPolicy === 'string') params.propagationPolicy = o.propagationPolicy;
  if (o.orphanDependents === true) params.propagationPolicy = 'Orphan';
  if (o.preconditions && typeof o.preconditions === 'object') params.preconditions = { ...o.preconditions };
  const bodyDryRun = Array.isArray(o.dryRun) ? o.dryRun : [];
  for (const v of bodyDryRun) {
    if (v !== 'All') throw StatusError.badRequest(`dryRun: Unsupported value: "${v}": supported values: "All"`);
  }
  params.dryRun = queryDryRun || bodyDryRun.length > 0;
  return params;
}

export async function evict(h: ResourceHandler, ctx: RequestContext, namespace: string): Promise<ServerResponse> {
  const name = ctx.info.name;
  const body = checkTypes(ctx, decodeObjectBody(decodeBody(ctx.req.body, ctx.req.contentType), 'Eviction'), 'decode', EVICTION) as EvictionBody;
  // AcceptsGroupVersion: policy/v1 and policy/v1beta1 Evictions are both taken.
  if (body.apiVersion !== undefined && body.apiVersion !== 'policy/v1' && body.apiVersion !== 'policy/v1beta1') {
    throw StatusError.badRequest(`the API version in the data (${String(body.apiVersion)}) does not match the expected API version (policy/v1)`);
  }
  if (body.kind !== undefined && body.kind !== 'Eviction') {
    throw StatusError.badRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (Eviction)`);
  }
  if (body.metadata?.namespace && body.metadata.namespace !== namespace) {
    throw StatusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const attrs = await admitEviction(h, ctx, namespace, name, body);
  const evicted = attrs.object as unknown as EvictionBody;
  if ((evicted.metadata?.name ?? '') !== name) throw StatusError.badRequest('name in URL does not match name in Eviction object');
  const original = deleteParams(evicted, ctx.dryRun);
  // The REST's createValidation: validating webhooks, ValidatingAdmissionPolicy and the in-tree validators.
  await h.cfg.admission?.validate(attrs, h.server.lookup);
  addWarnings(ctx.headers, attrs.warnings);
  const pods = ctx.rs;
  const now = () => rfc3339(h.cfg.clock.now());
  const rvUnset = !original.preconditions?.resourceVersion;

  // Pods that can ignore their budget are deleted at once; conflicts retry unless the caller pinned a version.
  let pod: Pod | undefined;
  for (let attempt = 0; ; attempt++) {
    pod = asPod(await pods.get(namespace, name));
    if (!canIgnorePdb(pod)) break;
    const opts = pinned(original, shouldEnforceResourceVersion(pod) && rvUnset ? pod.metadata!.resourceVersion : undefined);
    try {
      await addConditionAndDelete(pods, namespace, name, opts, now);
      return success();
    } catch (err) {
      if (!(isConflict(err) && rvUnset && attempt < RETRIES)) throw err;
    }
  }

  const pdbStore = h.server.storeFor('policy', 'poddisruptionbudgets');
  const all = pdbStore ? (await pdbStore.list(namespace)).items as unknown as PodDisruptionBudget[] : [];
  const pdbs = budgetsFor(pod, all);
  if (pdbs.length > 1) {
    return json(500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: MULTIPLE_PDBS_MESSAGE, code: 500 });
  }
  let pinRV = false;
  const pdb = pdbs[0];
  if (pdb) {
    const st = pdb.status;
    // An unready pod does not count as healthy, so removing it spends no budget when the policy says so.
    if (!isReady(pod) && (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow'
      || ((st?.currentHealthy ?? 0) >= (st?.desiredHealthy ?? 0) && (st?.desiredHealthy ?? 0) > 0))) {
      pinRV = true;
    } else {
      await pdbStore!.update(namespace, pdb.metadata!.name!, (cur) => checkAndDecrement(cur, name, original.dryRun ?? false, now()), {},
        { subresource: 'status', dryRun: original.dryRun });
    }
  }

  // Pinning the version makes sure the pod did not turn ready since we decided it was unhealthy.
  const opts = pinned(original, pinRV && rvUnset ? pod.metadata!.resourceVersion : undefined);
  try {
    await addConditionAndDelete(pods, namespace, name, opts, now);
  } catch (err) {
    if (isConflict(err) && pinRV && rvUnset) throw stillProcessing(pdb!.metadata!.name!);
    throw err;
  }
  return success();
}

/**
 * The create handler's mutating admission of the Eviction: pods/eviction, operation CREATE, the pod's name, and the
 * Eviction (in the version sent, policy/v1 by default) as the object and kind. Returns the attributes, whose object a
 * mutating webhook may have changed, for the validating phase.
 */
async function admitEviction(h: ResourceHandler, ctx: RequestContext, namespace: string, name: string, body: EvictionBody): Promise<AdmissionAttributes> {
  const apiVersion = body.apiVersion ?? EVICTION.apiVersion;
  // The handler fills in the request's namespace (rest.EnsureObjectNamespaceMatchesRequestNamespace).
  const object = { ...body, apiVersion, kind: EVICTION.kind, metadata: { ...body.metadata, namespace } } as unknown as KubeObject;
  const attrs: AdmissionAttributes = {
    operation: 'CREATE', decl: ctx.decl, namespace, name, subresource: 'eviction', object,
    kind: { group: 'policy', version: apiVersion.split('/')[1] ?? 'v1', kind: EVICTION.kind },
    user: ctx.user, dryRun: ctx.dryRun, warnings: [],
  };
  await h.cfg.admission?.admit(attrs, h.server.lookup);
  return attrs;
}

function success(): ServerResponse {
  return json(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}

function pinned(p: DeleteParams, resourceVersion: string | undefined): DeleteParams {
  return resourceVersion ? { ...p, preconditions: { ...p.preconditions, resourceVersion } } : p;
}

/**
 * addConditionAndDeletePod: mark the pod DisruptionTarget=True (EvictionByEvictionAPI) through pods/status, then
 * delete it; a pinned resourceVersion follows the condition write, which we made ourselves.
 */
async function addConditionAndDelete(pods: ResourceStore, namespace: string, name: string, opts: DeleteParams, now: () => string): Promise<void> {
  let params = opts;
  if (!opts.dryRun) {
    const updated = await pods.update(namespace, name, (latest) => {
      const pre = opts.preconditions;
      if (pre?.uid && pre.uid !== latest.metadata.uid) {
        throw StatusError.conflict('', 'Pod', name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${latest.metadata.uid}`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== latest.metadata.resourceVersion) {
        throw StatusError.conflict('', 'Pod', name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion}). The object might have been modified`);
      }
      setDisruptionTarget(latest, now());
      return latest;
    }, {}, { subresource: 'status' });
    if (opts.preconditions?.resourceVersion) params = pinned(opts, updated.metadata.resourceVersion);
  }
  await pods.delete(namespace, name, params);
}

/** podutil.UpdatePodCondition with the eviction's DisruptionTarget condition. */
function setDisruptionTarget(pod: KubeObject, now: string): void {
  const status = (pod.status ??= {}) as { conditions?: PodCondition[] };
  const conds = (status.conditions ??= []);
  // The whole condition is replaced; Go writes its zero lastProbeTime as null (kubernetes-types only knows strings).
  const next = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', lastProbeTime: null as unknown as string };
  const i = conds.findIndex((c) => c.type === next.type);
  if (i < 0) conds.push({ ...next, lastTransitionTime: now });
  else conds[i] = { ...next, lastTransitionTime: conds[i].status === next.status ? conds[i].lastTransitionTime : now };
}
