// The selector index behind AmbiguousSelector (horizontal.go hpaSelectors with pkg/controller/util/selectors BiMultimap).

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseSelector } from '../../api/labels.js';
import { HpaSelectors } from './hpa-selectors.js';

const pod = (labels: Record<string, string>) => ({ metadata: { labels } });

it('HPAs select pods of their own namespace, nothing before their first reconcile, and not after deletion', () => {
  const s = new HpaSelectors();
  for (const key of ['a/web', 'a/twin', 'a/other', 'b/web']) s.register(key);
  const web = [pod({ app: 'web', tier: 'front' })];
  // Registered only: each selects nothing yet.
  assert.deepEqual(s.controlling('a', web), []);
  s.update('a/web', parseSelector('app=web'));
  s.update('a/twin', parseSelector('tier=front'));
  s.update('a/other', parseSelector('app=other'));
  s.update('b/web', parseSelector('app=web'));
  // An HPA its handlers never registered takes no selector.
  s.update('a/stray', parseSelector('app=web'));
  const cases: [string, string[]][] = [['a', ['a/twin', 'a/web']], ['b', ['b/web']], ['c', []]];
  for (const [ns, want] of cases) assert.deepEqual(s.controlling(ns, web), want, ns);
  s.delete('a/twin');
  assert.deepEqual(s.controlling('a', web), ['a/web']);
  // Re-registering a known HPA keeps its selector.
  s.register('a/web');
  assert.deepEqual(s.controlling('a', web), ['a/web']);
});
