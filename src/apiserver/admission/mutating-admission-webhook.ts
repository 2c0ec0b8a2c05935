// MutatingAdmissionWebhook: calls matching mutating webhooks one after another, applies their JSONPatch answers and
// reinvokes IfNeeded webhooks once when a later mutation changed the object
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go, reinvocationcontext.go).

import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { jsonEqual } from '../../util/json.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';
import { invoke, onCallFailure, type WebhookPluginDeps } from './webhook/dispatch.js';
import { CallingWebhookError } from './webhook/errors.js';
import type { Invocation, ReviewResponse } from './webhook/review.js';
import { convertObjectAsync, isConverted } from './webhook/versioned.js';
import { isExemptConfigurationResource } from './webhook/rules.js';
import { shouldCall, webhooksOf } from './webhook/source.js';
import { matchConditionsAllow } from './webhook/match-conditions.js';

export const MUTATING_ADMISSION_WEBHOOK = 'MutatingAdmissionWebhook';

/** The plugin's share of the reinvocation context (webhookReinvokeContext). */
interface ReinvokeState {
  lastOutput?: string;
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
}

function requireReinvoking(s: ReinvokeState): void {
  for (const uid of s.previouslyInvoked) s.reinvoke.add(uid);
  s.previouslyInvoked.clear();
}

/** Replaces the object's contents in place: the write path holds this very object. */
function replaceObject(target: KubeObject, next: KubeObject): void {
  for (const k of Object.keys(target)) delete (target as Record<string, unknown>)[k];
  Object.assign(target, next);
}

/**
 * Applies a webhook's patch; true when the object changed (callAttrMutatingHook). A webhook matched through an
 * equivalent resource patched the object in its own version: the patch applies there and the result converts back.
 */
async function applyPatch(name: string, r: ReviewResponse, a: AdmissionAttributes, inv: Invocation): Promise<boolean> {
  if (!r.patch) return false;
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(r.patch, 'base64').toString());
  } catch (err) {
    throw new CallingWebhookError(name, `received undecodable patch in webhook response: ${(err as Error).message}`);
  }
  if (Array.isArray(ops) && ops.length === 0) return false;
  if (!a.object) throw StatusError.internal(`admission webhook "${name}" attempted to modify the object, which is not supported for this operation`);
  if (r.patchType !== 'JSONPatch') throw new CallingWebhookError(name, `unsupported patch type "${r.patchType ?? ''}"`);
  const converted = isConverted(a, inv);
  const seen = converted ? await convertObjectAsync(a.object, a.decl, inv.decl) : a.object;
  let patched: KubeObject;
  try {
    patched = applyJsonPatch(seen, ops) as KubeObject;
  } catch (err) {
    throw StatusError.internal(String((err as Error).cause ?? (err as Error).message));
  }
  // The patched object is decoded and defaulted again before it goes on (in its version, then converted back).
  if (converted) {
    inv.decl.strategy.defaults?.(patched);
    patched = await convertObjectAsync(patched, inv.decl, a.decl);
  }
  // A subresource's own kind (Scale, Binding, TokenRequest) is not defaulted as its parent resource, but as itself.
  if (!a.kind) a.decl.strategy.defaults?.(patched);
  else a.kindDefaults?.(patched);
  const changed = !jsonEqual(a.object, patched);
  replaceObject(a.object, patched);
  return changed;
}

export function mutatingAdmissionWebhook(deps: WebhookPluginDeps): AdmissionPlugin {
  return {
    name: MUTATING_ADMISSION_WEBHOOK,
    // Not async: without webhooks (most writes) it answers at once and the chain does not wait on it.
    admit(a: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> | undefined {
      if (isExemptConfigurationResource(a.decl.group, a.decl.kind)) return;
      const hooks = webhooksOf(lookup, 'mutatingwebhookconfigurations');
      if (!hooks.length) return;
      return callMutating(a, lookup, hooks);
    },
  };

  async function callMutating(a: AdmissionAttributes, lookup: AdmissionLookup, hooks: ReturnType<typeof webhooksOf>): Promise<void> {
    const rc = (a.reinvocation ??= { isReinvoke: false, shouldReinvoke: false, values: new Map() });
    let state = rc.values.get(MUTATING_ADMISSION_WEBHOOK) as ReinvokeState | undefined;
    if (!state) rc.values.set(MUTATING_ADMISSION_WEBHOOK, (state = { previouslyInvoked: new Set(), reinvoke: new Set() }));
    // In-tree plugins changed the object since the webhooks last saw it: every eligible webhook runs again.
    if (rc.isReinvoke && state.lastOutput !== JSON.stringify(a.object ?? null)) requireReinvoking(state);
    try {
      for (const { hook, uid } of hooks) {
        const inv = shouldCall(hook, a, lookup, deps.equivalents);
        if (!inv || !(await matchConditionsAllow(hook, a, inv, deps))) continue;
        // A webhook not called in the first round is not called for the first time on reinvocation.
        if (rc.isReinvoke && !state.reinvoke.has(uid)) continue;
        const name = hook.name ?? '';
        let changed = false;
        let failure: unknown;
        try {
          changed = await applyPatch(name, await invoke(hook, inv, a, lookup, deps, true), a, inv);
        } catch (err) {
          failure = err;
        }
        if (changed) {
          requireReinvoking(state);
          rc.shouldReinvoke = true;
        }
        if (hook.reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(uid);
        if (failure !== undefined) onCallFailure(hook, failure, deps);
      }
    } finally {
      state.lastOutput = JSON.stringify(a.object ?? null);
    }
  }
}
