import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run, type FakeEnv } from '../../testing/fake-env.js';
import { addSigWindowsToolsImage } from '../../fs/seed-sigwindowstools.js';
import { klogHeader } from './klog.js';

const ROOT = 'C:\\C\\0123abcd';
const NET_CONF = '{\n  "Network": "10.244.0.0/16",\n  "Backend": { "Type": "vxlan", "VNI": 4096, "Port": 4789 }\n}\n';
const CNI_CONF = '{"name":"flannel.4096","cniVersion":"0.3.0","type":"flannel","delegate":{"type":"sdnoverlay","AdditionalArgs":[{"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"Exceptions":[]}}},{"Name":"EndpointPolicy","Value":{"Type":"SDNROUTE","Settings":{"DestinationPrefix":"","NeedEncap":true}}},{"Name":"EndpointPolicy","Value":{"Type":"ProviderAddress","Settings":{"ProviderAddress":""}}}]}}';

/** A HostProcess container of one of the images on a flannel vxlan node (172.18.0.5, lease 10.244.2.0/24). */
function hostProcess(image: 'sigwindowstools-kube-proxy' | 'sigwindowstools-flannel', o: { network?: boolean } = {}): FakeEnv & { owners: string[] } {
  const env = fakeEnv({ os: 'windows', toolset: 'hostprocess', user: 'NT AUTHORITY\\SYSTEM', hostname: 'win2019' });
  addSigWindowsToolsImage(env.fs, image, ROOT);
  env.network.interfaces[0] = { name: 'vEthernet (Ethernet)', ip: '172.18.0.5', prefix: 16, mac: '00-15-5D-00-00-01', gateway: '172.18.0.1' };
  const owners: string[] = [];
  env.hostNetwork = {
    hnsNetworks: () => (o.network === false ? [] : [{ id: 'A1B2', name: 'flannel.4096', type: 'Overlay', managementIP: '172.18.0.5', subnets: [{ addressPrefix: '10.244.2.0/24', gatewayAddress: '10.244.2.1' }] }]),
    ipamAdd: (owner) => { owners.push(owner); return { ip: '10.244.2.2', prefixLength: 24, gateway: '10.244.2.1' }; },
  };
  env.env = { CONTAINER_SANDBOX_MOUNT_POINT: `${ROOT}\\`, CNI_BIN_PATH: 'C:\\opt\\cni\\bin', CNI_CONFIG_PATH: 'C:\\etc\\cni\\net.d', SERVICE_SUBNET: '10.96.0.0/12', POD_NAME: 'kube-flannel-ds-x', POD_NAMESPACE: 'kube-flannel', KUBE_NETWORK: 'flannel.4096', NODE_NAME: 'win2019' };
  const put = (p: string, t: string) => { env.fs.mkdir(p.replace(/\\[^\\]+$/, ''), { parents: true }); env.fs.writeFile(p, t); };
  put(`${ROOT}\\mounts\\kube-flannel\\net-conf.json`, NET_CONF);
  put(`${ROOT}\\mounts\\kube-flannel-windows\\cni-conf-containerd.json`, CNI_CONF);
  put(`${ROOT}\\mounts\\var\\lib\\kube-proxy\\kubeconfig.conf`, 'clusters:\n- cluster:\n    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt\n');
  // The node's CNI plugins (src/node/process/hostprocess-dirs.ts puts them there on a real node).
  env.fs.mkdir('C:\\opt\\cni\\bin', { parents: true });
  env.fs.writeFile('C:\\opt\\cni\\bin\\host-local.exe', 'MZ').program = 'win:host-local';
  return Object.assign(env, { owners });
}

/** Runs the ENTRYPOINT as hcsshim starts it (mount point substituted) until the process has started, then stops it. */
async function entrypoint(env: FakeEnv, script: string, ms = 500) {
  const ctl = new AbortController();
  setTimeout(() => ctl.abort('SIGTERM'), ms);
  return run(env, ['PowerShell', '/c', `${ROOT}\\/${script}/start.ps1`], { signal: ctl.signal });
}

