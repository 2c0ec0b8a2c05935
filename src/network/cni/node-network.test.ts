// Sources: containernetworking/plugins win-bridge_windows.go, win-overlay_windows.go; flannel-io/cni-plugin flannel.go;
// containernetworking/cni libcni/api.go (pluginDescription); containerd sandbox_run.go; seed 004 "Windows CNI Config Example".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultNetworkProfile, type NodeNetworkProfile } from '../profile.js';
import { NodeNetwork, type NetworkNodeProfile } from './node-network.js';

const node = (os: 'linux' | 'windows', network?: Partial<NodeNetworkProfile>, o: Partial<NetworkNodeProfile> = {}): NetworkNodeProfile => ({
  name: `${os}-1`, os, podCIDR: '10.244.2.0/24', internalIP: '172.18.0.4', windowsBuild: os === 'windows' ? '10.0.17763' : undefined,
  kubeletVersion: 'v1.33.1', containerRuntime: 'containerd', network: network ? { ...defaultNetworkProfile(os), ...network } : undefined, ...o,
});
const SB = 'a'.repeat(64);

test('flannel host-gw on Windows: win-bridge endpoint on cbr0, gateway .2, adapter named after the endpoint', () => {
  const nn = new NodeNetwork({ profile: node('windows') });
  assert.equal(nn.cniConfig.path, 'C:\\etc\\cni\\net.d\\10-flannel.conf');
  const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.result.ip, '10.244.2.3', '.1 is cbr0, .2 cbr0_ep');
  assert.equal(r.result.gateway, '10.244.2.2');
  assert.equal(r.result.prefixLength, 24);
  assert.equal(r.result.interfaceName, `${SB}_cbr0`);
  assert.equal(r.result.adapterName, `vEthernet (${SB}_cbr0)`);
  const ep = nn.hnsState!.endpointByName(`${SB}_cbr0`)!;
  assert.equal(ep.id, r.result.endpointId);
  // The generated delegate: OutBoundNAT except cluster + Service CIDRs (+ ipMasqNetwork), SDNRoutes, loopback DSR.
  assert.deepEqual(ep.policies.map((p) => p.type), ['OutBoundNAT', 'SDNRoute', 'SDNRoute', 'OutBoundNAT']);
  assert.deepEqual(ep.policies[3], { type: 'OutBoundNAT', exceptions: [], destinations: ['10.244.2.3'] });
  assert.deepEqual(nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' }), r, 'a retried ADD returns the same result');
  nn.teardownSandbox(SB);
  assert.equal(nn.hnsState!.endpointByName(`${SB}_cbr0`), undefined, 'DEL deletes the HNS endpoint');
  assert.equal(nn.ipam.addressOf('uid-1'), undefined, 'and releases the address');
});

test('flannel vxlan on Windows: win-overlay MAC 0E-2A-<ip hex>, provider address = management IP, gateway from the network', () => {
  const nn = new NodeNetwork({ profile: node('windows', { backend: 'vxlan' }) });
  const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.result.ip, '10.244.2.2');
  assert.equal(r.result.mac, '0E-2A-0a-f4-02-02');
  assert.equal(r.result.gateway, '10.244.2.1');
  assert.equal(r.result.networkName, 'flannel.4096');
  const ep = nn.hnsState!.endpointByName(`${SB}_flannel.4096`)!;
  assert.ok(ep.policies.some((p) => p.type === 'ProviderAddress' && p.providerAddress === '172.18.0.4'));
});

