import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodeCondition, Taint } from 'kubernetes-types/core/v1.js';
import { R } from '../../client/resources.js';
import { rfc3339, rfc3339Micro } from '../../util/clock.js';
import { drain, newHarness, type Harness } from '../testing/harness.js';
import type { NodeObj, PodObj } from '../util/types.js';
import { DEFAULT_CONFIG, NODE_MONITOR_GRACE_PERIOD_MS } from './config.js';
import { parseGoDuration } from '../../util/go-duration.js';
import { NodeLifecycleController } from './controller.js';
import { computeZoneState, TokenBucket, zoneKey } from './zones.js';

const GRACE = NODE_MONITOR_GRACE_PERIOD_MS;
const settle = async () => { for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r)); };

function kubeletConditions(now: number, ready: 'True' | 'False' = 'True'): NodeCondition[] {
  const t = rfc3339(now);
  return [
    { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', lastHeartbeatTime: t, lastTransitionTime: t },
    { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastHeartbeatTime: t, lastTransitionTime: t },
    { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', lastHeartbeatTime: t, lastTransitionTime: t },
    ready === 'True'
      ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: t, lastTransitionTime: t }
      : { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down', lastHeartbeatTime: t, lastTransitionTime: t },
  ];
}

function seedNode(h: Harness, name: string, extra: { taints?: Taint[]; labels?: Record<string, string>; unschedulable?: boolean } = {}): void {
  const now = h.clock.now();
  h.client.seed(R.nodes, {
    metadata: { name, labels: { 'kubernetes.io/os': 'windows', 'beta.kubernetes.io/os': 'windows', ...extra.labels } },
    spec: { ...(extra.taints ? { taints: extra.taints } : {}), ...(extra.unschedulable ? { unschedulable: true } : {}) },
    status: { conditions: kubeletConditions(now) },
  });
  renew(h, name);
}

/** The kubelet's heartbeat: create or renew kube-node-lease/<name>. */
function renew(h: Harness, name: string): void {
  const lease = h.client.peek(R.leases, 'kube-node-lease', name);
  const spec = { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339Micro(h.clock.now()) };
  if (lease) void h.client.patch(R.leases, 'kube-node-lease', name, 'merge', { spec });
  else h.client.seed(R.leases, { metadata: { name, namespace: 'kube-node-lease' }, spec });
}

function seedPod(h: Harness, name: string, node: string): void {
  h.client.seed(R.pods, {
    metadata: { name, namespace: 'default' },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'img' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(h.clock.now()) }] },
  });
}

