// Issue 10 storage, in process: control plane + controller-manager + scheduler + node agent on two Windows nodes.
// A ReadWriteOnce disk in use on one node is not attached to the other (the attach/detach controller's Multi-Attach
// warning on the waiting pod) until the first pod is gone, then the second pod runs and sees the first one's files.
// A deleted volume's data goes with it when its reclaim policy is Delete (DeleteVolume), and stays with Retain.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { KubeObject } from '../../src/api/types.js';
import type { Client } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { InformerFactory } from '../../src/client/informer.js';
import { ensureDefaultStorageClass } from '../../src/cluster/storage-class.js';
import { ControllerManager } from '../../src/controllers/manager.js';
import { NodeAgent } from '../../src/node/agent.js';
import { windowsProfile } from '../../src/node/fleet-defaults.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { RealClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/log.js';
import { startControlPlane, type TestControlPlane } from './helpers.js';

let t: TestControlPlane;
let client: Client;
let cm: ControllerManager;
let scheduler: Scheduler;
let agent: NodeAgent;
let informers: InformerFactory;
const clock = new RealClock();

before(async () => {
  t = await startControlPlane(clock);
  client = t.cp.client({ name: 'kubernetes-admin', groups: ['system:masters'] });
  await ensureDefaultStorageClass(client);
  cm = new ControllerManager({ client, clock, logger: silentLogger });
  await cm.start();
  informers = new InformerFactory({ client, clock, logger: silentLogger });
  scheduler = new Scheduler({ client, informers, clock, logger: silentLogger });
  await scheduler.start();
  agent = new NodeAgent({
    client, clock, logger: silentLogger,
    profiles: [windowsProfile('win-a', 1, '10.0.20348'), windowsProfile('win-b', 2, '10.0.20348')],
  });
  await agent.start();
});
after(async () => {
  agent?.stop();
  scheduler?.stop();
  informers?.stop();
  cm?.stop();
  await t?.stop();
});

async function until<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const obj = (o: unknown) => o as KubeObject;
const phase = async (name: string) => ((await client.get(R.pods, 'default', name)) as { status?: { phase?: string } }).status?.phase;
const gone = async (r: (typeof R)[keyof typeof R], ns: string | undefined, name: string) => !(await client.list(r, ns)).items.some((x) => x.metadata.name === name);
const pod = (name: string, node: string, claim: string) => obj({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: {
    nodeSelector: { 'kubernetes.io/hostname': node },
    automountServiceAccountToken: false,
    containers: [{ name: 'app', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['powershell', '-Command', 'Start-Sleep 3600'], volumeMounts: [{ name: 'd', mountPath: 'C:\\data' }] }],
    volumes: [{ name: 'd', persistentVolumeClaim: { claimName: claim } }],
  },
});

async function execOut(podName: string, node: string, argv: string[]): Promise<string> {
  let out = '';
  const r = agent.kubelet(node)!.exec('default', podName, 'app', argv, { stdout: (c) => (out += c.toString()), stderr: (c) => (out += c.toString()) });
  assert.ok(r, 'container running');
  await r;
  return out;
}

async function deletePod(name: string): Promise<void> {
  await client.delete(R.pods, 'default', name, { gracePeriodSeconds: 0 });
  await until(() => gone(R.pods, 'default', name), `pod ${name} gone`);
}

interface Ev { reason: string; message: string; source?: { component?: string }; involvedObject: { name: string } }
const eventsOf = async (name: string) => ((await client.list(R.events, 'default')).items as unknown as Ev[]).filter((e) => e.involvedObject.name === name);

