// System-owned ObjectMeta handling shared by every resource: names from generateName, uids, timestamps, and the
// fields an update may not change (apiserver pkg/registry/rest/create.go, update.go).

import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../api/types.js';

// utilrand.String's alphabet: no vowels (no accidental words), no confusable characters.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATED_NAME_LENGTH = 63 - 5;

export function randomSuffix(n = 5, rng: () => number = Math.random): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHANUMS[Math.floor(rng() * ALPHANUMS.length)];
  return s;
}

/** names.SimpleNameGenerator: base (cut to 58 chars) + 5 random characters. */
export function generateName(base: string): string {
  return `${base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base}${randomSuffix()}`;
}

export function newUid(): string {
  return randomUUID();
}

/** Copies the metadata an update may not set from the stored object (BeforeUpdate + strategy rules). */
export function carrySystemMeta(obj: KubeObject, old: KubeObject): void {
  const m = obj.metadata;
  const o = old.metadata;
  m.uid = o.uid;
  m.creationTimestamp = o.creationTimestamp;
  m.deletionTimestamp = o.deletionTimestamp;
  m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  m.generation = o.generation;
  if (o.generateName !== undefined && m.generateName === undefined) m.generateName = o.generateName;
  if (m.managedFields === undefined && o.managedFields !== undefined) m.managedFields = o.managedFields;
  if (m.ownerReferences === undefined) delete m.ownerReferences;
}
