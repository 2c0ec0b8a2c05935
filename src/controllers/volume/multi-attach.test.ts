import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../api/types.js';
import { R } from '../../client/resources.js';
import { csiDriverObject } from '../../cluster/csi-drivers.js';
import { csiUniqueVolumeName, DISK_DRIVER } from '../../csi/drivers.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { AttachDetachController, attachmentName, type VolumeAttachmentObj } from './attach-detach.js';
import { CsiAttacher } from './csi-attacher.js';
import { multiAttachAllowed, multiAttachMessage } from './multi-attach.js';

const obj = (o: unknown) => o as KubeObject;
const HANDLE = '/subscriptions/winkube/resourceGroups/winkube/providers/Microsoft.Compute/disks/disk-1';

describe('multiAttachAllowed (pkg/volume/util/util.go IsMultiAttachAllowed)', () => {
  const cases: [string[] | undefined, boolean][] = [
    [undefined, true], [[], true], [['ReadWriteOnce'], false], [['ReadWriteOncePod'], false],
    [['ReadWriteMany'], true], [['ReadOnlyMany'], true], [['ReadWriteOnce', 'ReadOnlyMany'], true],
  ];
  for (const [modes, want] of cases) {
    it(`${JSON.stringify(modes)} → ${want}`, () => {
      assert.equal(multiAttachAllowed({ spec: { accessModes: modes } } as PersistentVolume), want);
    });
  }
});

describe('multiAttachMessage (attachdetach/reconciler/reconciler.go reportMultiAttachError)', () => {
  const cases: [string, { namespace: string; name: string }[], string][] = [
    ['no holder left', [], 'Multi-Attach error for volume "pv-a" Volume is already exclusively attached to one node and can\'t be attached to another'],
    ['holders in the namespace', [{ namespace: 'ns', name: 'a' }, { namespace: 'ns', name: 'b' }], 'Multi-Attach error for volume "pv-a" Volume is already used by pod(s) a, b'],
    ['local and foreign holders', [{ namespace: 'ns', name: 'a' }, { namespace: 'x', name: 'z' }], 'Multi-Attach error for volume "pv-a" Volume is already used by pod(s) a and 1 pod(s) in different namespaces'],
    ['foreign holders only', [{ namespace: 'x', name: 'z' }, { namespace: 'y', name: 'w' }], 'Multi-Attach error for volume "pv-a" Volume is already used by 2 pod(s) in different namespaces'],
  ];
  for (const [title, holders, want] of cases) it(title, () => assert.equal(multiAttachMessage('pv-a', 'ns', holders), want));
});

const node = (name: string, volumesInUse?: string[]) => obj({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: volumesInUse ? { volumesInUse } : {} });
const pod = (name: string, nodeName: string) => obj({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, uid: `pod-${name}` },
  spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
  status: { phase: 'Running' },
});

/** A bound disk claim `data` on PV `disk-1` with the given access modes, and two nodes. */
async function setup(accessModes: string[]) {
  const h = newHarness();
  h.client.seed(R.csidrivers, obj(csiDriverObject(DISK_DRIVER)));
  h.client.seed(R.nodes, node('win-1'));
  h.client.seed(R.nodes, node('win-2'));
  h.client.seed(R.persistentvolumes, obj({
    apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'disk-1' },
    spec: { accessModes, capacity: { storage: '1Gi' }, csi: { driver: DISK_DRIVER.name, volumeHandle: HANDLE }, claimRef: { namespace: NS, name: 'data', uid: 'uid-data' } },
    status: { phase: 'Bound' },
  }));
  h.client.seed(R.persistentvolumeclaims, obj({
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: NS, uid: 'uid-data' },
    spec: { accessModes, resources: { requests: { storage: '1Gi' } }, volumeName: 'disk-1' }, status: { phase: 'Bound' },
  }));
  const cs = [new AttachDetachController({ ...h, recorder: h.recorder }), new CsiAttacher(h)];
  await h.sync();
  const settle = async () => { for (let i = 0; i < 6; i++) await drain(cs); };
  const va = (n: string) => h.client.peek<VolumeAttachmentObj>(R.volumeattachments, undefined, attachmentName(HANDLE, DISK_DRIVER.name, n));
  const warnings = () => h.recorder.events.filter((e) => e.startsWith('Warning FailedAttachVolume'));
  return { h, settle, va, warnings };
}

describe('attach/detach controller: one node at a time for exclusive volumes', () => {
  it('a ReadWriteOnce disk used on win-1 is not attached to win-2; the pod there is told who holds it, then attaches once win-1 lets go', async () => {
    const { h, settle, va, warnings } = await setup(['ReadWriteOnce']);
    await h.client.create(R.pods, NS, pod('first', 'win-1'));
    await settle();
    assert.equal(va('win-1')?.status?.attached, true);
    await h.client.create(R.pods, NS, pod('second', 'win-2'));
    await settle();
    assert.equal(va('win-2'), undefined);
    assert.deepEqual(warnings(), ['Warning FailedAttachVolume Multi-Attach error for volume "disk-1" Volume is already used by pod(s) first']);
    // Reported once, not on every retry.
    await h.client.patch(R.pods, NS, 'second', 'merge', { metadata: { labels: { touched: 'yes' } } });
    await settle();
    assert.equal(warnings().length, 1);
    await h.client.delete(R.pods, NS, 'first');
    await settle();
    assert.equal(va('win-1'), undefined);
    assert.equal(va('win-2')?.status?.attached, true);
    assert.ok(h.recorder.events.includes('Normal SuccessfulAttachVolume AttachVolume.Attach succeeded for volume "disk-1" '));
  });

  it('a volume still mounted on win-1 after its pod went (node volumesInUse) stays there: "exclusively attached"', async () => {
    const { h, settle, va, warnings } = await setup(['ReadWriteOncePod']);
    await h.client.create(R.pods, NS, pod('first', 'win-1'));
    await settle();
    await h.client.patch(R.nodes, undefined, 'win-1', 'merge', { status: { volumesInUse: [csiUniqueVolumeName(DISK_DRIVER.name, HANDLE)] } }, { subresource: 'status' });
    await h.client.delete(R.pods, NS, 'first');
    await h.client.create(R.pods, NS, pod('second', 'win-2'));
    await settle();
    assert.ok(va('win-1'));
    assert.equal(va('win-2'), undefined);
    assert.deepEqual(warnings(), ['Warning FailedAttachVolume Multi-Attach error for volume "disk-1" Volume is already exclusively attached to one node and can\'t be attached to another']);
    // The kubelet unmounts: the volume detaches from win-1 and attaches to win-2.
    await h.client.patch(R.nodes, undefined, 'win-1', 'merge', { status: { volumesInUse: null } }, { subresource: 'status' });
    await settle();
    assert.equal(va('win-1'), undefined);
    assert.equal(va('win-2')?.status?.attached, true);
  });

  it('a ReadWriteMany volume attaches to both nodes', async () => {
    const { h, settle, va, warnings } = await setup(['ReadWriteMany']);
    await h.client.create(R.pods, NS, pod('first', 'win-1'));
    await h.client.create(R.pods, NS, pod('second', 'win-2'));
    await settle();
    assert.equal(va('win-1')?.status?.attached, true);
    assert.equal(va('win-2')?.status?.attached, true);
    assert.deepEqual(warnings(), []);
  });
});
