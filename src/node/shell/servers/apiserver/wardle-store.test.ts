// The sample-apiserver's storage rules: defaulting, validation and BanFlunder with upstream's texts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WardleStore, type Failure, type WardleObject } from './wardle-store.js';

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
