import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Volume } from 'kubernetes-types/core/v1.js';
import { csiInlineVolume, csiNodeObject, csiPersistentVolume, nodeRegistrationMetadata, registeredDrivers, volumesInUse } from './csi-node.js';
import { flexDriverPath, flexVolume } from './flex-volume.js';
import { nfsVolume } from './network-volumes.js';
import { canExpandOnline } from './online-expansion.js';
import { volumeContent, type VolumeContext } from './volume-content.js';

const linux = { name: 'lin', os: 'linux' as const, kubeletVersion: 'v1.33.1' };
const win = { name: 'win', os: 'windows' as const, kubeletVersion: 'v1.33.1' };
const winNoProxy = { ...win, csiProxy: 'none' };

test('node plugins register by OS and, on Windows, by csi-proxy', () => {
  assert.deepEqual(registeredDrivers(linux).map((d) => d.name), ['hostpath.csi.k8s.io', 'smb.csi.k8s.io', 'disk.csi.azure.com', 'file.csi.azure.com']);
  assert.deepEqual(registeredDrivers(win).map((d) => d.name), ['smb.csi.k8s.io', 'disk.csi.azure.com', 'file.csi.azure.com']);
  assert.deepEqual(registeredDrivers(winNoProxy), []);
  assert.deepEqual(registeredDrivers({ ...win, csiProxy: 'v0.2.2' }), []);
});

test('registration: CSINode drivers, the nodeid annotation and topology labels', () => {
  const n = csiNodeObject(linux, 'uid-1');
  assert.deepEqual(n.spec.drivers.map((d) => [d.name, d.nodeID, d.topologyKeys]), [
    ['hostpath.csi.k8s.io', 'lin', ['topology.hostpath.csi/node']], ['smb.csi.k8s.io', 'lin', null], ['disk.csi.azure.com', 'lin', null],
    ['file.csi.azure.com', 'lin', null],
  ]);
  assert.deepEqual(n.metadata?.ownerReferences?.[0], { apiVersion: 'v1', kind: 'Node', name: 'lin', uid: 'uid-1' });
  const m = nodeRegistrationMetadata(linux);
  assert.deepEqual(JSON.parse(m.annotations['csi.volume.kubernetes.io/nodeid']), { 'hostpath.csi.k8s.io': 'lin', 'smb.csi.k8s.io': 'lin', 'disk.csi.azure.com': 'lin', 'file.csi.azure.com': 'lin' });
  assert.deepEqual(m.labels, { 'topology.hostpath.csi/node': 'lin' });
  assert.deepEqual(nodeRegistrationMetadata(winNoProxy), { annotations: {}, labels: {} });
});

test('CSI mounts: kubelet errors for an unregistered driver, a wait for the attach, then the volume', () => {
  const src = { driver: 'disk.csi.azure.com', volumeHandle: 'h1' };
  assert.deepEqual(csiPersistentVolume('pvc-1', src, winNoProxy, {}), {
    error: 'MountVolume.MountDevice failed for volume "pvc-1" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name disk.csi.azure.com not found in the list of registered CSI drivers',
  });
  assert.ok('pending' in csiPersistentVolume('pvc-1', src, win, { volumeAttached: () => false }));
  assert.deepEqual(csiPersistentVolume('pvc-1', src, win, { volumeAttached: () => true }), { key: 'csi:disk.csi.azure.com/h1' });
  // attachRequired false: no wait.
  assert.deepEqual(csiPersistentVolume('pvc-1', src, win, { attachRequired: () => false, volumeAttached: () => false }), { key: 'csi:disk.csi.azure.com/h1' });
  assert.deepEqual(csiInlineVolume('scratch', 'hostpath.csi.k8s.io', 'u', win), {
    error: 'MountVolume.SetUp failed for volume "scratch" : kubernetes.io/csi: mounter.SetUpAt failed to get CSI client: driver name hostpath.csi.k8s.io not found in the list of registered CSI drivers',
  });
});

test('NFS: Linux mounts; Windows skips before v1.20 and fails from v1.20 (mount_windows.go)', () => {
  const src = { server: 'nfs.example', path: '/exports' };
  assert.deepEqual(nfsVolume(src, 'n', 'linux', 'v1.33.1', 'u'), { key: 'nfs:nfs.example:/exports' });
  assert.deepEqual(nfsVolume(src, 'n', 'windows', 'v1.19.4', 'u'), { skipped: true });
  assert.deepEqual(nfsVolume(src, 'n', 'windows', 'v1.20.0', 'u1'), {
    setUpError: 'mount options([]) should have at least 2 options, current number:0, source:"nfs.example:/exports", target:"c:\\\\var\\\\lib\\\\kubelet\\\\pods\\\\u1\\\\volumes\\\\kubernetes.io~nfs\\\\n"',
  });
});

