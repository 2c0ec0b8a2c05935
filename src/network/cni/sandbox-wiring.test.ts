// Sources: containerd sandbox_run.go ("failed to setup network for sandbox"), kubelet kuberuntime_manager.go
// (FailedCreatePodSandBox, retried on the next sync), windows-facts §5.4 (flanneld's VXLAN checks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { windowsProfile } from '../../node/fleet-defaults.js';
import { StageHarness } from '../../node/testing/stage-harness.js';
import { defaultNetworkProfile } from '../profile.js';
import { NodeNetwork } from './node-network.js';

const pod = (hostNetwork = false): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'uid-web' },
  spec: { hostNetwork, containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', ports: [{ containerPort: 80, hostPort: 8080 }] }] },
});

function harness(vni: number | undefined, hostNetwork = false) {
  const profile = windowsProfile('win-1', 2, '10.0.17763', { network: { ...defaultNetworkProfile('windows'), backend: vni ? 'vxlan' : 'host-gw', vni } });
  const h = new StageHarness(pod(hostNetwork), profile);
  const nn = new NodeNetwork({ profile, ipam: h.ctx.ipam });
  h.ctx.network = nn;
  return { h, nn };
}

test('a node whose flannel config fails leaves its pods ContainerCreating with the CNI error, retried', async () => {
  const { h } = harness(1);
  await h.advance(5_000);
  const failed = h.events.filter((e) => e.reason === 'FailedCreatePodSandBox');
  assert.ok(failed.length >= 2, 'the sandbox is retried');
  assert.equal(failed[0].message, `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${h.rec.sandboxID ?? failed[0].message.match(/sandbox "([0-9a-f]{64})"/)![1]}": plugin type="flannel" name="flannel.1" failed (add): failed to load flannel 'subnet.env' file: open /run/flannel/subnet.env: The system cannot find the path specified.. Check the flannel pod log for this node.`);
  assert.equal(h.rec.podIP, undefined);
  assert.equal(h.status().containerStatuses?.[0].state?.waiting?.reason, 'ContainerCreating');
});

test('the sandbox gets its IP from the plugin; hostPort is a PortMapping on win-bridge only; a plain hostNetwork pod still gets one on containerd', async () => {
  const { h, nn } = harness(undefined);
  await h.advance(5_000);
  assert.equal(h.rec.podIP, '10.244.2.3');
  const ep = nn.hnsState!.endpointByName(`${h.rec.sandboxID}_cbr0`)!;
  assert.deepEqual(ep.policies.find((p) => p.type === 'PortMapping'), { type: 'PortMapping', internalPort: 80, externalPort: 8080, protocol: 6 });
  // win-overlay's processEndpointArgs never applies port mappings.
  const overlay = harness(4096);
  await overlay.h.advance(5_000);
  assert.equal(overlay.h.rec.podIP, '10.244.2.2');
  assert.equal(overlay.nn.hnsState!.endpointByName(`${overlay.h.rec.sandboxID}_flannel.4096`)!.policies.some((p) => p.type === 'PortMapping'), false);
  // A plain hostNetwork pod on a Windows containerd node still goes through CNI: containerd puts only HostProcess
  // pods on the host network (src/node/os/windows/host-network.ts).
  const host = harness(undefined, true);
  await host.h.advance(5_000);
  assert.equal(host.h.rec.podIP, '10.244.2.3');
  assert.equal([...host.nn.hnsState!.endpoints.values()].filter((e) => !e.isHostEndpoint).length, 1);
});
