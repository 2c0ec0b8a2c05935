// SnapshotSource: one recomputation per burst of changes, and no push when only ignored fields (heartbeats) change.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { R } from '../client/resources.js';
import { FakeClient } from '../node/testing/fake-client.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { makeNode, makePod } from './fixtures.js';
import { SnapshotSource, type SerializedSnapshot } from './snapshot-source.js';
import type { Snapshot } from './view-types.js';

test('bursts of changes become one new snapshot; heartbeats become none', async () => {
  const clock = new FakeClock();
  const client = new FakeClient(() => clock.now());
  await client.create(R.nodes, undefined, makeNode('n1'));
  const source = new SnapshotSource({ client, clock, logger: silentLogger, debounceMs: 100 });
  await source.start();
  const pushed: SerializedSnapshot[] = [];
  source.subscribe((s) => pushed.push(s));
  try {
    assert.equal(source.latest().version, 1);

    for (const name of ['a', 'b', 'c']) await client.create(R.pods, 'default', makePod(name, { node: 'n1' }));
    await clock.advance(50);
    assert.equal(pushed.length, 0, 'still gathering the burst');
    await clock.advance(60);
    assert.equal(pushed.length, 1);
    assert.equal(pushed[0]!.version, 2);
    const snap = JSON.parse(pushed[0]!.json) as Snapshot;
    assert.deepEqual(snap.nodes[0]!.pods.map((p) => p.name), ['a', 'b', 'c']);

    // A kubelet heartbeat moves lastHeartbeatTime only; the view does not show it, so nothing is sent.
    const node = await client.get<KubeObject>(R.nodes, undefined, 'n1');
    const status = node.status as { conditions: { lastHeartbeatTime?: string }[] };
    status.conditions[0]!.lastHeartbeatTime = '2026-01-01T00:00:40Z';
    await client.update(R.nodes, undefined, node, { subresource: 'status' });
    await clock.advance(200);
    assert.equal(pushed.length, 1);
    assert.equal(source.latest().version, 2);
  } finally {
    source.stop();
  }
});
