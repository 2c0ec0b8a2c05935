import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { PersistentVolumeBinder, SELECTED_NODE_ANNOTATION, type PVCObj, type PVObj } from './binder.js';
import { COMPONENT, LocalPathProvisioner, PROVISIONER } from './local-path.js';
import type { KubeObject } from '../../api/types.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { CONFIG_MAP, NAMESPACE, defaultConfigMap } from './local-path-config.js';

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

/**
 * Drains the controllers while standing in for the node: every helper pod local-path creates ends in `phase`, and the
 * fake clock moves on a second at a time, as the provisioner's poll does. Returns the helper pods seen, by name.
 */
async function drainWithNode(h: ReturnType<typeof newHarness>, cs: Parameters<typeof drain>[0], phase = 'Succeeded'): Promise<Set<string>> {
  const seen = new Set<string>();
  let done = false;
  const run = (async () => { for (let i = 0; i < 4; i++) await drain(cs); })().finally(() => { done = true; });
  while (!done) {
    for (const p of (await h.client.list<Pod & KubeObject>(R.pods, NAMESPACE)).items) {
      seen.add(p.metadata!.name!);
      if (!p.status?.phase) await h.client.update(R.pods, NAMESPACE, { ...p, status: { phase } } as KubeObject, { subresource: 'status' });
    }
    await h.clock.advance(1000);
    await new Promise<void>((r) => setImmediate(r));
  }
  await run;
  return seen;
}

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
      h.client.seed(R.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } as unknown as KubeObject);
      h.client.seed(R.storageclasses, sc('standard', 'WaitForFirstConsumer'));
      h.client.seed(R.persistentvolumeclaims, pvc('data', 'standard'));
    });
    assert.ok(h.recorder.events.includes('Normal WaitForFirstConsumer waiting for first consumer to be created before binding'));
    // What the scheduler's VolumeBinding plugin writes when it places the consumer.
    await h.client.patch(R.persistentvolumeclaims, NS, 'data', 'merge', { metadata: { annotations: { [SELECTED_NODE_ANNOTATION]: 'n1' } } });
    // provisioner.go createHelperPod: a helper pod made the directory on the node first, and went when it succeeded.
    assert.deepEqual([...await drainWithNode(h, cs)], ['helper-pod-create-pvc-uid-data']);
    assert.equal((await h.client.list(R.pods, NAMESPACE)).items.length, 0);
    const c = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!;
    assert.equal(c.spec?.volumeName, 'pvc-uid-data');
    assert.equal(c.status?.phase, 'Bound');
    const v = h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data')!;
    assert.equal(v.spec?.persistentVolumeReclaimPolicy, 'Delete');
    assert.deepEqual(v.spec?.nodeAffinity?.required?.nodeSelectorTerms[0].matchExpressions?.[0].values, ['n1']);
    assert.ok(h.recorder.events.includes('Normal ProvisioningSucceeded Successfully provisioned volume pvc-uid-data'));
    assert.equal(v.spec?.hostPath?.path, '/var/local-path-provisioner/pvc-uid-data_default_data');
    await h.client.delete(R.persistentvolumeclaims, NS, 'data');
    assert.deepEqual([...await drainWithNode(h, cs)], ['helper-pod-delete-pvc-uid-data']);
    assert.equal(h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data'), undefined);
  });

  it('a helper pod that fails is waited for until cmdTimeoutSeconds, then deleted; the claim gets the provisioner\'s text', async () => {
    const { h, cs } = await setup((h) => {
      h.client.seed(R.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } as unknown as KubeObject);
      const cm = defaultConfigMap();
      cm.data!['config.json'] = JSON.stringify({ cmdTimeoutSeconds: 3, nodePathMap: [{ node: 'DEFAULT_PATH_FOR_NON_LISTED_NODES', paths: ['/opt/lp'] }] });
      h.client.seed(R.configmaps, cm as unknown as KubeObject);
      h.client.seed(R.storageclasses, sc('standard', 'WaitForFirstConsumer'));
      h.client.seed(R.persistentvolumeclaims, pvc('data', 'standard'));
    });
    assert.equal(h.client.peek(R.configmaps, NAMESPACE, CONFIG_MAP) !== undefined, true);
    await h.client.patch(R.persistentvolumeclaims, NS, 'data', 'merge', { metadata: { annotations: { [SELECTED_NODE_ANNOTATION]: 'n1' } } });
    const seen = await drainWithNode(h, cs, 'Failed');
    assert.deepEqual([...seen], ['helper-pod-create-pvc-uid-data']);
    assert.equal((await h.client.list(R.pods, NAMESPACE)).items.length, 0, 'deleted after the timeout');
    assert.equal(h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!.spec?.volumeName, undefined);
    // sig-storage-lib-external-provisioner: `failed to provision volume with StorageClass %q: %v`.
    assert.ok(h.recorder.events.includes('Warning ProvisioningFailed failed to provision volume with StorageClass "standard": failed to create volume pvc-uid-data: create process timeout after 3 seconds'), h.recorder.events.join('\n'));
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
