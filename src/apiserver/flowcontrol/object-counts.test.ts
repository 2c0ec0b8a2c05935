// Object counts as the list estimator sees them: polled, not live (registry/generic/registry/store.go
// startObservingCount; request/object_count_tracker.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import { ObjectCountTracker } from './object-counts.js';

test('a resource\'s count is what the last poll saw; unknown resources are asked again', () => {
  const stored = new Map<string, number>([['/configmaps', 3]]);
  const t = new ObjectCountTracker((g, r) => stored.get(`${g}/${r}`));
  assert.equal(t.get('', 'configmaps'), 3, 'first asked: polled at once');
  stored.set('/configmaps', 250);
  assert.equal(t.get('', 'configmaps'), 3, 'stale until the next poll');
  assert.equal(t.get('example.com', 'widgets'), undefined, 'not stored: nothing to count');
  stored.set('example.com/widgets', 7);
  assert.equal(t.get('example.com', 'widgets'), 7, 'a store that appears is polled when first asked for');
  t.refresh();
  assert.equal(t.get('', 'configmaps'), 250);
  stored.delete('example.com/widgets');
  t.refresh();
  assert.equal(t.get('example.com', 'widgets'), undefined, 'a store that went away is no longer counted');
});
