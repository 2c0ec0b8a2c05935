import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBuckets, ProcessMetrics, quantileBetween } from './process-metrics.js';

test('loop delays land in cumulative buckets that two scrapes can be subtracted from', () => {
  const m = new ProcessMetrics();
  for (let i = 0; i < 98; i++) m.record(0.002);
  m.record(0.03);
  m.record(0.3);
  const first = parseBuckets(m.render(), 'winkube_event_loop_delay_seconds');
  assert.equal(first.get(0.005), 98);
  assert.equal(first.get(Infinity), 100);
  assert.equal(quantileBetween(new Map(), first, 0.5), 0.005);
  assert.equal(quantileBetween(new Map(), first, 0.99), 0.05);
  assert.equal(quantileBetween(new Map(), first, 1), 0.5);
  for (let i = 0; i < 10; i++) m.record(2);
  const second = parseBuckets(m.render(), 'winkube_event_loop_delay_seconds');
  // Only the ten slow samples fell between the scrapes.
  assert.equal(quantileBetween(first, second, 0.5), 2.5);
  assert.match(m.render(), /^winkube_event_loop_delay_max_seconds 2$/m);
  assert.match(m.render(), /^process_resident_memory_bytes \d+$/m);
});
