// Issue 10 storage, in process: control plane + controller-manager + scheduler + node agent on a small mixed fleet.
// A CSI claim on Windows is provisioned, attached (VolumeAttachment), mounted; a file written through exec is there
// after the pod is deleted and recreated on the other Windows node; a node without csi-proxy fails the mount.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { KubeObject } from '../../src/api/types.js';
import type { Client } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { InformerFactory } from '../../src/client/informer.js';
import { ensureDefaultStorageClass } from '../../src/cluster/storage-class.js';
import { ControllerManager } from '../../src/controllers/manager.js';
import { NodeAgent } from '../../src/node/agent.js';
import { linuxProfile, windowsProfile } from '../../src/node/fleet-defaults.js';
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
    profiles: [linuxProfile('lin', 0), windowsProfile('win-a', 1, '10.0.20348'), windowsProfile('win-b', 2, '10.0.20348'), windowsProfile('win-noproxy', 3, '10.0.20348', { csiProxy: 'none' })],
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

async function until<T>(fn: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const get = <T>(r: (typeof R)[keyof typeof R], ns: string | undefined, name: string) => client.get(r, ns, name) as Promise<T & KubeObject>;
const pod = (name: string, node: string, claim: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: {
    nodeSelector: { 'kubernetes.io/hostname': node },
    // No kube-root-ca.crt without a cluster CA here: the token volume would never mount.
    automountServiceAccountToken: false,
    containers: [{ name: 'app', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['powershell', '-Command', 'Start-Sleep 3600'], volumeMounts: [{ name: 'd', mountPath: 'C:\\data' }] }],
    volumes: [{ name: 'd', persistentVolumeClaim: { claimName: claim } }],
  },
}) as unknown as KubeObject;

async function execOut(podName: string, node: string, argv: string[]): Promise<string> {
  let out = '';
  const r = agent.kubelet(node)!.exec('default', podName, 'app', argv, { stdout: (c) => (out += c.toString()), stderr: (c) => (out += c.toString()) });
  assert.ok(r, 'container running');
  await r;
  return out;
}

test('registration: CSINodes per node; the node without csi-proxy lists no driver', async () => {
  const a = await until(() => get<{ spec: { drivers: { name: string }[] } }>(R.csinodes, undefined, 'win-a'), 'CSINode win-a');
  assert.deepEqual(a.spec.drivers.map((d) => d.name), ['smb.csi.k8s.io', 'disk.csi.azure.com', 'file.csi.azure.com']);
  const none = await until(() => get<{ spec: { drivers: unknown[] | null } }>(R.csinodes, undefined, 'win-noproxy'), 'CSINode win-noproxy');
  assert.deepEqual(none.spec.drivers ?? [], []);
  assert.ok((await client.list(R.csidrivers, undefined)).items.length >= 3);
});

test('a managed-csi claim on Windows: provisioned, attached, mounted; its files follow it to another node', async () => {
  await client.create(R.persistentvolumeclaims, 'default', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { storageClassName: 'managed-csi', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } as unknown as KubeObject);
  await client.create(R.pods, 'default', pod('p', 'win-a', 'data'));
  await until(async () => (await get<{ status: { phase?: string } }>(R.pods, 'default', 'p')).status.phase === 'Running', 'pod p Running').catch(async (e) => {
    const evs = ((await client.list(R.events, 'default')).items as unknown as { reason: string; message: string }[]).map((x) => `${x.reason}: ${x.message}`);
    const c = await get(R.persistentvolumeclaims, 'default', 'data');
    throw new Error(`${(e as Error).message}\n${evs.join('\n')}\n${JSON.stringify(c)}\n${JSON.stringify((await client.list(R.volumeattachments, undefined)).items)}`);
  });
  const claim = await get<{ spec: { volumeName: string } }>(R.persistentvolumeclaims, 'default', 'data');
  const vas = (await client.list(R.volumeattachments, undefined)).items as unknown as { spec: { nodeName: string; source: { persistentVolumeName: string } }; status?: { attached?: boolean } }[];
  assert.ok(vas.some((va) => va.spec.nodeName === 'win-a' && va.spec.source.persistentVolumeName === claim.spec.volumeName && va.status?.attached));
  await execOut('p', 'win-a', ['cmd', '/c', 'echo kept> C:\\data\\note.txt']);
  await client.delete(R.pods, 'default', 'p', { gracePeriodSeconds: 0 });
  await until(async () => !(await client.list(R.pods, 'default')).items.some((x) => x.metadata.name === 'p') || undefined, 'pod p gone');
  await client.create(R.pods, 'default', pod('p2', 'win-b', 'data'));
  await until(async () => (await get<{ status: { phase?: string } }>(R.pods, 'default', 'p2')).status.phase === 'Running', 'pod p2 Running on win-b', 30_000);
  assert.match(await execOut('p2', 'win-b', ['cmd', '/c', 'type C:\\data\\note.txt']), /^kept\s*$/);
  // The attachment moved with the pod.
  await until(async () => {
    const list = (await client.list(R.volumeattachments, undefined)).items as unknown as { spec: { nodeName: string } }[];
    return list.length === 1 && list[0].spec.nodeName === 'win-b';
  }, 'the VolumeAttachment on win-b only');
});

test('no csi-proxy: FailedMount with the kubelet\'s text', async () => {
  await client.create(R.persistentvolumeclaims, 'default', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'share', namespace: 'default' }, spec: { storageClassName: 'smb', accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } } } as unknown as KubeObject);
  await client.create(R.pods, 'default', pod('np', 'win-noproxy', 'share'));
  const ev = await until(async () => ((await client.list(R.events, 'default')).items as unknown as { reason: string; message: string; involvedObject: { name: string } }[])
    .find((e) => e.involvedObject.name === 'np' && e.reason === 'FailedMount'), 'FailedMount');
  assert.match(ev.message, /^MountVolume\.MountDevice failed for volume "pvc-[0-9a-f-]+" : kubernetes\.io\/csi: attacher\.MountDevice failed to create newCsiDriverClient: driver name smb\.csi\.k8s\.io not found in the list of registered CSI drivers$/);
});