const node = (h: Harness, name: string) => h.client.peek<NodeObj>(R.nodes, undefined, name)!;
const taints = (h: Harness, name: string) => (node(h, name).spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
const cond = (h: Harness, name: string, type: string) => node(h, name).status?.conditions?.find((c) => c.type === type);

/** Advances the clock in monitor periods, renewing the named nodes' leases as their kubelets would. */
async function run(h: Harness, c: NodeLifecycleController, ms: number, alive: string[]): Promise<void> {
  for (let t = 0; t < ms; t += 5_000) {
    await h.clock.advance(5_000);
    for (const n of alive) renew(h, n);
    await settle();
    await c.monitorNodeHealth();
    await settle();
    await drain([c]);
  }
}

async function setup(nodes: string[], config = {}) {
  const h = newHarness();
  for (const n of nodes) seedNode(h, n);
  const c = new NodeLifecycleController({ ...h, config });
  await h.sync();
  await c.monitorNodeHealth();
  await drain([c]);
  return { h, c };
}

describe('NodeLifecycleController', () => {
  it('keeps nodes whose kubelet renews its Lease Ready, and registers each once', async () => {
    const { h, c } = await setup(['a', 'b', 'c']);
    await run(h, c, 3 * GRACE, ['a', 'b', 'c']);
    for (const n of ['a', 'b', 'c']) {
      assert.equal(cond(h, n, 'Ready')?.status, 'True');
      assert.deepEqual(taints(h, n), []);
    }
    assert.deepEqual(h.recorder.events, ['a', 'b', 'c'].map((n) => `Normal RegisteredNode Node ${n} event: Registered Node ${n} in Controller`));
  });

  it('a node whose Lease goes stale past the grace period: conditions Unknown, taints, pods not Ready', async () => {
    const { h, c } = await setup(['a', 'b', 'c']);
    seedPod(h, 'web', 'b');
    seedPod(h, 'other', 'a');
    const heartbeat = cond(h, 'b', 'Ready')!.lastHeartbeatTime;
    await run(h, c, GRACE - 5_000, ['a', 'c']);
    assert.equal(cond(h, 'b', 'Ready')?.status, 'True', 'still inside the grace period');
    // The pass that finds the Lease stale turns the conditions Unknown; the next one taints (as upstream).
    await run(h, c, 15_000, ['a', 'c']);
    const now = rfc3339(h.clock.now());
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      const got = cond(h, 'b', type)!;
      assert.equal(got.status, 'Unknown', type);
      assert.equal(got.reason, 'NodeStatusUnknown');
      assert.equal(got.message, 'Kubelet stopped posting node status.');
      assert.equal(got.lastHeartbeatTime, heartbeat, 'the last heartbeat stays');
      assert.ok(got.lastTransitionTime! <= now && got.lastTransitionTime! > heartbeat!);
    }
    assert.deepEqual(taints(h, 'b'), ['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
    assert.ok(node(h, 'b').spec!.taints!.every((t) => t.timeAdded), 'taints carry timeAdded');
    assert.equal(cond(h, 'a', 'Ready')?.status, 'True');
    const web = h.client.peek<PodObj>(R.pods, 'default', 'web')!;
    assert.equal(web.status?.conditions?.find((x) => x.type === 'Ready')?.status, 'False');
    assert.equal(h.client.peek<PodObj>(R.pods, 'default', 'other')!.status?.conditions?.[0].status, 'True');
    assert.ok(h.recorder.events.includes('Normal NodeNotReady Node b status is now: NodeNotReady'));
    assert.ok(h.recorder.events.includes('Warning NodeNotReady Node is not ready'));
  });

  it('the kubelet coming back (Lease and Ready) removes the taints', async () => {
    const { h, c } = await setup(['a', 'b', 'c']);
    await run(h, c, GRACE + 10_000, ['a', 'c']);
    assert.equal(cond(h, 'b', 'Ready')?.status, 'Unknown');
    // The kubelet posts its status again (a merge patch replaces the conditions list) and renews.
    await h.client.patch(R.nodes, undefined, 'b', 'merge', { status: { conditions: kubeletConditions(h.clock.now()) } }, { subresource: 'status' });
    await run(h, c, 5_000, ['a', 'b', 'c']);
    assert.equal(cond(h, 'b', 'Ready')?.status, 'True');
    assert.deepEqual(taints(h, 'b'), []);
  });

  it('a kubelet reporting Ready=False gets the not-ready taints; other taints stay', async () => {
    const h = newHarness();
    for (const n of ['a', 'c']) seedNode(h, n);
    seedNode(h, 'b', { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] });
    const c = new NodeLifecycleController({ ...h });
    await h.sync();
    await c.monitorNodeHealth();
    await h.client.patch(R.nodes, undefined, 'b', 'merge', { status: { conditions: kubeletConditions(h.clock.now(), 'False') } }, { subresource: 'status' });
    await run(h, c, 5_000, ['a', 'b', 'c']);
    assert.deepEqual(taints(h, 'b'), ['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/not-ready:NoSchedule', 'os:NoSchedule']);
  });

  it('when every node is down no NoExecute taint is added (full disruption), NoSchedule ones are', async () => {
    const { h, c } = await setup(['only']);
    await run(h, c, GRACE + 10_000, []);
    assert.equal(cond(h, 'only', 'Ready')?.status, 'Unknown');
    assert.deepEqual(taints(h, 'only'), ['node.kubernetes.io/unreachable:NoSchedule']);
    assert.equal(c.noExecute.zoneStates.get(''), 'FullDisruption');
  });

  it('taints nodes NoExecute at --node-eviction-rate (0.1/s) in a healthy zone', async () => {
    const names = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8'];
    const { h, c } = await setup(names);
    await run(h, c, GRACE + 10_000, names.slice(2));
    const tainted = () => names.filter((n) => taints(h, n).includes('node.kubernetes.io/unreachable:NoExecute')).length;
    assert.equal(cond(h, 'n2', 'Ready')?.status, 'Unknown');
    assert.equal(tainted(), 1, 'one token at once');
    await h.clock.advance(10_000);
    await settle();
    await drain([c]);
    assert.equal(tainted(), 2, 'the next after 10 s');
  });

  it('a cordoned node gets node.kubernetes.io/unschedulable:NoSchedule; beta labels follow the stable ones', async () => {
    const h = newHarness();
    seedNode(h, 'a', { unschedulable: true, labels: { 'kubernetes.io/arch': 'amd64' } });
    const c = new NodeLifecycleController({ ...h });
    await h.sync();
    await drain([c]);
    assert.deepEqual(taints(h, 'a'), ['node.kubernetes.io/unschedulable:NoSchedule']);
    assert.equal(node(h, 'a').metadata.labels?.['beta.kubernetes.io/arch'], 'amd64');
    await h.client.patch(R.nodes, undefined, 'a', 'merge', { spec: { unschedulable: null } });
    await settle();
    await drain([c]);
    assert.deepEqual(taints(h, 'a'), []);
  });

  it('a pod bound to a node that is not Ready is marked not Ready when it arrives', async () => {
    const { h, c } = await setup(['a', 'b', 'c']);
    await run(h, c, GRACE + 10_000, ['a', 'c']);
    seedPod(h, 'late', 'b');
    await settle();
    await drain([c]);
    assert.equal(h.client.peek<PodObj>(R.pods, 'default', 'late')!.status?.conditions?.[0].status, 'False');
  });

  it('a short --node-monitor-grace-period is honoured', async () => {
    const { h, c } = await setup(['a', 'b', 'c'], { monitorGracePeriodMs: 15_000 });
    await run(h, c, 20_000, ['a', 'c']);
    assert.equal(cond(h, 'b', 'Ready')?.status, 'Unknown');
    assert.equal(cond(h, 'a', 'Ready')?.status, 'True');
  });
});

describe('node lifecycle helpers', () => {
  it('parses Go durations', () => {
    const cases: [string, number][] = [['40s', 40_000], ['50s', 50_000], ['1m30s', 90_000], ['1.5h', 5_400_000], ['500ms', 500], ['0', 0]];
    for (const [s, ms] of cases) assert.equal(parseGoDuration(s), ms, s);
    for (const bad of ['', '40', 's', '4x', '-']) assert.throws(() => parseGoDuration(bad), /invalid duration/, bad);
    assert.equal(DEFAULT_CONFIG.monitorGracePeriodMs, 50_000);
  });

  it('zone states and keys', () => {
    const r = (s: string) => ({ type: 'Ready', status: s });
    assert.deepEqual(computeZoneState([r('True'), r('Unknown')], 0.55), [1, 'Normal']);
    assert.deepEqual(computeZoneState([r('Unknown'), undefined], 0.55), [2, 'FullDisruption']);
    assert.deepEqual(computeZoneState([r('True'), r('False'), r('Unknown'), r('Unknown')], 0.55), [3, 'PartialDisruption']);
    assert.deepEqual(computeZoneState([r('True'), r('True'), r('False'), r('Unknown'), r('Unknown')], 0.55), [3, 'PartialDisruption']);
    assert.deepEqual(computeZoneState([r('True'), r('True'), r('True'), r('False'), r('Unknown'), r('Unknown')], 0.55), [3, 'Normal']);
    const n = (labels: Record<string, string>) => ({ metadata: { name: 'x', labels } }) as NodeObj;
    assert.equal(zoneKey(n({})), '');
    assert.equal(zoneKey(n({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' })), 'r:\u0000:z');
  });

  it('token bucket on the clock', async () => {
    const h = newHarness();
    const b = new TokenBucket(0.1, 1, h.clock);
    assert.equal(b.tryAccept(), true);
    assert.equal(b.tryAccept(), false);
    await h.clock.advance(9_999);
    assert.equal(b.tryAccept(), false);
    await h.clock.advance(1);
    assert.equal(b.tryAccept(), true);
    assert.equal(new TokenBucket(0, 1, h.clock).tryAccept(), false);
  });
});
