import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Service } from 'kubernetes-types/core/v1.js';
import { hnsFeatures, hnsVersionOf } from '../../hns/features.js';
import { HnsState, hnsGuid } from '../../hns/hns-state.js';
import { LB_FLAGS, PORT_MAPPING_FLAGS, type HnsNetworkType } from '../../hns/types.js';
import { defaultNetworkProfile, type KubeProxyProfile } from '../../profile.js';
import { servicePortsOf, type SliceLike } from '../service-ports.js';
import { conjureMac, WinKernelProxier } from './proxier.js';

const NODE = 'win-1';
const NODE_IP = '172.18.0.4';

function hnsWith(type: HnsNetworkType | undefined, build = '10.0.17763', localPods: string[] = []): HnsState {
  const hns = new HnsState(NODE, hnsVersionOf(build));
  if (!type) return hns;
  const name = type === 'Overlay' ? 'flannel.4096' : 'cbr0';
  const net = hns.addNetwork({
    id: hnsGuid(NODE, name), name, type, managementIP: NODE_IP, networkAdapterName: 'Ethernet', flags: 0, policies: [],
    subnets: [{ ipAddressPrefix: '10.244.2.0/24', gatewayAddress: '10.244.2.1', policies: type === 'Overlay' ? [
      { type: 'RemoteSubnetRoute', destinationPrefix: '10.244.3.0/24', isolationId: 4096, providerAddress: '172.18.0.5', distributedRouterMacAddress: '0E-2A-00-00-00-01' },
    ] : [] }],
  });
  for (const ip of localPods) {
    hns.addEndpoint({
      id: hnsGuid(NODE, ip), name: `sandbox-${ip}_cbr0`, networkId: net.id, ipAddress: ip, prefixLength: 24, macAddress: '00-15-5D-00-00-01',
      gatewayAddress: '10.244.2.2', dns: { servers: [], search: [] }, policies: [], isRemoteEndpoint: false,
    });
  }
  return hns;
}

function proxier(hns: HnsState, cfg: Partial<KubeProxyProfile> = {}, build = '10.0.17763', minor = 33): WinKernelProxier {
  const base = defaultNetworkProfile('windows').kubeProxy;
  return new WinKernelProxier(
    { name: NODE, nodeIP: NODE_IP, computerName: 'WIN-1', minorVersion: minor, hns, features: hnsFeatures(hnsVersionOf(build)) },
    { ...base, ...cfg }, () => Date.UTC(2026, 10, 25, 12, 0, 0),
  );
}

function service(spec: Service['spec'], annotations?: Record<string, string>, lb?: string[]): Service {
  return {
    metadata: { namespace: 'default', name: 'web', annotations },
    spec: { clusterIP: '10.96.0.50', ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec },
    status: lb ? { loadBalancer: { ingress: lb.map((ip) => ({ ip })) } } : undefined,
  };
}

