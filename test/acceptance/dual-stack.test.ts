// Issue 9 acceptance (dual stack), real kubectl against `winkube up --service-cidr <v4>,<v6>` with a dual-stack fleet:
// nodes get a pod CIDR and an InternalIP of each family, pods an IPv6 address where their node's network allows it
// (Linux; Windows win-bridge from 10.0.19041.610 — not WS2019), a PreferDualStack Service two ClusterIPs, and IPv6
// traffic reaches the Windows pod through the IPv6 ClusterIP (seed 002 "IPv6 networking").

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, winkube, type RunningCluster } from './harness.js';

const FLEET = new URL('../../../test/fixtures/dual-stack-fleet.yaml', import.meta.url).pathname;
const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;

interface PodJson { metadata: { name: string }; status: { phase?: string; podIPs?: { ip: string }[] } }

before(async () => {
  cluster = await startCluster({ fleet: FLEET, args: ['--service-cidr', '10.96.0.0/12,fd00:10:96::/112'] });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const agnhost = (name: string, node: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {app: dual}}
spec:
  nodeName: ${node}
  containers: [{name: c, image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: [netexec, '--http-port=8080']}]
`;
  k.ok(['apply', '-f', '-'], `${agnhost('w2022', 'win2022')}---
${agnhost('w2019', 'win2019')}---
apiVersion: v1
kind: Pod
metadata: {name: lin}
spec:
  nodeName: linux
  containers: [{name: c, image: busybox:1.36, command: [sleep, '36000']}]
---
apiVersion: v1
kind: Service
metadata: {name: dual}
spec:
  ipFamilyPolicy: PreferDualStack
  selector: {app: dual}
  ports: [{port: 80, targetPort: 8080}]
`);
});

after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const podIPs = (name: string) => (JSON.parse(k.ok(['get', 'pod', name, '-o', 'json'])) as PodJson).status.podIPs?.map((p) => p.ip) ?? [];

test('nodes, pods and Services of both families where the seeds allow them', async () => {
  assert.equal(k.ok(['get', 'node', 'win2022', '-o', 'jsonpath={.spec.podCIDRs}']), '["10.244.1.0/24","fd00:10:244:1::/64"]');
  assert.match(k.ok(['get', 'node', 'win2022', '-o', 'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}']), /^172\.18\.0\.3 fc00:f853:ccd:e793::3$/);
  await eventually(() => ['w2022', 'w2019', 'lin'].every((n) => k.ok(['get', 'pod', n, '-o', 'jsonpath={.status.phase}']) === 'Running') || undefined, 30_000, 'pods Running');
  assert.equal(podIPs('lin').length, 2);
  const [v4, v6] = podIPs('w2022');
  assert.match(v4, /^10\.244\.1\.\d+$/);
  assert.match(v6, /^fd00:10:244:1::[0-9a-f]+$/);
  assert.equal(podIPs('w2019').length, 1, 'WS2019 pods stay IPv4 (dual stack needs 10.0.19041.610)');
  assert.match(k.ok(['exec', 'w2022', '--', 'ipconfig']), new RegExp(`IPv6 Address[ .]*: ${v6}`));
  const ips = JSON.parse(k.ok(['get', 'svc', 'dual', '-o', 'jsonpath={.spec.clusterIPs}'])) as string[];
  assert.equal(ips.length, 2);
  assert.match(ips[1], /^fd00:10:96::/);
  // IPv6 through the Service's IPv6 ClusterIP: only the dual-stack Windows pod is in the IPv6 EndpointSlice.
  const body = await eventually(() => {
    const r = k.run(['exec', 'lin', '--', 'wget', '-qO-', `http://[${ips[1]}]/hostname`]);
    return r.code === 0 ? r.stdout : undefined;
  }, 20_000, 'wget over the IPv6 ClusterIP');
  assert.equal(body.trim(), 'w2022');
  const noV6 = winkube(['net', 'trace', 'pod/w2019', v6], cluster.kubeconfig);
  assert.match(noV6.stdout, /verdict: unreachable — pod default\/w2019 has no IPv6 address/);
});