test('errors reach the sandbox event in the plugins\' and libcni\'s words', () => {
  const cases: { name: string; profile: NetworkNodeProfile; want: string }[] = [
    {
      name: 'flanneld refused the VXLAN config: no subnet.env',
      profile: node('windows', { backend: 'vxlan', vni: 1 }),
      want: 'plugin type="flannel" name="flannel.1" failed (add): failed to load flannel \'subnet.env\' file: open /run/flannel/subnet.env: The system cannot find the path specified.. Check the flannel pod log for this node.',
    },
    {
      name: 'win-bridge against a network that does not exist',
      profile: node('windows', { cniConfig: JSON.stringify({ cniVersion: '0.3.0', name: 'l2bridge', type: 'win-bridge', ipam: { type: 'host-local', subnet: '10.244.2.0/24' } }) }),
      want: 'plugin type="win-bridge" name="l2bridge" failed (add): network l2bridge is not found',
    },
    {
      name: 'win-overlay against the L2Bridge cbr0',
      profile: node('windows', { cniConfig: JSON.stringify({ cniVersion: '0.3.0', name: 'cbr0', type: 'win-overlay', apiVersion: 2, ipam: { type: 'host-local', subnet: '10.244.2.0/24' } }) }),
      want: 'plugin type="win-overlay" name="cbr0" failed (add): network cbr0 is of an unexpected type: L2Bridge',
    },
    {
      name: 'endpointMacPrefix',
      profile: node('windows', { backend: 'vxlan', cniConfig: JSON.stringify({ name: 'flannel.4096', type: 'win-overlay', endpointMacPrefix: '0E2A', ipam: { type: 'host-local', subnet: '10.244.2.0/24' } }) }),
      want: 'plugin type="win-overlay" name="flannel.4096" failed (add): endpointMacPrefix [0E2A] is invalid, value must be of the format xx-xx',
    },
    {
      name: 'CNI 0.4.0 with the win-bridge of the 1.22 era (no CHECK)',
      profile: node('windows', { cniConfig: JSON.stringify({ cniVersion: '0.4.0', name: 'cbr0', type: 'flannel', delegate: { type: 'win-bridge' } }) }, { kubeletVersion: 'v1.22.4' }),
      want: 'plugin type="flannel" name="cbr0" failed (add): failed to delegate add: incompatible CNI versions; config is "0.4.0", plugin supports ["0.1.0" "0.2.0" "0.3.0"]',
    },
    {
      name: 'a Windows plugin on a Linux node, in a conflist without a plugin name',
      profile: node('linux', { cniConfig: JSON.stringify({ name: 'cbr0', cniVersion: '0.3.1', plugins: [{ type: 'win-bridge' }] }) }),
      want: 'plugin type="win-bridge" failed (add): failed to find plugin "win-bridge" in path [/opt/cni/bin]',
    },
    {
      name: 'the flannel delegate may not carry ipam',
      profile: node('windows', { cniConfig: JSON.stringify({ name: 'cbr0', type: 'flannel', delegate: { type: 'win-bridge', ipam: {} } }) }),
      want: 'plugin type="flannel" name="cbr0" failed (add): \'delegate\' dictionary must not have \'ipam\' field, it\'ll be set by flannel',
    },
  ];
  for (const c of cases) {
    const nn = new NodeNetwork({ profile: c.profile });
    const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
    assert.ok(!r.ok, c.name);
    assert.equal(r.message, c.want, c.name);
  }
});

test('subnet.env missing a key: flannel lists what is missing', () => {
  const nn = new NodeNetwork({ profile: node('linux') });
  nn.files.write('/run/flannel/subnet.env', 'FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.2.1/24\n');
  const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
  assert.ok(!r.ok);
  assert.equal(r.message, 'plugin type="flannel" failed (add): failed to load flannel \'subnet.env\' file: /run/flannel/subnet.env is missing FLANNEL_MTU, FLANNEL_IPMASQ. Check the flannel pod log for this node.');
});

test('Linux flannel delegates to bridge: gateway .1, eth0; host-local exhaustion in its own words', () => {
  const nn = new NodeNetwork({ profile: node('linux', undefined, { podCIDR: '10.244.2.0/29' }) });
  const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual([r.result.ip, r.result.gateway, r.result.interfaceName, r.result.networkName], ['10.244.2.2', '10.244.2.1', 'eth0', 'cni0']);
  for (let i = 2; i <= 5; i++) assert.ok(nn.setupSandbox({ sandboxID: `${i}`.repeat(64), owner: `uid-${i}` }).ok);
  const full = nn.setupSandbox({ sandboxID: 'f'.repeat(64), owner: 'uid-f' });
  assert.ok(!full.ok);
  assert.equal(full.message, 'plugin type="flannel" failed (add): failed to delegate add: failed to allocate for range 0: no IP addresses available in range set: 10.244.2.1-10.244.2.6');
});

test('cni.conf is static: an edit applies to sandboxes made afterwards only', () => {
  const nn = new NodeNetwork({ profile: node('windows') });
  assert.ok(nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' }).ok);
  nn.files.write(nn.cniConfig.path, JSON.stringify({ name: 'nope', type: 'win-bridge', ipam: { type: 'host-local', subnet: '10.244.2.0/24' } }));
  assert.ok(nn.resultFor(SB), 'the running pod keeps its network');
  const r = nn.setupSandbox({ sandboxID: 'b'.repeat(64), owner: 'uid-2' });
  assert.ok(!r.ok && r.message.endsWith('network nope is not found'));
});

test('v1.9 wincni on its administrator-made l2bridge network: the gateway is the subnet base + 2 (seed 004)', () => {
  const nn = new NodeNetwork({ profile: node('windows', { plugin: 'wincni' }, { kubeletVersion: 'v1.9.11' }) });
  const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.result.gateway, '10.244.2.2');
  assert.equal(r.result.ip, '10.244.2.3');
  assert.deepEqual(nn.hnsState!.endpointByName(`${SB}_l2bridge`)!.policies.map((p) => p.type), ['OutBoundNAT', 'SDNRoute', 'SDNRoute']);
});

