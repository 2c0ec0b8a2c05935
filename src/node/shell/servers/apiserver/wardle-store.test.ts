// The sample-apiserver's storage rules: defaulting, validation and BanFlunder with upstream's texts, and its watch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WATCH_HISTORY, WardleStore, type Failure, type WardleObject } from './wardle-store.js';

const flunder = (name: string, spec?: WardleObject['spec']): WardleObject => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name }, spec });

test('create defaults referenceType, refuses duplicates, lists by namespace', () => {
  const s = new WardleStore(() => Date.parse('2025-01-01T00:00:00Z'));
  const made = s.create('flunders', 'default', flunder('a', { reference: 'b' })) as WardleObject;
  assert.equal(made.spec?.referenceType, 'Flunder');
  assert.equal(made.metadata.creationTimestamp, '2025-01-01T00:00:00Z');
  assert.equal((s.create('flunders', 'default', flunder('a')) as Failure).message, 'flunders.wardle.example.com "a" already exists');
  assert.equal(s.list('flunders', 'other').length, 0);
  assert.equal((s.get('flunders', 'default', 'zz') as Failure).message, 'flunders.wardle.example.com "zz" not found');
});

test('validation and BanFlunder', () => {
  const s = new WardleStore(() => 0);
  assert.equal((s.create('flunders', 'default', flunder('x', { referenceType: 'Fischer' })) as Failure).message,
    'Flunder.wardle.example.com "x" is invalid: spec.fischerReference: Invalid value: "": cannot be empty if referenceType is Fischer');
  s.create('fischers', undefined, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'f' }, disallowedFlunders: ['banned'] });
  const banned = s.create('flunders', 'default', flunder('banned')) as Failure;
  assert.deepEqual([banned.code, banned.message], [403, 'flunders.wardle.example.com "banned" is forbidden: this name may not be used, please change the resource name']);
});

test('watch: current objects as ADDED from "", changes after a resourceVersion, 410 Expired before the history', () => {
  const s = new WardleStore(() => 0);
  s.create('flunders', 'default', flunder('a'));
  const rv = s.revision;
  const seen: string[] = [];
  const stop = s.watch('flunders', 'default', '', (ev) => seen.push(`${ev.type} ${ev.object.metadata.name} ${ev.object.metadata.resourceVersion}`));
  assert.equal(typeof stop, 'function');
  s.create('flunders', 'other', flunder('elsewhere'));
  s.update('flunders', 'default', 'a', { ...flunder('a'), metadata: { name: 'a', labels: { x: 'y' } } });
  s.delete('flunders', 'default', 'a');
  assert.deepEqual(seen, ['ADDED a 2', 'MODIFIED a 4', 'DELETED a 5']);
  (stop as () => void)();
  assert.equal(s.watching, 0);
  const replay: string[] = [];
  const again = s.watch('flunders', undefined, rv, (ev) => replay.push(`${ev.type} ${ev.object.metadata.name}`)) as () => void;
  assert.deepEqual(replay, ['ADDED elsewhere', 'MODIFIED a', 'DELETED a']);
  again();
  for (let i = 0; i < WATCH_HISTORY + 1; i++) s.create('fischers', undefined, { metadata: { name: `f${i}` } });
  const old = s.watch('flunders', undefined, rv, () => {}) as Failure;
  assert.deepEqual([old.code, old.reason], [410, 'Expired']);
  assert.match(old.message, /^too old resource version: 2 \(\d+\)$/);
});
