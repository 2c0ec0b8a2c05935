import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkPolicySpec } from 'kubernetes-types/networking/v1.js';
import { endpointPolicy } from '../hns/format.js';
import { addNode, addPod, listener, modelCluster } from '../testing/model-cluster.js';
import { renderHnsAcls } from './hns-acls.js';

test('Calico for Windows shows enforced policy as ACL endpoint policies; flannel endpoints get none', () => {
  const net = modelCluster();
  const ca = addNode(net, { name: 'win-ca', os: 'windows', index: 2, windowsBuild: '10.0.20348', network: { plugin: 'calico' } });
  const fl = addNode(net, { name: 'win-fl', os: 'windows', index: 3, windowsBuild: '10.0.20348' });
  const web = addPod(net, ca, 5, 'web', [listener(80, 'iis')]);
  const flweb = addPod(net, fl, 5, 'flweb', [listener(80, 'iis')]);
  const client = addPod(net, fl, 6, 'client');
  client.labels = () => ({ role: 'client' });
  const set = (name: string, spec: NetworkPolicySpec) => net.policies.set('default', name, { metadata: { name, namespace: 'default' }, spec });
  set('deny', { podSelector: {}, policyTypes: ['Ingress'] });
  set('allow', { podSelector: {}, ingress: [{ from: [{ podSelector: { matchLabels: { role: 'client' } } }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 80 }, { port: 'http' }, { port: 8000, endPort: 8100, protocol: 'UDP' }] }] });
  renderHnsAcls(net);
  const ep = ca.hns!.endpointByIP(web.ip)!;
  assert.deepEqual(ep.policies.filter((p) => p.type === 'ACL').map(endpointPolicy), [
    { Type: 'ACL', Action: 'Allow', Direction: 'In', Priority: 1000, RemoteAddresses: ca.ip },
    // The ipBlock with except and the named port are skipped, as Felix on Windows skips them.
    { Type: 'ACL', Action: 'Allow', Direction: 'In', Priority: 1000, Protocols: '6', RemoteAddresses: client.ip, LocalPorts: '80' },
    { Type: 'ACL', Action: 'Allow', Direction: 'In', Priority: 1000, Protocols: '17', RemoteAddresses: client.ip, LocalPorts: '8000-8100' },
    { Type: 'ACL', Action: 'Block', Direction: 'In', Priority: 1001 },
  ]);
  assert.ok(ep.policies.some((p) => p.type === 'OutBoundNAT'), 'the CNI policies stay');
  assert.equal(fl.hns!.endpointByIP(flweb.ip)!.policies.filter((p) => p.type === 'ACL').length, 0);
  // Policies gone: the ACLs go with them.
  net.policies.set('default', 'deny', undefined);
  net.policies.set('default', 'allow', undefined);
  renderHnsAcls(net);
  assert.deepEqual(ep.policies.filter((p) => p.type === 'ACL'), []);
  assert.ok(ep.policies.some((p) => p.type === 'OutBoundNAT'));
});
