import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import { R } from '../../../client/resources.js';
import type { FakeClock } from '../../../util/clock.js';
import { fitErrorMessage } from '../../framework/fit-error.js';
import type { Status } from '../../framework/status.js';
import type { ObjectListers } from '../../interfaces.js';
import { newState, nodeInfo, testHandle } from '../../testing/harness.js';
import type { FakeClient } from '../../testing/fake-client.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { Pod } from '../../types.js';
import { ERR_REASON_BIND_CONFLICT, ERR_REASON_NODE_CONFLICT } from './find.js';
import { ERR_UNBOUND_IMMEDIATE, SELECTED_NODE_ANNOTATION, VolumeBinding } from './index.js';

const claim = (name: string, cls: string, extra: Partial<PersistentVolumeClaim['spec']> = {}, annotations?: Record<string, string>): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: cls, ...extra },
  status: { phase: extra.volumeName ? 'Bound' : 'Pending' },
});
const volume = (name: string, node: string | undefined, cls = 'local', size = '5Gi'): PersistentVolume => ({
  metadata: { name },
  spec: {
    accessModes: ['ReadWriteOnce'], capacity: { storage: size }, storageClassName: cls, hostPath: { path: `/mnt/${name}` },
    ...(node ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } } : {}),
  },
  status: { phase: 'Available' },
});
const classes: Record<string, StorageClass> = {
  standard: { metadata: { name: 'standard' }, provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' },
  local: { metadata: { name: 'local' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' },
  fast: { metadata: { name: 'fast' }, provisioner: 'rancher.io/local-path', volumeBindingMode: 'Immediate' },
};

function listers(claims: PersistentVolumeClaim[], pvs: PersistentVolume[]): ObjectListers {
  return {
    persistentVolumeClaim: (ns, n) => claims.find((c) => c.metadata!.namespace === ns && c.metadata!.name === n),
    persistentVolume: (n) => pvs.find((p) => p.metadata!.name === n),
    persistentVolumes: () => pvs,
    storageClass: (n) => classes[n],
  };
}
const withClaims = (...names: string[]): Pod => {
  const p = makePod('p').obj();
  p.spec!.volumes = names.map((n) => ({ name: n, persistentVolumeClaim: { claimName: n } }));
  return p;
};
const nodes = ['n1', 'n2', 'n3'].map((n) => nodeInfo(makeNode(n).obj()));

function run(pod: Pod, claims: PersistentVolumeClaim[], pvs: PersistentVolume[]) {
  const handle = { ...testHandle(), listers: listers(claims, pvs) };
  clocks.set(handle.client, handle.clock as FakeClock);
  const pl = new VolumeBinding(handle);
  const state = newState();
  const pre = pl.preFilter(state, pod);
  const filter = new Map<string, Status>();
  if (pre.isSuccess()) for (const n of nodes) filter.set(n.name, pl.filter(state, pod, n));
  return { pl, state, pre, filter, client: handle.client as FakeClient };
}
/** kubernetes-types marks fields readonly; the tests play the other controllers and change them in place. */
const mut = (o: unknown): Record<string, unknown> => o as Record<string, unknown>;
const clocks = new WeakMap<object, FakeClock>();
const testClock = (r: { client: object }): FakeClock => clocks.get(r.client)!;
const fits = (r: ReturnType<typeof run>) => [...r.filter].filter(([, s]) => s.isSuccess()).map(([n]) => n);

describe('VolumeBinding', () => {
  it('skips pods without claims', () => {
    assert.equal(run(makePod().obj(), [], []).pre.code, 'Skip');
  });

  it('rejects a pod whose claim does not exist, or is being deleted, on every node', () => {
    const r = run(withClaims('missing'), [], []);
    assert.equal(r.pre.code, 'UnschedulableAndUnresolvable');
    assert.equal(r.pre.message(), 'persistentvolumeclaim "missing" not found');
    const gone = claim('gone', 'standard');
    mut(gone.metadata).deletionTimestamp = '2025-01-01T00:00:00Z';
    assert.equal(run(withClaims('gone'), [gone], []).pre.message(), 'persistentvolumeclaim "gone" is being deleted');
  });

  it('an unbound claim of an Immediate class (or of a missing class) holds the pod back', () => {
    for (const cls of ['fast', 'nosuchclass']) {
      const r = run(withClaims('c'), [claim('c', cls)], []);
      assert.equal(r.pre.code, 'UnschedulableAndUnresolvable');
      assert.equal(r.pre.message(), ERR_UNBOUND_IMMEDIATE);
      assert.equal(fitErrorMessage(3, { preFilterMsg: r.pre.message(), postFilterMsg: '' }, []), '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.');
    }
  });

  it('a bound claim pins the pod to the nodes its volume admits', () => {
    const r = run(withClaims('c'), [claim('c', 'standard', { volumeName: 'pv1' })], [volume('pv1', 'n2')]);
    assert.deepEqual(fits(r), ['n2']);
    assert.equal(r.filter.get('n1')!.code, 'UnschedulableAndUnresolvable');
    assert.equal(fitErrorMessage(3, { preFilterMsg: '', postFilterMsg: '' }, [r.filter.get('n1')!, r.filter.get('n3')!]), `0/3 nodes are available: 2 ${ERR_REASON_NODE_CONFLICT}.`);
  });

  it('WaitForFirstConsumer without a provisioner: only nodes with a free matching local volume', () => {
    const pvs = [volume('small', 'n1', 'local', '500Mi'), volume('a', 'n2'), volume('taken', 'n3')];
    pvs[2]!.spec!.claimRef = { namespace: 'default', name: 'other' };
    const r = run(withClaims('c'), [claim('c', 'local')], pvs);
    assert.deepEqual(fits(r), ['n2']);
    assert.deepEqual(r.filter.get('n1')!.reasons, [ERR_REASON_BIND_CONFLICT]);
  });

  it('WaitForFirstConsumer with a provisioner fits everywhere; a selected node fits only there', () => {
    assert.deepEqual(fits(run(withClaims('c'), [claim('c', 'standard')], [])), ['n1', 'n2', 'n3']);
    assert.deepEqual(fits(run(withClaims('c'), [claim('c', 'standard', {}, { [SELECTED_NODE_ANNOTATION]: 'n3' })], [])), ['n3']);
  });

  it('Reserve/PreBind: sets selected-node on a claim to provision and waits until it is bound', async () => {
    const c = claim('c', 'standard');
    const pvs: PersistentVolume[] = [];
    const r = run(withClaims('c'), [c], pvs);
    r.client.put(R.persistentvolumeclaims, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...structuredClone(c) } as never);
    const pod = withClaims('c');
    assert.ok(r.pl.reserve(r.state, pod, 'n2').isSuccess());
    // While the first pod is in flight, another pod of the same claim only fits n2.
    const other = newState();
    r.pl.preFilter(other, pod);
    assert.deepEqual(nodes.filter((n) => r.pl.filter(other, pod, n).isSuccess()).map((n) => n.name), ['n2']);
    const done = r.pl.preBind(r.state, pod, 'n2');
    await new Promise((res) => setImmediate(res));
    const patch = r.client.actions.find((a) => a.verb === 'patch' && a.resource === R.persistentvolumeclaims.resource);
    assert.deepEqual((patch?.body as { metadata: { annotations: Record<string, string> } }).metadata.annotations, { [SELECTED_NODE_ANNOTATION]: 'n2' });
    // The provisioner and the PV controller bind it; PreBind notices on its next poll.
    mut(c.metadata).annotations = { [SELECTED_NODE_ANNOTATION]: 'n2' };
    mut(c.spec).volumeName = 'pvc-uid-c';
    mut(c).status = { phase: 'Bound' };
    mut(c.metadata).resourceVersion = '2';
    pvs.push(volume('pvc-uid-c', 'n2', 'standard'));
    await testClock(r).advance(1000);
    const st = await done;
    assert.ok(st.isSuccess(), st.message());
  });

  it('PreBind fails when the provisioner gives the node up', async () => {
    const c = claim('c', 'standard');
    const r = run(withClaims('c'), [c], []);
    r.client.put(R.persistentvolumeclaims, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...structuredClone(c) } as never);
    assert.ok(r.pl.reserve(r.state, withClaims('c'), 'n1').isSuccess());
    const done = r.pl.preBind(r.state, withClaims('c'), 'n1');
    await new Promise((res) => setImmediate(res));
    // The informer's copy is still the one before our patch: PreBind keeps waiting.
    await testClock(r).advance(1000);
    // A newer copy without the annotation: the provisioner rescheduled the claim.
    mut(c.metadata).resourceVersion = '9';
    await testClock(r).advance(1000);
    const st = await done;
    assert.equal(st.code, 'Error');
    assert.equal(st.message(), 'provisioning failed for PVC "c"');
  });

  it('Reserve with every claim bound has nothing to do in PreBind', async () => {
    const r = run(withClaims('c'), [claim('c', 'standard', { volumeName: 'pv1' })], [volume('pv1', 'n1')]);
    assert.ok(r.pl.reserve(r.state, withClaims('c'), 'n1').isSuccess());
    assert.ok((await r.pl.preBind(r.state, withClaims('c'), 'n1')).isSuccess());
    assert.equal(r.client.actions.length, 0);
  });
});
