// Two API servers (ControlPlanes) sharing one real etcd: what one writes, the other reads, lists and watches.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { KubeObject, WatchEvent } from '../../src/api/types.js';
import { STRATEGIES } from '../../src/api/strategies/index.js';
import { R } from '../../src/client/resources.js';
import { ControlPlane } from '../../src/cluster/control-plane.js';
import { EtcdStore } from '../../src/storage/etcd/etcd-store.js';
import { ETCD_BIN, etcdInstalled, startLocalEtcd, type LocalEtcd } from '../../src/storage/etcd/local-etcd.js';
import { RealClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/log.js';

const cm = (name: string, data: Record<string, string>): KubeObject => ({ metadata: { name }, data } as KubeObject);

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

if (!etcdInstalled()) {
  const why = `${ETCD_BIN} not found (Debian: apt-get install etcd-server)`;
  if (process.env.CI) test('etcd is installed', () => assert.fail(`${why}: CI must run the etcd HA test`));
  else test('two API servers on one etcd', { skip: why }, () => {});
} else {
  let etcd: LocalEtcd;
  let a: ControlPlane;
  let b: ControlPlane;
  const plane = () => new ControlPlane({
    clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES,
    store: new EtcdStore({ endpoints: [etcd.endpoint], keyPrefix: '/registry', logger: silentLogger }),
  });

  before(async () => {
    etcd = await startLocalEtcd();
    a = plane();
    b = plane();
    // Both bootstrap the system objects at once: the loser of each create race must take AlreadyExists in stride.
    await Promise.all([a.start(), b.start()]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await etcd?.stop();
  });

  test('both servers started on one etcd and agree on the bootstrapped objects', async () => {
    const names = async (cp: ControlPlane) => (await cp.client().list(R.namespaces, undefined)).items.map((n) => n.metadata.name).sort();
    assert.deepEqual(await names(a), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    assert.deepEqual(await names(b), await names(a));
    const svcA = await a.client().get(R.services, 'default', 'kubernetes');
    const svcB = await b.client().get(R.services, 'default', 'kubernetes');
    assert.equal(svcA.metadata.uid, svcB.metadata.uid, 'one kubernetes Service, not one per server');
  });

  test('a write through one server is read, listed and watched through the other', async () => {
    const ca = a.client();
    const cb = b.client();
    const seen: Array<WatchEvent<KubeObject>> = [];
    const start = await cb.list(R.configmaps, 'default');
    const watch = await cb.watch(R.configmaps, 'default', { resourceVersion: start.metadata!.resourceVersion }, (ev) => void seen.push(ev));
    try {
      const created = await ca.create(R.configmaps, 'default', cm('shared', { v: '1' }));
      // A consistent read on B waits until B's watch cache has caught up with etcd (waitFor + watch progress).
      const got = await cb.get(R.configmaps, 'default', 'shared');
      assert.equal(got.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.deepEqual(got.data, { v: '1' });
      const listed = await cb.list(R.configmaps, 'default');
      assert.deepEqual(listed.items.map((o) => o.metadata.name), ['shared']);
      assert.ok(Number(listed.metadata!.resourceVersion) >= Number(created.metadata.resourceVersion));

      const updated = await ca.update(R.configmaps, 'default', { ...created, data: { v: '2' } });
      await until(() => seen.length >= 2, 'ADDED and MODIFIED on the other server');
      assert.deepEqual(seen.map((e) => [e.type, e.object.metadata.resourceVersion]), [
        ['ADDED', created.metadata.resourceVersion],
        ['MODIFIED', updated.metadata.resourceVersion],
      ]);
      // Optimistic concurrency spans servers: B's update with A's stale version conflicts.
      await assert.rejects(cb.update(R.configmaps, 'default', { ...created, data: { v: 'stale' } }), /the object has been modified/);
      await cb.delete(R.configmaps, 'default', 'shared');
      await assert.rejects(ca.get(R.configmaps, 'default', 'shared'), /configmaps "shared" not found/);
      await until(() => seen.length >= 3, 'DELETED on the watching server');
      assert.equal(seen[2]!.type, 'DELETED');
    } finally {
      watch.stop();
    }
  });

  test('a read at a resourceVersion written under another resource is answered without waiting for the timeout', async () => {
    // The namespace write bumps the revision; B's configmaps cache never sees it, yet must prove it is that fresh.
    const ns = await a.client().create(R.namespaces, undefined, { metadata: { name: 'ha-ns' } } as KubeObject);
    const t0 = Date.now();
    const list = await b.client().list(R.configmaps, 'default', { resourceVersion: ns.metadata.resourceVersion, resourceVersionMatch: 'NotOlderThan' });
    assert.ok(Number(list.metadata!.resourceVersion) >= Number(ns.metadata.resourceVersion));
    assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms`);
  });
  test('an object created in a namespace created a moment ago, through the same or the other server, is admitted', async () => {
    // NamespaceLifecycle reads storage when its cache misses (lifecycle/admission.go "make a call directly to
    // storage"), so neither server's watch cache lag turns the create into `namespaces "…" not found`.
    for (let i = 0; i < 10; i++) {
      const name = `fresh-${i}`;
      await a.client().create(R.namespaces, undefined, { metadata: { name } } as KubeObject);
      await Promise.all([
        a.client().create(R.configmaps, name, cm('same-server', { v: '1' })),
        b.client().create(R.configmaps, name, cm('other-server', { v: '1' })),
      ]);
    }
    await assert.rejects(b.client().create(R.configmaps, 'never-made', cm('x', {})), /namespaces "never-made" not found/);
  });
}