test('klog header: level, MMDD, time to the microsecond, pid padded to 7, file:line', () => {
  assert.equal(klogHeader('I', Date.UTC(2025, 10, 25, 9, 5, 7, 12), 4680, 'main.go:211'), 'I1125 09:05:07.012000    4680 main.go:211] ');
});

test('kube-proxy image: start.ps1 rewrites the kubeconfig, reserves the source VIP, then kube-proxy.exe runs winkernel', async () => {
  const env = hostProcess('sigwindowstools-kube-proxy');
  const r = await entrypoint(env, 'kube-proxy');
  assert.match(r.stdout, /^Write files so the kubeconfig points to correct locations\r\n/);
  assert.match(r.stdout, /ipam sourcevip request: \{"cniVersion": "0\.3\.0", "name": "flannel\.4096", "ipam":\{"type":"host-local","ranges":\[\[\{"subnet":"10\.244\.2\.0\/24"\}\]\],"dataDir":"\/var\/lib\/cni\/networks"\}\}\r\n/);
  assert.match(r.stdout, /sourceip: 10\.244\.2\.2\r\n/);
  assert.match(r.stdout, /Starting C:\\C\\0123abcd\\\/kube-proxy\/kube-proxy\.exe --v=6 --hostname-override=win2019 --feature-gates=WinOverlay=true --proxy-mode=kernelspace --source-vip=10\.244\.2\.2 --kubeconfig=C:\\C\\0123abcd\\\/mounts\/var\/lib\/kube-proxy\/kubeconfig-win\.conf\r\n/);
  // The source VIP is the node's reservation (the one its kube-proxy service uses), not a new address.
  assert.deepEqual(env.owners, ['source-vip']);
  assert.match(env.fs.readFile(`${ROOT}\\mounts\\var\\lib\\kube-proxy\\kubeconfig-win.conf`).toString(), /certificate-authority: C:\\C\\0123abcd\\\/var\/run\/secrets/);
  const lines = r.stderr.trim().split('\n').map((l) => l.replace(/^(\w)\d{4} [\d:.]+ +\d+ /, '$1 '));
  assert.deepEqual(lines.slice(0, 6), [
    'I server.go:698] "Successfully retrieved node IP(s)" IPs=["172.18.0.5"]',
    'I server.go:254] "kube-proxy running in single-stack mode" ipFamily="IPv4"',
    'I proxier.go:710] "Hns Network loaded" hnsNetworkInfo=&{name:flannel.4096 id:a1b2 networkType:Overlay}',
    // --v=6: NewProxier's V(3) line with the KubeProxyConfiguration defaults the script leaves alone.
    'I proxier.go:750] "Record sync param" minSyncPeriod="1s" syncPeriod="30s" burstSyncs=2',
    'I server.go:497] "Version info" version="v1.33.1"',
    'I server.go:499] "Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""',
  ]);
  assert.ok(lines.includes('I shared_informer.go:320] Caches are synced for endpoint slice config'));
  // It runs until stopped: the stop signal ends it as Windows ends a stopped process.
  assert.equal(r.code, -1073741510);
});

test('kube-proxy.exe waits for its HNS network, every second, as winkernel NewProxier does', async () => {
  const env = hostProcess('sigwindowstools-kube-proxy', { network: false });
  const r = await run(env, [`${ROOT}\\kube-proxy\\kube-proxy.exe`, '--hostname-override=win2019'], { signal: AbortSignal.timeout(40) });
  assert.match(r.stderr, /^E\d{4} .* proxier\.go:\d+\] "Unable to find HNS Network specified, please check network name and CNI deployment" hnsNetworkName="flannel\.4096"$/m);
  assert.ok(env.clock.slept.filter((ms) => ms === 1000).length >= 1);
  assert.doesNotMatch(r.stderr, /Version info/);
});

