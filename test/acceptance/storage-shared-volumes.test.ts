// Issue 10 acceptance, network storage across node-agent processes with the real kubectl: `winkube up` runs agent A,
// a `winkube node` process joined to it runs agent B with `--volume-dir` on the cluster's volume directory. A file
// written through `kubectl exec` on A's node is read on B's node through an NFS PersistentVolume, and a Windows pod on
// B writes to an SMB share (csi-driver-smb) that a Linux pod on A reads, as with a real NFS/SMB server.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;

let cluster: RunningCluster;
let agentB: ChildProcess | undefined;
let agentOut = '';

const fleet = (prefix: string, octet: number) => `nodes:
  - name: ${prefix}-lin
    os: linux
    internalIP: 172.18.${octet}.10
    podCIDR: 10.244.${octet}0.0/24
  - name: ${prefix}-win
    os: windows
    windowsBuild: 10.0.20348
    internalIP: 172.18.${octet}.11
    podCIDR: 10.244.${octet}1.0/24
`;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-shared-vol-'));
  writeFileSync(join(dir, 'a.yaml'), fleet('a', 1));
  writeFileSync(join(dir, 'b.yaml'), fleet('b', 2));
  cluster = await startCluster({ dataDir: join(dir, 'cluster'), fleet: join(dir, 'a.yaml') });
  // Agent B: another process, pointed at the cluster's volume directory, as two agents sharing one NFS server.
  agentB = spawn(process.execPath, [join(ROOT, 'bin', 'winkube.js'), 'node', '--kubeconfig', cluster.kubeconfig, '--fleet', join(dir, 'b.yaml'),
    '--data-dir', join(dir, 'node-b'), '--volume-dir', join(cluster.dir, 'volumes'), '--log-level', 'warn'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  agentB.stdout!.on('data', (d: Buffer) => (agentOut += d.toString()));
  agentB.stderr!.on('data', (d: Buffer) => (agentOut += d.toString()));
  await eventually(() => /2 nodes joined/.test(agentOut) || (agentB!.exitCode !== null ? Promise.reject(new Error(agentOut)) : undefined), 45_000, 'agent B joined');
});
after(async () => {
  if (agentB && agentB.exitCode === null) {
    const exited = new Promise((r) => agentB!.once('exit', r));
    agentB.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (agentB.exitCode === null) agentB.kill('SIGKILL');
  }
  await cluster?.stop();
});

const linuxPod = (name: string, node: string, claim: string) => `apiVersion: v1
kind: Pod
metadata: { name: ${name} }
spec:
  nodeName: ${node}
  containers: [{ name: app, image: busybox, command: [sleep, '3600'], volumeMounts: [{ name: d, mountPath: /data }] }]
  volumes: [{ name: d, persistentVolumeClaim: { claimName: ${claim} } }]
`;
const windowsPod = (name: string, node: string, claim: string) => `apiVersion: v1
kind: Pod
metadata: { name: ${name} }
spec:
  nodeName: ${node}
  containers:
  - name: app
    image: mcr.microsoft.com/windows/servercore:ltsc2022
    command: [powershell, -Command, 'Start-Sleep 3600']
    volumeMounts: [{ name: d, mountPath: 'C:\\data' }]
  volumes: [{ name: d, persistentVolumeClaim: { claimName: ${claim} } }]
`;
const staticVolume = (name: string, source: string) => `apiVersion: v1
kind: PersistentVolume
metadata: { name: ${name} }
spec:
  capacity: { storage: 1Gi }
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: ''
  claimRef: { namespace: default, name: ${name} }
${source}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: ${name} }
spec: { storageClassName: '', volumeName: ${name}, accessModes: [ReadWriteMany], resources: { requests: { storage: 1Gi } } }
`;

for (const { version, path } of kubectlEnds()) {
  const v = version.replace(/\D/g, '');
  test(`kubectl ${version}: a file written on agent A's node is read on agent B's node through an NFS volume, and back`, async () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    const running = (pod: string) => eventually(() => k.run(['get', 'pod', pod, '-o', 'jsonpath={.status.phase}']).stdout === 'Running' || undefined, 60_000, `${pod} Running`);
    k.ok(['apply', '-f', '-'], staticVolume(`nfs-${v}`, `  nfs: { server: nfs.example.internal, path: /exports/team-${v} }`));
    k.ok(['apply', '-f', '-'], linuxPod(`nfs-a-${v}`, 'a-lin', `nfs-${v}`));
    k.ok(['apply', '-f', '-'], linuxPod(`nfs-b-${v}`, 'b-lin', `nfs-${v}`));
    await running(`nfs-a-${v}`);
    await running(`nfs-b-${v}`);
    k.ok(['exec', `nfs-a-${v}`, '--', 'sh', '-c', 'mkdir -p /data/reports && echo written-on-a > /data/reports/note.txt']);
    assert.equal(k.ok(['exec', `nfs-b-${v}`, '--', 'cat', '/data/reports/note.txt']).trim(), 'written-on-a');
    k.ok(['exec', `nfs-b-${v}`, '--', 'sh', '-c', 'echo appended-on-b >> /data/reports/note.txt && rm -f /data/scratch']);
    assert.equal(k.ok(['exec', `nfs-a-${v}`, '--', 'cat', '/data/reports/note.txt']).trim(), 'written-on-a\nappended-on-b');
    // The export is a plain directory under the cluster's data dir, as on the NFS server.
    const onDisk = join(cluster.dir, 'volumes', 'nfs', 'nfs.example.internal', 'exports', `team-${v}`, 'reports', 'note.txt');
    assert.ok(existsSync(onDisk), onDisk);
    assert.equal(readFileSync(onDisk, 'utf8'), 'written-on-a\nappended-on-b\n');
  });

  test(`kubectl ${version}: a Windows pod on agent B writes to an SMB share a Linux pod on agent A reads`, async () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    const running = (pod: string) => eventually(() => k.run(['get', 'pod', pod, '-o', 'jsonpath={.status.phase}']).stdout === 'Running' || undefined, 60_000, `${pod} Running`);
    k.ok(['apply', '-f', '-'], staticVolume(`smb-${v}`, `  csi:
    driver: smb.csi.k8s.io
    volumeHandle: smb-server.default.svc.cluster.local/share#static-${v}##
    volumeAttributes: { source: //smb-server.default.svc.cluster.local/share }`));
    k.ok(['apply', '-f', '-'], windowsPod(`smb-b-${v}`, 'b-win', `smb-${v}`));
    k.ok(['apply', '-f', '-'], linuxPod(`smb-a-${v}`, 'a-lin', `smb-${v}`));
    await running(`smb-b-${v}`);
    await running(`smb-a-${v}`);
    k.ok(['exec', `smb-b-${v}`, '--', 'cmd', '/c', 'echo from-windows-on-b> C:\\data\\Win.txt']);
    assert.match(k.ok(['exec', `smb-a-${v}`, '--', 'cat', '/data/Win.txt']), /^from-windows-on-b\s*$/);
    k.ok(['exec', `smb-a-${v}`, '--', 'sh', '-c', 'echo from-linux-on-a > /data/linux.txt']);
    // The Windows view matches names without case, as an SMB share does.
    assert.match(k.ok(['exec', `smb-b-${v}`, '--', 'cmd', '/c', 'type C:\\data\\LINUX.TXT']), /^from-linux-on-a\s*$/);
  });
}