test('a ReadWriteOnce disk used on win-a waits with kube\'s Multi-Attach warning on win-b, then moves there with its files', async () => {
  await client.create(R.persistentvolumeclaims, 'default', obj({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'rwo', namespace: 'default' }, spec: { storageClassName: 'managed-csi', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
  await client.create(R.pods, 'default', pod('first', 'win-a', 'rwo'));
  await until(async () => (await phase('first')) === 'Running', 'first Running');
  await execOut('first', 'win-a', ['cmd', '/c', 'echo from-a> C:\\data\\note.txt']);
  const pvName = ((await client.get(R.persistentvolumeclaims, 'default', 'rwo')) as { spec?: { volumeName?: string } }).spec!.volumeName!;

  await client.create(R.pods, 'default', pod('second', 'win-b', 'rwo'));
  const warn = await until(async () => (await eventsOf('second')).find((e) => e.reason === 'FailedAttachVolume'), 'FailedAttachVolume on second');
  assert.equal(warn.message, `Multi-Attach error for volume "${pvName}" Volume is already used by pod(s) first`);
  assert.equal(warn.source?.component, 'attachdetach-controller');
  assert.equal(await phase('second'), 'Pending');
  const vas = (await client.list(R.volumeattachments, undefined)).items as unknown as { spec: { nodeName: string } }[];
  assert.deepEqual(vas.map((va) => va.spec.nodeName), ['win-a']);

  await deletePod('first');
  await until(async () => (await phase('second')) === 'Running', 'second Running on win-b', 30_000);
  assert.match(await execOut('second', 'win-b', ['cmd', '/c', 'type C:\\data\\note.txt']), /^from-a\s*$/);
  await deletePod('second');
});

/**
 * A disk `handle` bound to claim `claim` through a PV named `pv` with the given policy; `provisioned` marks it as the
 * driver's own (pv.kubernetes.io/provisioned-by), which external-provisioner alone deletes.
 */
async function staticDisk(pv: string, claim: string, handle: string, reclaim: 'Delete' | 'Retain', provisioned = false): Promise<void> {
  await client.create(R.persistentvolumes, undefined, obj({
    apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: pv, ...(provisioned ? { annotations: { 'pv.kubernetes.io/provisioned-by': 'disk.csi.azure.com' } } : {}) },
    spec: {
      capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: reclaim, storageClassName: '',
      csi: { driver: 'disk.csi.azure.com', volumeHandle: handle, fsType: 'ntfs' },
      claimRef: { namespace: 'default', name: claim },
    },
  }));
  await client.create(R.persistentvolumeclaims, 'default', obj({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: claim, namespace: 'default' }, spec: { storageClassName: '', volumeName: pv, accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
}

for (const [reclaim, kept] of [['Delete', false], ['Retain', true]] as const) {
  test(`reclaimPolicy ${reclaim}: a new volume on the same disk handle ${kept ? 'still has' : 'no longer has'} the old files`, async () => {
    const handle = `/subscriptions/winkube/resourceGroups/winkube/providers/Microsoft.Compute/disks/reuse-${reclaim.toLowerCase()}`;
    const tag = reclaim.toLowerCase();
    await staticDisk(`old-${tag}`, `old-${tag}`, handle, reclaim, true);
    await client.create(R.pods, 'default', pod(`writer-${tag}`, 'win-a', `old-${tag}`));
    await until(async () => (await phase(`writer-${tag}`)) === 'Running', 'writer Running');
    await execOut(`writer-${tag}`, 'win-a', ['cmd', '/c', 'echo old> C:\\data\\old.txt']);
    await deletePod(`writer-${tag}`);
    await client.delete(R.persistentvolumeclaims, 'default', `old-${tag}`);
    if (reclaim === 'Retain') {
      await until(async () => ((await client.get(R.persistentvolumes, undefined, `old-${tag}`)) as { status?: { phase?: string } }).status?.phase === 'Released', 'Released');
      await client.delete(R.persistentvolumes, undefined, `old-${tag}`); // the administrator lets the object go, keeping the disk
    }
    await until(() => gone(R.persistentvolumes, undefined, `old-${tag}`), 'old PV gone').catch(async (e) => { throw new Error(`${(e as Error).message} ${JSON.stringify(await client.get(R.persistentvolumes, undefined, `old-${tag}`))}`); });
    await staticDisk(`new-${tag}`, `new-${tag}`, handle, 'Retain');
    await client.create(R.pods, 'default', pod(`reader-${tag}`, 'win-b', `new-${tag}`));
    await until(async () => (await phase(`reader-${tag}`)) === 'Running', 'reader Running');
    const out = await execOut(`reader-${tag}`, 'win-b', ['cmd', '/c', 'dir /b C:\\data']);
    assert.equal(/old\.txt/.test(out), kept, out);
    await deletePod(`reader-${tag}`);
  });
}

// pv_controller.go findDeletablePlugin: a CSI volume nobody provisioned has no deleter; it goes Failed and its disk stays.
test('reclaimPolicy Delete on a volume no provisioner made: Failed with VolumeFailedDelete, the disk kept', async () => {
  await staticDisk('static-del', 'static-del', '/subscriptions/winkube/resourceGroups/winkube/providers/Microsoft.Compute/disks/static-del', 'Delete');
  await until(async () => ((await client.get(R.persistentvolumes, undefined, 'static-del')) as { status?: { phase?: string } }).status?.phase === 'Bound', 'Bound');
  await client.delete(R.persistentvolumeclaims, 'default', 'static-del');
  const message = 'error getting deleter volume plugin for volume "static-del": no deletable volume plugin matched';
  await until(async () => {
    const v = (await client.get(R.persistentvolumes, undefined, 'static-del')) as { status?: { phase?: string; message?: string } };
    return v.status?.phase === 'Failed' && v.status.message === message;
  }, 'Failed with the deleter message');
  await until(async () => ((await client.list(R.events, 'default')).items as { reason?: string; message?: string; involvedObject?: { name?: string } }[])
    .some((e) => e.reason === 'VolumeFailedDelete' && e.message === message && e.involvedObject?.name === 'static-del'), 'VolumeFailedDelete event');
});
