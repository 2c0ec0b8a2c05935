import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import type { PVCObj, PVObj } from './binder.js';
import { podUsesClaim, PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER, PVCProtectionController, PVProtectionController } from './protection.js';

const pvc = (name: string): PVCObj => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: NS },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' },
});
const pod = (name: string, claim: string, nodeName?: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS },
  spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: claim } }] },
}) as unknown as KubeObject;

describe('pvc-protection', () => {
  it('adds the finalizer, and holds a deleted claim until no scheduled pod uses it', async () => {
    const h = newHarness();
    h.client.seed(R.persistentvolumeclaims, pvc('data'));
    h.client.seed(R.pods, pod('user', 'data', 'n1'));
    h.client.seed(R.pods, pod('pending', 'data'));
    const c = new PVCProtectionController(h);
    await h.sync();
    await drain([c]);
    assert.deepEqual(h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!.metadata.finalizers, [PVC_PROTECTION_FINALIZER]);
    await h.client.delete(R.persistentvolumeclaims, NS, 'data');
    await drain([c]);
    const held = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data');
    assert.ok(held?.metadata.deletionTimestamp, 'Terminating while the pod uses it');
    assert.deepEqual(held.metadata.finalizers, [PVC_PROTECTION_FINALIZER]);
    await h.client.delete(R.pods, NS, 'user');
    await drain([c]);
    // An unscheduled pod does not hold the claim: the kubelet never starts a pod on a deleted claim.
    assert.equal(h.client.peek(R.persistentvolumeclaims, NS, 'data'), undefined);
  });

  it('podUsesClaim: scheduled pods of the same namespace only; ephemeral claims until the pod finishes', () => {
    assert.equal(podUsesClaim(pod('a', 'x', 'n1') as never, NS, 'x'), true);
    assert.equal(podUsesClaim(pod('a', 'x') as never, NS, 'x'), false);
    assert.equal(podUsesClaim(pod('a', 'x', 'n1') as never, 'other', 'x'), false);
    const eph = { metadata: { name: 'p', namespace: NS }, spec: { nodeName: 'n1', containers: [], volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: {} } } }] }, status: { phase: 'Running' } };
    assert.equal(podUsesClaim(eph as never, NS, 'p-v'), true);
    assert.equal(podUsesClaim({ ...eph, status: { phase: 'Succeeded' } } as never, NS, 'p-v'), false);
  });
});

describe('pv-protection', () => {
  it('adds the finalizer, and holds a deleted volume while it is Bound', async () => {
    const h = newHarness();
    h.client.seed(R.persistentvolumes, {
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/mnt/v' } }, status: { phase: 'Bound' },
    } as PVObj);
    const c = new PVProtectionController(h);
    await h.sync();
    await drain([c]);
    assert.deepEqual(h.client.peek<PVObj>(R.persistentvolumes, undefined, 'v')!.metadata.finalizers, [PV_PROTECTION_FINALIZER]);
    await h.client.delete(R.persistentvolumes, undefined, 'v');
    await drain([c]);
    const held = h.client.peek<PVObj>(R.persistentvolumes, undefined, 'v')!;
    assert.ok(held.metadata.deletionTimestamp);
    await h.client.update(R.persistentvolumes, undefined, { ...held, status: { phase: 'Released' } } as PVObj, { subresource: 'status' });
    await drain([c]);
    assert.equal(h.client.peek(R.persistentvolumes, undefined, 'v'), undefined);
  });
});