test('kube-proxy.exe without KUBE_NETWORK or --network-name fails', async () => {
  const env = hostProcess('sigwindowstools-kube-proxy');
  delete env.env.KUBE_NETWORK;
  const r = await run(env, [`${ROOT}\\kube-proxy\\kube-proxy.exe`]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /"command failed" err="unable to create proxier: Environment variable KUBE_NETWORK and network-flag not initialized"/);
});

test('flannel image: start.ps1 installs the CNI plugins and config, adds the metadata route, then flanneld.exe starts', async () => {
  const env = hostProcess('sigwindowstools-flannel');
  const r = await entrypoint(env, 'flannel');
  assert.match(r.stdout, /^Copying SDN CNI binaries to host\r\n/);
  assert.match(r.stdout, /copy flannel config\r\n/);
  assert.match(r.stdout, /update cni config\r\n/);
  assert.match(r.stdout, /add route\r\n OK!\r\nenvs\r\nkube-flannel-ds-x\r\nkube-flannel\r\nStarting flannel\r\n$/);
  for (const p of ['host-local.exe', 'sdnoverlay.exe', 'flannel.exe']) assert.ok(env.fs.exists(`C:\\opt\\cni\\bin\\${p}`), p);
  assert.equal(env.fs.readFile('C:\\etc\\kube-flannel\\net-conf.json').toString(), NET_CONF);
  const cni = JSON.parse(env.fs.readFile('C:\\etc\\cni\\net.d\\10-flannel.conf').toString().replace(/^\uFEFF/, '')) as { delegate: { AdditionalArgs: { Value: { Settings: Record<string, unknown> } }[] } };
  assert.deepEqual(cni.delegate.AdditionalArgs.map((a) => a.Value.Settings), [
    { Exceptions: ['10.96.0.0/12', '10.244.0.0/16'] }, { DestinationPrefix: '10.96.0.0/12', NeedEncap: true }, { ProviderAddress: '172.18.0.5' },
  ]);
  const lines = r.stderr.trim().split('\n').map((l) => l.replace(/^(\w)\d{4} [\d:.]+ +\d+ /, '$1 '));
  assert.match(lines[0], /^I main\.go:211\] CLI flags config: \{etcdEndpoints:http:\/\/127\.0\.0\.1:4001,http:\/\/127\.0\.0\.1:2379 .* kubeSubnetMgr:true .* iface:\[172\.18\.0\.5\] .* netConfPath:\/etc\/kube-flannel\/net-conf\.json setNodeNetworkUnavailable:true useMultiClusterCidr:false\}$/);
  assert.deepEqual(lines.slice(1, 9), [
    'W client_config.go:618] Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.',
    'I kube.go:144] Waiting 10m0s for node controller to sync',
    'I kube.go:485] Starting kube subnet manager',
    'I kube.go:506] Creating the node lease for IPv4. This is the n.Spec.PodCIDRs: [10.244.2.0/24]',
    'I kube.go:151] Node controller sync successful',
    'I main.go:231] Created subnet manager: Kubernetes Subnet Manager - win2019',
    'I main.go:234] Installing signal handlers',
    'I main.go:542] Found network config - Backend type: vxlan',
  ]);
  assert.ok(lines.includes('I vxlan_windows.go:125] VXLAN config: Name=flannel.4096 MacPrefix=0E-2A VNI=4096 Port=4789 GBP=false DirectRouting=false'));
  assert.ok(lines.includes('I main.go:439] Running backend.'));
  assert.match(env.fs.readFile('C:\\run\\flannel\\subnet.env').toString(), /^FLANNEL_NETWORK=10\.244\.0\.0\/16\nFLANNEL_SUBNET=10\.244\.2\.1\/24\n/);
});

test('flanneld.exe without net-conf.json stops, as NewSubnetManager fails', async () => {
  const env = hostProcess('sigwindowstools-flannel');
  const r = await run(env, [`${ROOT}\\flannel\\flanneld.exe`, '--kube-subnet-mgr']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /main\.go:228\] Failed to create SubnetManager: failed to read net conf: open \/etc\/kube-flannel\/net-conf\.json: The system cannot find the path specified\.\n$/);
});

