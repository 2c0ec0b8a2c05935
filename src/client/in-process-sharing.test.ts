// The in-process transport hands watchers the API server's own deep-frozen objects instead of a copy each: nobody can
// change them, they look exactly like the stored JSON, and a binding's new revision shares its unchanged parts.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { KubeObject, WatchEvent } from '../api/types.js';
import { STRATEGIES } from '../api/strategies/index.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { RealClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import type { Client } from './interfaces.js';
import { R } from './resources.js';

describe('in-process watch events', () => {
  let cp: ControlPlane;
  let c: Client;
  before(async () => {
    cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES });
    await cp.start();
    c = cp.client();
    await c.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'share' } });
    await c.create(R.serviceaccounts, 'share', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'share' } });
    await c.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
  });
  after(() => cp.stop());

  async function watchPods(): Promise<{ events: WatchEvent<Pod & KubeObject>[]; stop: () => void }> {
    const list = await c.list(R.pods, 'share');
    const events: WatchEvent<Pod & KubeObject>[] = [];
    const w = await c.watch<Pod & KubeObject>(R.pods, 'share', { resourceVersion: list.metadata.resourceVersion }, (ev) => events.push(ev));
    return { events, stop: () => w.stop() };
  }

  it('are frozen, equal what a GET returns, and carry no undefined keys', async () => {
    const w1 = await watchPods();
    const w2 = await watchPods();
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', namespace: 'share' }, spec: { containers: [{ name: 'c', image: 'pause' }] } };
    await c.create(R.pods, 'share', pod);
    await c.createSubresource(R.pods, 'share', 'p1', 'binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1' }, target: { kind: 'Node', name: 'n1' } });
    const got = await c.get<Pod & KubeObject>(R.pods, 'share', 'p1');
    w1.stop();
    w2.stop();
    assert.deepEqual(w1.events.map((e) => e.type), ['ADDED', 'MODIFIED']);
    const [added, bound] = w1.events.map((e) => e.object);
    assert.ok(Object.isFrozen(bound) && Object.isFrozen(bound!.spec!.containers[0]), 'deep-frozen');
    assert.throws(() => { (bound!.spec as { nodeName?: string }).nodeName = 'elsewhere'; }, TypeError);
    assert.equal(w2.events[1]!.object, bound, 'both watchers read the one shared object');
    assert.deepEqual(bound, got, 'the watched object is the stored one, key for key (deepEqual counts undefined keys)');
    assert.equal(added!.spec!.nodeName, undefined, 'the earlier revision did not change');
    assert.equal(bound!.spec!.containers, added!.spec!.containers, 'the binding shares what it did not change');
    assert.equal(bound!.status!.conditions![0]!.type, 'PodScheduled');
  });

  it('plain responses are still private copies the caller may change', async () => {
    const got = await c.get<Pod & KubeObject>(R.pods, 'share', 'p1');
    assert.ok(!Object.isFrozen(got));
    got.metadata.labels = { changed: 'yes' };
    assert.equal((await c.get(R.pods, 'share', 'p1')).metadata.labels, undefined);
  });

  it('a handed-over write is neither copied in nor out: the answer is the stored, frozen object', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'handed', namespace: 'share' }, data: { a: '1' } };
    const created = await c.create(R.configmaps, 'share', body, { handOver: true });
    assert.ok(Object.isFrozen(created), 'the server\'s own object, so it is read-only');
    assert.equal(created, body, 'the body itself became the stored object');
    const copied = await c.create(R.configmaps, 'share', { ...body, metadata: { name: 'copied', namespace: 'share' } });
    assert.ok(!Object.isFrozen(copied), 'without handOver the answer stays a private copy');
  });
});
