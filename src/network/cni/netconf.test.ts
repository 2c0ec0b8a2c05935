// Sources: containernetworking/plugins pkg/hns/netconf_windows.go, containernetworking/cni pkg/skel + pkg/version/reconcile.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CniError } from './interfaces.js';
import { applyLoopbackDsr, applyOutboundNat, applyPortMappings, normalisePolicy, parseHnsNetConf, skelCheck } from './netconf.js';
import { createWinBridge } from './plugins/win-bridge.js';
import { createFlannel } from './plugins/flannel.js';

test('v1 and v2 endpoint policies normalise to the same HNS policies; the other format loses its settings', () => {
  const cases = [
    { api: 1 as const, value: { Type: 'OutBoundNAT', ExceptionList: ['10.244.0.0/16'] }, want: { type: 'OutBoundNAT', exceptions: ['10.244.0.0/16'] } },
    { api: 2 as const, value: { Type: 'OutBoundNAT', Settings: { Exceptions: ['10.244.0.0/16'] } }, want: { type: 'OutBoundNAT', exceptions: ['10.244.0.0/16'] } },
    { api: 1 as const, value: { Type: 'ROUTE', DestinationPrefix: '10.96.0.0/12', NeedEncap: true }, want: { type: 'SDNRoute', destinationPrefix: '10.96.0.0/12', needEncap: true } },
    { api: 2 as const, value: { Type: 'SDNRoute', Settings: { DestinationPrefix: '10.96.0.0/12', NeedEncap: true } }, want: { type: 'SDNRoute', destinationPrefix: '10.96.0.0/12', needEncap: true } },
    { api: 1 as const, value: { Type: 'PA', PA: '172.18.0.4' }, want: { type: 'ProviderAddress', providerAddress: '172.18.0.4' } },
    { api: 2 as const, value: { Type: 'ProviderAddress', Settings: { ProviderAddress: '172.18.0.4' } }, want: { type: 'ProviderAddress', providerAddress: '172.18.0.4' } },
    { api: 1 as const, value: { Type: 'NAT', InternalPort: 80, ExternalPort: 8080, Protocol: 'TCP' }, want: { type: 'PortMapping', internalPort: 80, externalPort: 8080, protocol: 6 } },
    { api: 2 as const, value: { Type: 'PortMapping', Settings: { InternalPort: 53, ExternalPort: 5353, Protocol: 17 } }, want: { type: 'PortMapping', internalPort: 53, externalPort: 5353, protocol: 17 } },
    // A v1 value in a v2 config: HCN reads Settings, finds none.
    { api: 2 as const, value: { Type: 'OutBoundNAT', ExceptionList: ['10.244.0.0/16'] }, want: { type: 'OutBoundNAT', exceptions: [] } },
    { api: 2 as const, value: { Type: 'ROUTE', DestinationPrefix: '10.96.0.0/12' }, want: undefined },
  ];
  for (const c of cases) assert.deepEqual(normalisePolicy(c.value, c.api), c.want, JSON.stringify(c.value));
});

test('only EndpointPolicy entries count; loopbackDSR, ipMasqNetwork and port mappings add policies as pkg/hns does', () => {
  const n = parseHnsNetConf({
    name: 'cbr0', type: 'win-bridge', apiVersion: 2, loopbackDSR: true,
    policies: [{ name: 'endpointpolicy', value: { Type: 'OutBoundNAT', Settings: { Exceptions: ['10.244.0.0/16'] } } }, { name: 'Other', value: { Type: 'ACL' } }],
    runtimeConfig: { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: 'tcp' }, { hostPort: 1, containerPort: 1, protocol: 'sctp' }], dns: { servers: ['10.96.0.10'], searches: ['default.svc.cluster.local'] } },
  });
  assert.ok(!(n instanceof CniError));
  applyOutboundNat(n, '10.244.0.0/16'); // already excepted: nothing new
  applyOutboundNat(n, '10.96.0.0/12');
  applyPortMappings(n);
  applyLoopbackDsr(n, '10.244.1.3', { hnsDSR: false });
  assert.equal(n.policies.length, 3, 'no loopback DSR without HNS DSR support; sctp is not a port-mapping protocol');
  applyLoopbackDsr(n, '10.244.1.3', { hnsDSR: true });
  assert.deepEqual(n.policies.map((p) => p.type), ['OutBoundNAT', 'OutBoundNAT', 'PortMapping', 'OutBoundNAT']);
  assert.deepEqual(n.policies[3], { type: 'OutBoundNAT', exceptions: [], destinations: ['10.244.1.3'] });
  assert.deepEqual(n.runtimeDns, { nameservers: ['10.96.0.10'], search: ['default.svc.cluster.local'] });
});

test('Go type errors and skel checks in the plugins\' words', () => {
  const bad = parseHnsNetConf({ name: 'cbr0', apiVersion: '2' });
  assert.ok(bad instanceof CniError);
  assert.equal(bad.message, 'failed to load netconf: json: cannot unmarshal string into Go struct field NetConf.apiVersion of type int');
  const cases = [
    { plugin: createWinBridge(), era: 'legacy' as const, conf: { name: 'cbr0', cniVersion: '0.4.0' }, want: 'incompatible CNI versions; config is "0.4.0", plugin supports ["0.1.0" "0.2.0" "0.3.0"]' },
    { plugin: createWinBridge(), era: 'current' as const, conf: { name: 'cbr0', cniVersion: '0.4.0' }, want: undefined },
    { plugin: createWinBridge(), era: 'legacy' as const, conf: { name: 'cbr0' }, want: undefined },
    { plugin: createFlannel(), era: 'current' as const, conf: { cniVersion: '0.3.1' }, want: 'missing network name' },
    { plugin: createFlannel(), era: 'current' as const, conf: { name: 'x', cniVersion: '2.0.0' }, want: 'incompatible CNI versions; config is "2.0.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0" "1.1.0"]' },
  ];
  for (const c of cases) assert.equal(skelCheck(c.plugin, c.era, c.conf)?.message, c.want, JSON.stringify(c.conf));
});