test('FlexVolume: the driver must be installed; its secret must exist', () => {
  const src = { driver: 'microsoft.com/smb.cmd', secretRef: { name: 'smb-secret' }, options: { source: '\\\\Server\\Share\\sub' } };
  const secrets = (ns: string, n: string) => (n === 'smb-secret' ? { username: 'u' } : undefined);
  assert.deepEqual(flexVolume(src, 'smb-volume', 'default', [], secrets), { error: 'failed to get Plugin from volumeSpec for volume "smb-volume" err=no volume plugin matched' });
  assert.deepEqual(flexVolume(src, 'smb-volume', 'default', ['microsoft.com/smb.cmd'], secrets), { key: 'smb:server/share/sub' });
  assert.deepEqual(flexVolume({ ...src, options: { source: 'smb://server/share/sub' } }, 'v', 'default', ['microsoft.com/smb.cmd'], secrets), { key: 'smb:server/share/sub' });
  assert.deepEqual(flexVolume(src, 'v', 'default', ['microsoft.com/smb.cmd'], () => undefined), { setUpError: 'Couldn\'t get secret default/smb-secret err: secrets "smb-secret" not found' });
  assert.equal(flexDriverPath('windows', 'microsoft.com/smb.cmd'), 'C:\\usr\\libexec\\kubernetes\\kubelet-plugins\\volume\\exec\\microsoft.com~smb.cmd\\smb.cmd');
});

test('volumeContent routes PV sources and inline volumes through the node\'s plugins', () => {
  const ctx = (node: VolumeContext['node'], pvSpec: object): VolumeContext => ({
    pod: { metadata: { namespace: 'default', uid: 'u' } }, os: node!.os, hostIP: '', podIP: '', allocatable: {}, node,
    config: {
      configMap: () => undefined, secret: () => undefined,
      persistentVolumeClaim: () => ({ phase: 'Bound', volumeName: 'pv1' }),
      persistentVolume: (name) => ({ name, spec: pvSpec }),
      volumeAttached: () => true,
    },
  });
  const claimVol: Volume = { name: 'data', persistentVolumeClaim: { claimName: 'c' } };
  assert.deepEqual(volumeContent(claimVol, ctx(win, { csi: { driver: 'disk.csi.azure.com', volumeHandle: 'h' } })),
    { content: { kind: 'network', key: 'csi:disk.csi.azure.com/h', readOnly: false, source: 'csi' } });
  assert.ok('error' in volumeContent(claimVol, ctx(winNoProxy, { csi: { driver: 'disk.csi.azure.com', volumeHandle: 'h' } })));
  const flex = volumeContent({ name: 'f', flexVolume: { driver: 'microsoft.com/iscsi.cmd', options: { targetPortal: '10.0.0.5:3260', iqn: 'iqn.x', lun: '0' } } }, ctx({ ...win, kubeletVersion: 'v1.18.8', flexVolumeDrivers: ['microsoft.com/iscsi.cmd'] }, {}));
  assert.deepEqual(flex, { content: { kind: 'network', key: 'flex:iscsi:10.0.0.5:3260/iqn.x/0', readOnly: false, source: 'flexVolume' } });
  const nfs = volumeContent({ name: 'n', nfs: { server: 's', path: '/p' } }, ctx({ ...win, kubeletVersion: 'v1.22.0' }, {}));
  assert.ok('error' in nfs && nfs.error.startsWith('MountVolume.SetUp failed for volume "n" : mount options([]) should have at least 2 options'));
});

test('volumesInUse lists the mounted CSI volumes\' unique names', () => {
  const rec = { sandboxID: 's', pod: { metadata: { namespace: 'default' }, spec: { volumes: [{ persistentVolumeClaim: { claimName: 'c' } }] } } };
  const look = { persistentVolumeClaim: () => ({ volumeName: 'pv1' }), persistentVolume: () => ({ spec: { csi: { driver: 'disk.csi.azure.com', volumeHandle: 'h' } } }) };
  assert.deepEqual(volumesInUse([rec, { ...rec, sandboxID: undefined }], look), ['kubernetes.io/csi/disk.csi.azure.com^h']);
});

test('online expansion: Linux and current Windows kubelets; not the v1.17–v1.23 Windows editions; not shares', () => {
  const disk = { spec: { csi: { driver: 'disk.csi.azure.com', volumeHandle: 'h' } } };
  assert.equal(canExpandOnline(disk, { os: 'linux', kubeletVersion: 'v1.33.1' }), true);
  assert.equal(canExpandOnline(disk, { os: 'windows', kubeletVersion: 'v1.33.1' }), true);
  assert.equal(canExpandOnline(disk, { os: 'windows', kubeletVersion: 'v1.22.3' }), false);
  assert.equal(canExpandOnline({ spec: { csi: { driver: 'smb.csi.k8s.io', volumeHandle: 'h' } } }, { os: 'linux', kubeletVersion: 'v1.33.1' }), false);
});