test('host-local.exe answers a CNI ADD with the node IPAM\'s address as a CNI result', async () => {
  const env = hostProcess('sigwindowstools-kube-proxy');
  env.env = { ...env.env, CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'abc', CNI_IFNAME: 'eth0' };
  const r = await run(env, ['C:\\opt\\cni\\bin\\host-local.exe'], { stdin: '{"cniVersion":"0.3.0","name":"x","ipam":{"type":"host-local"}}' });
  assert.equal(r.code, 0);
  assert.deepEqual(JSON.parse(r.stdout), { cniVersion: '0.3.0', ips: [{ version: '4', address: '10.244.2.2/24', gateway: '10.244.2.1' }], dns: {} });
  assert.deepEqual(env.owners, ['cni:abc/eth0']);
  delete env.env.CNI_COMMAND;
  assert.equal((await run(env, ['C:\\opt\\cni\\bin\\host-local.exe'])).code, 1);
});

// sig-windows-tools hostprocess/*/kube-proxy: the image tagged `<k8sVersion>-<cni>-hostprocess` holds the kube-proxy.exe
// of dl.k8s.io/<k8sVersion>; component-base verflag prints `Kubernetes <version>`.
test('kube-proxy.exe --version reports the release its image tag names', async () => {
  for (const [image, want] of [
    ['docker.io/sigwindowstools/kube-proxy:v1.31.4-flannel-hostprocess', 'Kubernetes v1.31.4\n'],
    ['docker.io/sigwindowstools/kube-proxy:v1.29.0-calico-hostprocess', 'Kubernetes v1.29.0\n'],
  ] as const) {
    const env = hostProcess('sigwindowstools-kube-proxy');
    env.image = image;
    const r = await run(env, [`${ROOT}\\kube-proxy\\kube-proxy.exe`, '--version']);
    assert.equal(r.stdout, want, image);
    assert.equal(r.code, 0);
  }
});

// pkg/proxy/winkernel/proxier.go syncProxyRules: V(3) "Syncing Policies", V(4) "Applying Policy" per service port and
// "Syncing proxy rules complete" with the elapsed time; the version line follows the image too.
test('kube-proxy.exe logs its first sync at -v=4, only part of it at -v=3 and none at -v=2', async () => {
  const sync = async (v: number) => {
    const env = hostProcess('sigwindowstools-kube-proxy');
    env.image = 'docker.io/sigwindowstools/kube-proxy:v1.31.4-flannel-hostprocess';
    env.hostNetwork = { ...env.hostNetwork!, hnsLoadBalancers: () => [
      { id: 'L1', description: 'default/web:http (ClusterIP)' }, { id: 'L2', description: 'default/web:http (NodePort)' }, { id: 'L3', description: 'kube-system/kube-dns:dns (ClusterIP)' },
    ] };
    const ctl = new AbortController();
    setTimeout(() => ctl.abort('SIGTERM'), 200);
    const r = await run(env, [`${ROOT}\\kube-proxy\\kube-proxy.exe`, `--v=${v}`], { signal: ctl.signal });
    return r.stderr.trim().split('\n').map((l) => l.replace(/^(\w)\d{4} [\d:.]+ +\d+ [\w.]+:\d+\] /, '$1 '));
  };
  const v4 = await sync(4);
  assert.ok(v4.includes('I "Version info" version="v1.31.4"'));
  const at = v4.indexOf('I "Syncing Policies"');
  assert.ok(at > 0, v4.join('\n'));
  assert.deepEqual(v4.slice(at + 1, at + 4), ['I "Applying Policy" serviceInfo="default/web:http"', 'I "Applying Policy" serviceInfo="kube-system/kube-dns:dns"', 'I "Syncing proxy rules complete" elapsed="0s"']);
  const v3 = await sync(3);
  assert.ok(v3.includes('I "Syncing Policies"'));
  assert.ok(!v3.some((l) => /Applying Policy|Syncing proxy rules complete/.test(l)));
  assert.ok(!(await sync(2)).some((l) => /Syncing Policies/.test(l)));
});
