import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { PersistentVolumeBinder, SELECTED_NODE_ANNOTATION, type PVCObj, type PVObj } from './binder.js';
import { COMPONENT, LocalPathProvisioner, PROVISIONER } from './local-path.js';
import type { KubeObject } from '../../api/types.js';

const pvc = (name: string, storageClassName: string, extra: Partial<PVCObj['metadata']> = {}): PVCObj => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: NS, uid: `uid-${name}`, ...extra },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName, volumeMode: 'Filesystem' },
  status: { phase: 'Pending' },
});
const pv = (name: string, size: string, reclaim = 'Retain'): PVObj => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: size }, storageClassName: 'manual', persistentVolumeReclaimPolicy: reclaim, hostPath: { path: `/mnt/${name}` }, volumeMode: 'Filesystem' },
  status: { phase: 'Pending' },
});
const sc = (name: string, mode: string) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: PROVISIONER, reclaimPolicy: 'Delete', volumeBindingMode: mode }) as unknown as KubeObject;

async function setup(seed: (h: ReturnType<typeof newHarness>) => void) {
  const h = newHarness();
  seed(h);
  const cs = [new PersistentVolumeBinder({ ...h, recorder: h.recorder }), new LocalPathProvisioner({ ...h, recorder: h.recorder })];
  await h.sync();
  await drain(cs);
  return { h, cs };
}

describe('volume controllers', () => {
  it('binds a claim to the smallest matching volume; Retain keeps it Released when the claim goes', async () => {
    const { h, cs } = await setup((h) => {
      h.client.seed(R.persistentvolumes, pv('big', '10Gi'));
      h.client.seed(R.persistentvolumes, pv('small', '2Gi'));
      h.client.seed(R.persistentvolumeclaims, pvc('c', 'manual'));
    });
    await drain(cs);
    const c = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'c')!;
    assert.equal(c.spec?.volumeName, 'small');
    assert.equal(c.status?.phase, 'Bound');
    assert.equal(c.status?.capacity?.storage, '2Gi');
    assert.equal(h.client.peek<PVObj>(R.persistentvolumes, undefined, 'small')!.status?.phase, 'Bound');
    assert.equal(h.client.peek<PVObj>(R.persistentvolumes, undefined, 'big')!.status?.phase, 'Available');
    await h.client.delete(R.persistentvolumeclaims, NS, 'c');
    await drain(cs);
    await drain(cs);
    assert.equal(h.client.peek<PVObj>(R.persistentvolumes, undefined, 'small')!.status?.phase, 'Released');
  });

  it('WaitForFirstConsumer: waits for the scheduler\'s node, then provisions there; Delete removes the volume with the claim', async () => {
    const { h, cs } = await setup((h) => {
      h.client.seed(R.storageclasses, sc('standard', 'WaitForFirstConsumer'));
      h.client.seed(R.persistentvolumeclaims, pvc('data', 'standard'));
    });
    assert.ok(h.recorder.events.includes('Normal WaitForFirstConsumer waiting for first consumer to be created before binding'));
    // What the scheduler's VolumeBinding plugin writes when it places the consumer.
    await h.client.patch(R.persistentvolumeclaims, NS, 'data', 'merge', { metadata: { annotations: { [SELECTED_NODE_ANNOTATION]: 'n1' } } });
    for (let i = 0; i < 4; i++) await drain(cs);
    const c = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!;
    assert.equal(c.spec?.volumeName, 'pvc-uid-data');
    assert.equal(c.status?.phase, 'Bound');
    const v = h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data')!;
    assert.equal(v.spec?.persistentVolumeReclaimPolicy, 'Delete');
    assert.deepEqual(v.spec?.nodeAffinity?.required?.nodeSelectorTerms[0].matchExpressions?.[0].values, ['n1']);
    assert.ok(h.recorder.events.includes('Normal ProvisioningSucceeded Successfully provisioned volume pvc-uid-data'));
    await h.client.delete(R.persistentvolumeclaims, NS, 'data');
    for (let i = 0; i < 4; i++) await drain(cs);
    assert.equal(h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data'), undefined);
  });

  it('WaitForFirstConsumer: a pod placed by spec.nodeName (no scheduler) leaves the claim Pending, as kind\'s provisioner does', async () => {
    const { h, cs } = await setup((h) => {
      h.client.seed(R.storageclasses, sc('standard', 'WaitForFirstConsumer'));
      h.client.seed(R.persistentvolumeclaims, pvc('data', 'standard'));
    });
    await h.client.create(R.pods, NS, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: NS },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
    } as unknown as KubeObject);
    for (let i = 0; i < 4; i++) await drain(cs);
    const c = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!;
    assert.equal(c.metadata.annotations?.[SELECTED_NODE_ANNOTATION], undefined);
    assert.equal(c.spec?.volumeName, undefined);
    assert.equal(c.status?.phase, 'Pending');
    assert.deepEqual((await h.client.list(R.persistentvolumes, undefined)).items, []);
  });

  it('Immediate: no node to put the directory on, so provisioning fails with the provisioner\'s text', async () => {
    const { h, cs } = await setup((h) => {
      h.client.seed(R.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } as unknown as KubeObject);
      h.client.seed(R.storageclasses, sc('now', 'Immediate'));
      h.client.seed(R.persistentvolumeclaims, pvc('data', 'now'));
    });
    for (let i = 0; i < 4; i++) await drain(cs);
    assert.equal(h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!.status?.phase, 'Pending');
    assert.deepEqual(h.recorder.events.filter((e) => / Provisioning(Failed)? /.test(e)), [
      'Normal Provisioning External provisioner is provisioning volume for claim "default/data"',
      'Warning ProvisioningFailed failed to provision volume with StorageClass "now": configuration error, no node was specified',
    ]);
  });

  it('the event source is the provisioner pod\'s identity: rancher.io/local-path_<pod name>_<uuid>', () => {
    assert.match(COMPONENT, /^rancher\.io\/local-path_local-path-provisioner-[bcdfghjklmnpqrstvwxz2456789]{10}-[bcdfghjklmnpqrstvwxz2456789]{5}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
