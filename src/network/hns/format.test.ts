// Sources: hnsdiag list all output (Microsoft SDN Kubernetes/flannel docs sample), hns.psm1 Get-HnsPolicyList ELB shape,
// Windows PowerShell 5.1 ConvertTo-Json layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeNetwork } from '../cni/node-network.js';
import { formatHnsdiagList, formatHnsEndpoints, formatHnsNetworks, formatHnsPolicyLists, psJson } from './format.js';

function node() {
  const nn = new NodeNetwork({ profile: { name: 'win-1', os: 'windows', podCIDR: '10.244.2.0/24', internalIP: '172.18.0.4', windowsBuild: '10.0.17763', kubeletVersion: 'v1.33.1', containerRuntime: 'containerd' } });
  const r = nn.setupSandbox({ sandboxID: 'a'.repeat(64), owner: 'uid-1' });
  assert.ok(r.ok);
  const hns = nn.hnsState!;
  hns.addLoadBalancer({
    id: 'AF826F8B-9F78-41EA-BC9E-6E433F8784DF', hostComputeEndpoints: [r.result.endpointId!], sourceVIP: '172.18.0.4', frontendVIPs: ['10.96.0.10'],
    portMappings: [{ protocol: 17, internalPort: 53, externalPort: 53, flags: 0, distributionType: 'None' }], flags: 0,
  });
  return { hns, ep: r.result.endpointId!.toLowerCase() };
}

test('ConvertTo-Json layout of Windows PowerShell 5.1', () => {
  assert.equal(psJson({ Name: 'cbr0', Subnets: [{ AddressPrefix: '10.244.2.0/24' }], Policies: [] }),
    '{\n    "Name":  "cbr0",\n    "Subnets":  [\n                    {\n                        "AddressPrefix":  "10.244.2.0/24"\n                    }\n                ],\n    "Policies":  [\n\n                 ]\n}');
});

test('Get-HnsNetwork / Get-HnsEndpoint / Get-HnsPolicyList / hnsdiag list all of a flannel host-gw node', () => {
  const { hns, ep } = node();
  const nets = formatHnsNetworks(hns);
  assert.match(nets, /^\{\n {4}"ActivityId":/, 'one network prints as one object');
  assert.match(nets, /"Name": {2}"cbr0"/);
  assert.match(nets, /"Type": {2}"L2Bridge"/);
  assert.match(nets, /"GatewayAddress": {2}"10\.244\.2\.1"/);
  const eps = formatHnsEndpoints(hns);
  assert.match(eps, /^\[/, 'two endpoints print as an array');
  assert.match(eps, /"Name": {2}"cbr0_ep"/);
  assert.match(eps, /"Type": {2}"ROUTE"/, 'SDNRoute prints with its v1 name');
  assert.match(eps, /"VirtualNetworkName": {2}"cbr0"/);
  const pl = JSON.parse(formatHnsPolicyLists(hns)) as { Policies: { Type: string; VIPs: string[]; Protocol: number }[]; References: string[] };
  assert.deepEqual([pl.Policies[0].Type, pl.Policies[0].VIPs, pl.Policies[0].Protocol, pl.References], ['ELB', ['10.96.0.10'], 17, [`/endpoints/${ep}`]]);
  const diag = formatHnsdiagList(hns).split('\n');
  assert.deepEqual(diag.slice(0, 3), ['Networks:', 'Name             ID', `cbr0             ${[...hns.networks.keys()][0]}`]);
  assert.ok(diag.includes('Endpoints:'));
  assert.ok(diag.includes('ID                                   | Virtual IPs      | Direct IP IDs'));
  assert.ok(diag.includes(`af826f8b-9f78-41ea-bc9e-6e433f8784df |  10.96.0.10      | ${ep}`));
});
