// Field checks for fleet entries: each pushes kube-style field errors naming the bad path.

import type { Taint } from 'kubernetes-types/core/v1.js';
import { fieldErr, type FieldError } from '../api/errors.js';
import { tryParseQuantity } from '../api/quantity.js';
import { featureGateProblems } from './feature-gates.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const EVICTION_SIGNALS = ['memory.available', 'nodefs.available'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function checkEnum(e: Obj, f: string, allowed: string[], path: string, errs: FieldError[]): void {
  if (e[f] !== undefined && !allowed.includes(e[f] as string)) errs.push(fieldErr.notSupported(`${path}.${f}`, e[f], allowed));
}

export function checkResources(v: unknown, path: string, errs: FieldError[]): void {
  if (v === undefined) return;
  if (!isObj(v)) return void errs.push(fieldErr.invalid(path, v, 'must be a mapping of resource name to quantity'));
  for (const [k, q] of Object.entries(v)) {
    const parsed = tryParseQuantity(q);
    if (!parsed) errs.push(fieldErr.invalid(`${path}.${k}`, q, 'must be a quantity, e.g. 4, 500m, 16Gi'));
    else if (parsed.nano < 0n) errs.push(fieldErr.invalid(`${path}.${k}`, q, 'must be greater than or equal to 0'));
  }
}

export function checkEviction(v: unknown, path: string, errs: FieldError[]): void {
  if (v === undefined) return;
  if (!isObj(v)) return void errs.push(fieldErr.invalid(path, v, 'must be a mapping of signal to threshold'));
  for (const [k, t] of Object.entries(v)) {
    if (!EVICTION_SIGNALS.includes(k)) { errs.push(fieldErr.notSupported(`${path}.${k}`, k, EVICTION_SIGNALS)); continue; }
    const s = String(t);
    const ok = s.endsWith('%') ? /^\d+(\.\d+)?%$/.test(s) && Number(s.slice(0, -1)) <= 100 : tryParseQuantity(t) !== undefined;
    if (!ok) errs.push(fieldErr.invalid(`${path}.${k}`, t, 'must be a quantity or a percentage'));
  }
}

export function checkStringMap(v: unknown, path: string, errs: FieldError[]): void {
  if (v === undefined) return;
  if (!isObj(v)) return void errs.push(fieldErr.invalid(path, v, 'must be a mapping of strings'));
  for (const [k, s] of Object.entries(v)) if (typeof s !== 'string') errs.push(fieldErr.invalid(`${path}.${k}`, s, 'must be a string (quote numbers and booleans)'));
}

export function checkStringList(v: unknown, path: string, errs: FieldError[]): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) return void errs.push(fieldErr.invalid(path, v, 'must be a list of strings'));
  v.forEach((s, i) => { if (typeof s !== 'string' || !s) errs.push(fieldErr.invalid(`${path}[${i}]`, s, 'must be a non-empty string')); });
}

export function checkTaints(v: unknown, path: string, errs: FieldError[]): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) return void errs.push(fieldErr.invalid(path, v, 'must be a list'));
  v.forEach((t: unknown, i) => {
    if (!isObj(t)) return void errs.push(fieldErr.invalid(`${path}[${i}]`, t, 'must be a mapping'));
    const taint = t as unknown as Taint;
    if (!taint.key) errs.push(fieldErr.required(`${path}[${i}].key`));
    if (!TAINT_EFFECTS.includes(taint.effect as string)) errs.push(fieldErr.notSupported(`${path}[${i}].effect`, taint.effect, TAINT_EFFECTS));
    if (taint.value !== undefined && typeof taint.value !== 'string') errs.push(fieldErr.invalid(`${path}[${i}].value`, taint.value, 'must be a string'));
  });
}

/**
 * kubelet --feature-gates as a mapping of gate → boolean. A gate the kubelet version does not know, or a locked one
 * set against its lock, stops the kubelet, so the fleet refuses it with component-base's message.
 */
export function checkFeatureGates(v: unknown, kubeletVersion: string, path: string, errs: FieldError[]): void {
  if (v === undefined) return;
  if (!isObj(v)) return void errs.push(fieldErr.invalid(path, v, 'must be a mapping of feature gate name to true or false'));
  const gates: Record<string, boolean> = {};
  for (const [k, on] of Object.entries(v)) {
    if (typeof on !== 'boolean') errs.push(fieldErr.invalid(`${path}.${k}`, on, 'must be true or false'));
    else gates[k] = on;
  }
  for (const p of featureGateProblems(gates, kubeletVersion)) errs.push(fieldErr.invalid(`${path}.${p.gate}`, gates[p.gate], `${p.message} (kubelet ${kubeletVersion})`));
}
