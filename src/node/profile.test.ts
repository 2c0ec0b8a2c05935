import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeAllocatable, windowsKernelVersion, buildNumber, type ResourceStrings } from './profile.js';
import { defaultFleet, addressesFor } from './fleet-defaults.js';

const cases: { name: string; capacity: ResourceStrings; kube?: ResourceStrings; system?: ResourceStrings; eviction?: ResourceStrings; want: ResourceStrings }[] = [
  {
    name: 'linux defaults: memory minus 100Mi, storage minus 10% truncated',
    capacity: { cpu: '4', memory: '8148152Ki', pods: '110', 'ephemeral-storage': '102626232Ki' },
    eviction: { 'memory.available': '100Mi', 'nodefs.available': '10%' },
    want: { cpu: '4', memory: '8045752Ki', pods: '110', 'ephemeral-storage': '94580335412' },
  },
  {
    name: 'windows: kube + system reserved + 500Mi eviction',
    capacity: { cpu: '4', memory: '16776756Ki', pods: '110', 'ephemeral-storage': '133703676Ki' },
    kube: { cpu: '100m', memory: '500Mi' },
    system: { cpu: '500m', memory: '2Gi' },
    eviction: { 'memory.available': '500Mi', 'nodefs.available': '10%' },
    want: { cpu: '3400m', memory: '13655604Ki', pods: '110', 'ephemeral-storage': '123221307802' },
  },
  {
    name: 'reservation larger than capacity clamps to zero',
    capacity: { cpu: '1', memory: '1Gi' },
    system: { cpu: '2', memory: '2Gi' },
    want: { cpu: '0', memory: '0' },
  },
  {
    name: 'exact decimal arithmetic on cpu',
    capacity: { cpu: '2' },
    kube: { cpu: '0.1' },
    system: { cpu: '150m' },
    want: { cpu: '1750m' },
  },
  {
    name: 'gigabyte memory becomes bytes when not a multiple of 1024',
    capacity: { memory: '1G' },
    eviction: { 'memory.available': '100Mi' },
    want: { memory: '895142400' },
  },
];

for (const c of cases) {
  test(`computeAllocatable: ${c.name}`, () => {
    assert.deepEqual(computeAllocatable({ capacity: c.capacity, kubeReserved: c.kube ?? {}, systemReserved: c.system ?? {}, evictionHard: c.eviction ?? {} }), c.want);
  });
}

test('windows kernel version and build number', () => {
  assert.equal(windowsKernelVersion('10.0.17763', 6893), '10.0.17763.6893');
  assert.equal(buildNumber('10.0.20348'), 20348);
  assert.equal(buildNumber(undefined), undefined);
});

test('addressing: 10.244.<i>.0/24 and 172.18.0.<i+2>, continuing past 254 nodes', () => {
  assert.deepEqual(addressesFor(0), { podCIDR: '10.244.0.0/24', internalIP: '172.18.0.2' });
  assert.deepEqual(addressesFor(4), { podCIDR: '10.244.4.0/24', internalIP: '172.18.0.6' });
  assert.deepEqual(addressesFor(255), { podCIDR: '10.244.255.0/24', internalIP: '172.18.1.1' });
  assert.throws(() => addressesFor(256), /holds only 256 \/24 node subnets/);
});

test('default fleet: names, OSes, builds, control-plane taint', () => {
  const f = defaultFleet();
  assert.deepEqual(f.map((p) => [p.name, p.os, p.windowsBuild ?? '', p.osImage]), [
    ['winkube-control-plane', 'linux', '', 'Debian GNU/Linux 12 (bookworm)'],
    ['winkube-worker', 'linux', '', 'Debian GNU/Linux 12 (bookworm)'],
    ['winkube-win2019-1', 'windows', '10.0.17763', 'Windows Server 2019 Datacenter'],
    ['winkube-win2019-2', 'windows', '10.0.17763', 'Windows Server 2019 Datacenter'],
    ['winkube-win2022-1', 'windows', '10.0.20348', 'Windows Server 2022 Datacenter'],
  ]);
  assert.deepEqual(f[0].taints, [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
  assert.deepEqual(f[0].roles, ['control-plane']);
  assert.match(f[2].kernelVersion, /^10\.0\.17763\.\d+$/);
  assert.match(f[4].kernelVersion, /^10\.0\.20348\.\d+$/);
  assert.deepEqual(f.map((p) => p.internalIP), ['172.18.0.2', '172.18.0.3', '172.18.0.4', '172.18.0.5', '172.18.0.6']);
  for (const p of f) assert.match(p.containerRuntimeVersion, /^containerd:\/\/1\.7\.\d+$/);
});