function slice(eps: { ip: string; node: string; ready?: boolean }[]): SliceLike {
  return {
    metadata: { namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    endpoints: eps.map((e) => ({ addresses: [e.ip], nodeName: e.node, conditions: { ready: e.ready ?? true } })),
  };
}

test('a ClusterIP Service becomes one HNS load balancer over the local endpoint and a conjured remote endpoint', () => {
  const hns = hnsWith('L2Bridge', '10.0.17763', ['10.244.2.5']);
  const p = proxier(hns);
  p.syncAll(servicePortsOf(service({}), [slice([{ ip: '10.244.2.5', node: NODE }, { ip: '10.244.1.7', node: 'linux-1' }])]));
  assert.deepEqual(p.state(), { phase: 'running' });
  const lbs = [...hns.loadBalancers.values()];
  assert.equal(lbs.length, 1);
  assert.deepEqual(lbs[0].frontendVIPs, ['10.96.0.50']);
  assert.deepEqual(lbs[0].portMappings[0], { protocol: 6, internalPort: 8080, externalPort: 80, flags: 0, distributionType: 'None' });
  assert.equal(lbs[0].sourceVIP, NODE_IP);
  const remote = hns.endpointByIP('10.244.1.7')!;
  assert.equal(remote.isRemoteEndpoint, true);
  assert.equal(remote.macAddress, conjureMac('02-11', '10.244.1.7'));
  assert.equal(remote.macAddress, '02-11-0a-f4-01-07');
  // Deleting the Service removes its load balancer and the remote endpoint, never the local one.
  p.syncService('default', 'web', []);
  assert.equal(hns.loadBalancers.size, 0);
  assert.equal(hns.endpointByIP('10.244.1.7'), undefined);
  assert.ok(hns.endpointByIP('10.244.2.5'));
});

test('kube-proxy start-up and network errors, worded as winkernel logs them', () => {
  const cases: { name: string; hns: HnsState; cfg: Partial<KubeProxyProfile>; minor?: number; build?: string; want: string; phase: string }[] = [
    { name: 'no network name', hns: hnsWith('L2Bridge'), cfg: { networkName: undefined }, want: 'Environment variable KUBE_NETWORK and network-flag not initialized', phase: 'failed' },
    { name: 'network missing', hns: hnsWith(undefined), cfg: {}, want: 'Unable to find HNS Network specified, please check network name and CNI deployment', phase: 'waiting' },
    { name: 'DSR without the gate (1.32)', hns: hnsWith('L2Bridge'), cfg: { enableDSR: true }, minor: 32, want: 'WinDSR feature gate not enabled', phase: 'failed' },
    { name: 'overlay without source VIP', hns: hnsWith('Overlay'), cfg: { networkName: 'flannel.4096' }, want: 'source-vip flag not set', phase: 'failed' },
    { name: 'overlay gate off', hns: hnsWith('Overlay'), cfg: { networkName: 'flannel.4096', sourceVip: '10.244.2.9', featureGates: { WinOverlay: false } }, want: 'WinOverlay feature gate not enabled', phase: 'failed' },
    { name: 'WS2016 has no HNS v2', hns: hnsWith('L2Bridge', '10.0.14393'), cfg: {}, build: '10.0.14393', want: 'Windows HNS Api V2 required. This version of windows does not support API V2', phase: 'failed' },
  ];
  for (const c of cases) {
    const p = proxier(c.hns, c.cfg, c.build, c.minor);
    p.syncAll(servicePortsOf(service({}), [slice([{ ip: '10.244.1.7', node: 'linux-1' }])]));
    assert.equal(p.state().phase, c.phase, c.name);
    assert.ok(p.log.grep(c.want).length > 0, `${c.name}: ${p.log.text()}`);
    assert.equal(c.hns.loadBalancers.size, 0, c.name);
  }
});

test('more than 64 backends: HNS refuses a non-DSR load balancer, DSR takes them', () => {
  const eps = Array.from({ length: 65 }, (_, i) => ({ ip: `10.244.${10 + Math.floor(i / 200)}.${(i % 200) + 2}`, node: 'other' }));
  const plain = hnsWith('L2Bridge');
  const p = proxier(plain);
  p.syncAll(servicePortsOf(service({}), [slice(eps)]));
  assert.equal(plain.loadBalancers.size, 0);
  assert.match(p.log.grep('Policy creation failed')[0], /hcnCreateLoadBalancer failed in Win32: The parameter is incorrect. \(0x57\).*invalid number of destinations/);
  // No remote endpoints are left behind by the failed creation.
  assert.equal([...plain.endpoints.values()].filter((e) => e.isRemoteEndpoint).length, 0);

  const dsr = hnsWith('L2Bridge');
  proxier(dsr, { enableDSR: true }).syncAll(servicePortsOf(service({}), [slice(eps)]));
  const [lb] = dsr.loadBalancers.values();
  assert.equal(lb.flags & LB_FLAGS.DSR, LB_FLAGS.DSR);
  assert.equal(lb.hostComputeEndpoints.length, 65);
  // 64 is still fine without DSR.
  const ok = hnsWith('L2Bridge');
  proxier(ok).syncAll(servicePortsOf(service({}), [slice(eps.slice(0, 64))]));
  assert.equal(ok.loadBalancers.size, 1);
});

test('session affinity needs WS2022 (HNS 12): WS2019 logs and balances without it', () => {
  for (const [build, want] of [['10.0.17763', 'None'], ['10.0.20348', 'SourceIP']] as const) {
    const hns = hnsWith('L2Bridge', build);
    const p = proxier(hns, {}, build);
    p.syncAll(servicePortsOf(service({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }), [slice([{ ip: '10.244.1.7', node: 'x' }])]));
    assert.equal([...hns.loadBalancers.values()][0].portMappings[0].distributionType, want, build);
    assert.equal(p.log.grep('Session Affinity is not supported on this version of Windows').length, want === 'None' ? 1 : 0, build);
  }
});

test('NodePort, externalIP and LoadBalancer ingress load balancers with their flags', () => {
  const hns = hnsWith('L2Bridge', '10.0.17763', ['10.244.2.5']);
  const p = proxier(hns);
  const svc = service({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', externalIPs: ['192.168.10.5'], ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080, protocol: 'TCP' }] },
    { 'preserve-destination': 'true' }, ['172.18.255.1']);
  p.syncAll(servicePortsOf(svc, [slice([{ ip: '10.244.2.5', node: NODE }, { ip: '10.244.1.7', node: 'linux-1' }])]));
  const byKind = new Map([...hns.loadBalancers.values()].map((lb) => [lb.description!.replace(/.*\((.*)\)/, '$1'), lb]));
  assert.deepEqual([...byKind.keys()].sort(), ['ClusterIP', 'LoadBalancer', 'NodePort', 'externalIP']);
  const np = byKind.get('NodePort')!;
  assert.deepEqual(np.frontendVIPs, []);
  assert.equal(np.portMappings[0].externalPort, 30080);
  assert.equal(np.portMappings[0].flags, PORT_MAPPING_FLAGS.VipExternalIP | PORT_MAPPING_FLAGS.LocalRoutedVIP);
  assert.equal(np.flags, LB_FLAGS.DSR, 'ETP Local → DSR');
  assert.equal(np.hostComputeEndpoints.length, 1, 'ETP Local → local endpoints only');
  const ing = byKind.get('LoadBalancer')!;
  assert.equal(ing.portMappings[0].flags, PORT_MAPPING_FLAGS.VipExternalIP | PORT_MAPPING_FLAGS.UseMux | PORT_MAPPING_FLAGS.PreserveDIP);
  assert.equal(byKind.get('ClusterIP')!.hostComputeEndpoints.length, 2);
});

test('without --hostname-override kube-proxy does not recognise its own endpoints (ETP Local finds none)', () => {
  const hns = hnsWith('L2Bridge', '10.0.17763', ['10.244.2.5']);
  const p = proxier(hns, { hostnameOverride: false });
  p.syncAll(servicePortsOf(service({ type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 }] }), [slice([{ ip: '10.244.2.5', node: NODE }])]));
  const kinds = [...hns.loadBalancers.values()].map((lb) => lb.description);
  assert.deepEqual(kinds, ['default/web:http (ClusterIP)']);
});

