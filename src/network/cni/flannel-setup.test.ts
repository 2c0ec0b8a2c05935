// Sources: flannel-io/flannel pkg/backend/vxlan/vxlan_windows.go + device_windows.go, hostgw_windows.go, pkg/subnet/kube/annotations.go, subnet.go WriteSubnetFile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HnsState } from '../hns/hns-state.js';
import { defaultNetworkProfile, type NodeNetworkProfile } from '../profile.js';
import { createFlannelNetwork, flannelAnnotations, leaseOf, subnetEnvText, syncRemoteSubnetRoutes, windowsVxlanError } from './flannel-setup.js';

const vxlan = (o: Partial<NodeNetworkProfile> = {}): NodeNetworkProfile => ({ ...defaultNetworkProfile('windows'), backend: 'vxlan', ...o });
const win = { name: 'win-1', os: 'windows' as const, podCIDR: '10.244.2.0/24', internalIP: '172.18.0.4' };

test('flanneld refuses VXLAN settings Windows cannot do, in its own words', () => {
  const cases: [Partial<NodeNetworkProfile>, string | undefined][] = [
    [{}, undefined],
    [{ vni: 4097 }, undefined],
    [{ vni: 1 }, 'invalid VXLAN backend config. VNI [1] must be greater than or equal to 4096 on Windows'],
    [{ port: 8472 }, 'invalid VXLAN backend config. Port [8472] is not supported on Windows. Omit the setting to default to port 4789'],
    [{ directRouting: true }, 'invalid VXLAN backend config. DirectRouting is not supported on Windows'],
    [{ gbp: true }, 'invalid VXLAN backend config. GBP is not supported on Windows'],
    [{ macPrefix: '0E2A' }, 'invalid VXLAN backend config.MacPrefix [0E2A] is invalid, prefix must be of the format xx-xx e.g. 0E-2A'],
    [{ vni: 1, port: 1 }, 'invalid VXLAN backend config. VNI [1] must be greater than or equal to 4096 on Windows'],
  ];
  for (const [o, want] of cases) assert.equal(windowsVxlanError(vxlan(o)), want, JSON.stringify(o));
});

test('host-gw makes L2Bridge cbr0 (gateway lease+1) and cbr0_ep at lease+2 in the host compartment', () => {
  const hns = new HnsState('win-1', { major: 9, minor: 5 });
  const n = createFlannelNetwork(hns, win, defaultNetworkProfile('windows'));
  assert.ok(!('error' in n));
  assert.equal(n.name, 'cbr0');
  assert.equal(n.type, 'L2Bridge');
  assert.deepEqual(n.subnets[0], { ipAddressPrefix: '10.244.2.0/24', gatewayAddress: '10.244.2.1', policies: [] });
  const ep = hns.endpointByName('cbr0_ep')!;
  assert.equal(ep.ipAddress, '10.244.2.2');
  assert.equal(ep.compartmentId, 1);
  assert.equal(ep.isHostEndpoint, true);
});

test('vxlan makes Overlay flannel.<VNI> with VSID, HostRoute and a DR MAC, and one RemoteSubnetRoute per other vxlan lease', () => {
  const hns = new HnsState('win-1', { major: 9, minor: 5 });
  const n = createFlannelNetwork(hns, win, vxlan());
  assert.ok(!('error' in n));
  assert.equal(n.name, 'flannel.4096');
  assert.equal(n.type, 'Overlay');
  assert.deepEqual(n.subnets[0].policies, [{ type: 'VSID', isolationId: 4096 }]);
  assert.ok(n.policies.some((p) => p.type === 'HostRoute'));
  assert.match(n.drMacAddress ?? '', /^00-15-5D(-[0-9A-F]{2}){3}$/);
  const node = (name: string, cidr: string, ip: string, type: string, data: string) => ({
    metadata: { name, annotations: { 'flannel.alpha.coreos.com/backend-type': type, 'flannel.alpha.coreos.com/backend-data': data, 'flannel.alpha.coreos.com/public-ip': ip } },
    spec: { podCIDR: cidr },
  });
  const leases = [
    leaseOf(node('lin-1', '10.244.0.0/24', '172.18.0.2', 'vxlan', '{"VNI":4096,"VtepMAC":"0a:1b:2c:3d:4e:5f"}'))!,
    leaseOf(node('win-1', '10.244.2.0/24', '172.18.0.4', 'vxlan', '{"VNI":4096,"VtepMAC":"00:15:5d:00:00:01"}'))!,
    leaseOf(node('hg-1', '10.244.3.0/24', '172.18.0.5', 'host-gw', 'null'))!,
  ];
  syncRemoteSubnetRoutes(n, 'win-1', leases, 4096);
  assert.deepEqual(n.policies.filter((p) => p.type === 'RemoteSubnetRoute'), [
    { type: 'RemoteSubnetRoute', destinationPrefix: '10.244.0.0/24', isolationId: 4096, providerAddress: '172.18.0.2', distributedRouterMacAddress: '0a:1b:2c:3d:4e:5f' },
  ]);
});

test('subnet.env and the node annotations flannel writes', () => {
  assert.equal(subnetEnvText(win, vxlan(), '10.244.0.0/16'), 'FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.2.1/24\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n');
  assert.equal(subnetEnvText(win, defaultNetworkProfile('windows'), '10.244.0.0/16').split('\n')[2], 'FLANNEL_MTU=1500');
  const a = flannelAnnotations(win, vxlan());
  assert.equal(a['flannel.alpha.coreos.com/backend-type'], 'vxlan');
  assert.match(a['flannel.alpha.coreos.com/backend-data'], /^\{"VNI":4096,"VtepMAC":"00:15:5d(:[0-9a-f]{2}){3}"\}$/);
  assert.equal(a['flannel.alpha.coreos.com/public-ip'], '172.18.0.4');
  assert.equal(a['flannel.alpha.coreos.com/kube-subnet-manager'], 'true');
  assert.equal(flannelAnnotations(win, defaultNetworkProfile('windows'))['flannel.alpha.coreos.com/backend-data'], 'null');
  assert.deepEqual(flannelAnnotations(win, { ...defaultNetworkProfile('windows'), plugin: 'win-bridge' }), {});
});