test('peers: a vxlan Windows node follows the other nodes\' leases as RemoteSubnetRoutes', () => {
  const nn = new NodeNetwork({ profile: node('windows', { backend: 'vxlan' }) });
  const peer = new NodeNetwork({ profile: { ...node('linux', { backend: 'vxlan', vni: 4096 }), name: 'lin-1', podCIDR: '10.244.0.0/24', internalIP: '172.18.0.2' } });
  nn.peerChanged({ metadata: { name: 'lin-1', annotations: peer.annotations() }, spec: { podCIDR: '10.244.0.0/24' } });
  const routes = () => nn.hnsState!.networkByName('flannel.4096')!.policies.filter((p) => p.type === 'RemoteSubnetRoute');
  assert.equal(routes().length, 1);
  nn.peerDeleted('lin-1');
  assert.equal(routes().length, 0);
});

test('every Windows plugin works on the network its default setup makes', () => {
  const cases: { plugin: NodeNetworkProfile['plugin']; network: string; type: string; gateway: string }[] = [
    { plugin: 'win-bridge', network: 'cbr0', type: 'L2Bridge', gateway: '10.244.2.2' },
    { plugin: 'win-overlay', network: 'vxlan0', type: 'Overlay', gateway: '10.244.2.1' },
    { plugin: 'azure-vnet', network: 'azure', type: 'L2Tunnel', gateway: '10.244.2.1' },
    { plugin: 'calico', network: 'Calico', type: 'L2Bridge', gateway: '10.244.2.1' },
    { plugin: 'ovn-k8s-cni-overlay', network: 'external', type: 'Transparent', gateway: '10.244.2.1' },
  ];
  for (const c of cases) {
    const nn = new NodeNetwork({ profile: node('windows', { plugin: c.plugin }) });
    const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
    assert.ok(r.ok, `${c.plugin}: ${JSON.stringify(r)}`);
    assert.equal(r.result.networkName, c.network, c.plugin);
    assert.equal(nn.hnsState!.networkByName(c.network)!.type, c.type, c.plugin);
    assert.equal(r.result.gateway, c.gateway, c.plugin);
    nn.teardownSandbox(SB);
    assert.equal(nn.hnsState!.endpointByName(`${SB}_${c.network}`), undefined, c.plugin);
  }
});

test('a node setup told the wrong adapter makes no HNS network, so pods get no network (seed 001 troubleshooting Q11)', () => {
  const nn = new NodeNetwork({ profile: node('windows', { adapterName: 'Ethernet 2' }) });
  assert.equal(nn.setupError, 'error looking up interface Ethernet: route ip+net: no such network interface');
  assert.equal(nn.hnsState!.networks.size, 0, 'Get-HnsNetwork | ? Name -ieq "cbr0" returns nothing');
  const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
  assert.ok(!r.ok);
  assert.match(r.message, /subnet\.env/);
  // Telling the setup the adapter's real name fixes it.
  assert.equal(new NodeNetwork({ profile: node('windows', { adapterName: 'Ethernet 2', interfaceName: 'Ethernet 2' }) }).setupError, undefined);
});

test('a Docker node also has Docker\'s default nat network (ICS), which pods do not use', () => {
  const nn = new NodeNetwork({ profile: node('windows', undefined, { containerRuntime: 'docker' }) });
  const nat = nn.hnsState!.networkByName('nat')!;
  assert.equal(nat.type, 'ICS');
  assert.match(nat.subnets[0].ipAddressPrefix, /^172\.(1[6-9]|2\d|3[01])\.\d+\.0\/20$/);
  const r = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
  assert.ok(r.ok);
  assert.equal(nn.hnsState!.endpointByIP(r.result.ip)!.networkId, nn.hnsState!.networkByName('cbr0')!.id);
  assert.equal(new NodeNetwork({ profile: node('windows') }).hnsState!.networkByName('nat'), undefined, 'containerd nodes have none');
});

test('flanneld stuck at "Waiting for the Network to be created" until relaunched (seed 001 troubleshooting Q8)', () => {
  const nn = new NodeNetwork({ profile: node('windows', { backend: 'vxlan', flanneldStuck: true }) });
  assert.match(nn.setupError ?? '', /Waiting for the Network to be created/);
  assert.equal(nn.hnsState!.networkByName('flannel.4096'), undefined);
  const before = nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' });
  assert.ok(!before.ok && /subnet\.env/.test(before.message));
  assert.equal(nn.relaunchFlanneld(), true);
  assert.equal(nn.setupError, undefined);
  assert.ok(nn.hnsState!.networkByName('flannel.4096'));
  assert.ok(nn.setupSandbox({ sandboxID: SB, owner: 'uid-1' }).ok, 'sandboxes retried after the relaunch get their network');
  assert.equal(nn.relaunchFlanneld(), false, 'a healthy flanneld restarts without changing anything');
});