test('without --hostname-override kube-proxy deletes the HNS endpoints of its own pods (troubleshooting Q6)', () => {
  const hns = hnsWith('L2Bridge', '10.0.17763', ['10.244.2.5']);
  const p = proxier(hns, { hostnameOverride: false });
  p.syncAll(servicePortsOf(service({}), [slice([{ ip: '10.244.2.5', node: NODE }])]));
  assert.ok(hns.endpointByIP('10.244.2.5'), 'used while the Service has it');
  p.syncService('default', 'web', []);
  assert.equal(hns.endpointByIP('10.244.2.5'), undefined, 'the pod\'s endpoint went with the Service');
  // With the flag, the same sequence leaves the pod's endpoint alone.
  const ok = hnsWith('L2Bridge', '10.0.17763', ['10.244.2.5']);
  const q = proxier(ok);
  q.syncAll(servicePortsOf(service({}), [slice([{ ip: '10.244.2.5', node: NODE }])]));
  q.syncService('default', 'web', []);
  assert.ok(ok.endpointByIP('10.244.2.5'));
});

test('overlay: a source VIP outside the node\'s subnet (a stale SourceVip.json) stops every rule', () => {
  const hns = hnsWith('Overlay');
  const p = proxier(hns, { networkName: 'flannel.4096', sourceVip: '10.244.9.2' });
  p.syncAll(servicePortsOf(service({}), [slice([{ ip: '10.244.3.7', node: 'other' }])]));
  assert.equal(hns.loadBalancers.size, 0);
  assert.equal(p.state().phase, 'waiting');
  assert.match(p.log.grep('Source Vip endpoint creation failed')[0], /not in the network's subnet 10\.244\.2\.0\/24/);
  const good = hnsWith('Overlay');
  const q = proxier(good, { networkName: 'flannel.4096', sourceVip: '10.244.2.250' });
  q.syncAll(servicePortsOf(service({}), [slice([{ ip: '10.244.3.7', node: 'other' }])]));
  assert.equal(good.loadBalancers.size, 1);
  assert.equal(good.endpointByIP('10.244.2.250')?.isHostEndpoint, true);
  assert.equal(good.endpointByIP('10.244.3.7')?.policies[0].type, 'ProviderAddress');
});
