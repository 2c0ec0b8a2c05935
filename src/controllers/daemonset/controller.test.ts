import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import type { NodeObj, PodObj } from '../util/types.js';
import { DaemonSetController, type DaemonSetObj } from './controller.js';
import { nodeShouldRunDaemonPod } from './util.js';

const node = (name: string, os: string, taints: NonNullable<NodeObj['spec']>['taints'] = []): NodeObj => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/os': os, 'kubernetes.io/hostname': name } }, spec: { taints },
});

const ds = (name: string, extra: Partial<NonNullable<DaemonSetObj['spec']>> = {}, image = 'proxy:1'): DaemonSetObj => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet',
  metadata: { name, namespace: NS, annotations: { 'deprecated.daemonset.template.generation': '1' } },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    revisionHistoryLimit: 10,
    ...extra,
  },
});

async function setup(seed: (h: ReturnType<typeof newHarness>) => void) {
  const h = newHarness();
  seed(h);
  const c = new DaemonSetController({ ...h, recorder: h.recorder });
  await h.sync();
  return { h, c };
}

/** What the scheduler and kubelet would do: bind each pod to its pinned node and make it Running and Ready. */
async function runPods(h: ReturnType<typeof newHarness>) {
  for (const p of h.client.all<PodObj>(R.pods, NS)) {
    if (p.status?.phase === 'Running' || p.metadata.deletionTimestamp) continue;
    const target = p.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms[0].matchFields![0].values![0];
    const bound = await h.client.update<PodObj>(R.pods, NS, { ...p, spec: { ...p.spec!, nodeName: target } });
    await h.client.update(R.pods, NS, {
      ...bound, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    }, { subresource: 'status' });
  }
  await settle();
}

/** Lets watch events reach the informers. */
async function settle() {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

const nodesOf = (pods: PodObj[]) => pods.map((p) => p.spec?.nodeName ?? p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0].matchFields?.[0].values?.[0]).sort();

describe('DaemonSetController', () => {
  it('places one pinned pod per eligible node with the daemon tolerations, labels, revision and events', async () => {
    const { h, c } = await setup((h) => {
      h.client.seed(R.nodes, node('lin-1', 'linux'));
      h.client.seed(R.nodes, node('lin-2', 'linux'));
      h.client.seed(R.nodes, node('win-1', 'windows'));
      h.client.seed(R.nodes, node('lin-cp', 'linux', [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]));
      h.client.seed(R.nodes, node('lin-nr', 'linux', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]));
      h.client.seed(R.daemonsets, ds('agent', { template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, hostNetwork: true, containers: [{ name: 'c', image: 'proxy:1' }] } } }));
    });
    await drain([c]);
    const pods = h.client.all<PodObj>(R.pods, NS);
    assert.deepEqual(nodesOf(pods), ['lin-1', 'lin-2', 'lin-nr']);
    const [rev] = h.client.all<ControllerRevision & PodObj>(R.controllerrevisions, NS);
    const hash = rev.metadata.labels!['controller-revision-hash'];
    assert.equal(rev.metadata.name, `agent-${hash}`);
    assert.equal(rev.revision, 1);
    assert.equal((rev.data as { spec: { template: { $patch: string } } }).spec.template.$patch, 'replace');
    for (const p of pods) {
      assert.equal(p.metadata.generateName, 'agent-');
      assert.deepEqual(p.metadata.labels, { app: 'agent', 'controller-revision-hash': hash, 'pod-template-generation': '1' });
      assert.equal(p.metadata.ownerReferences?.[0].kind, 'DaemonSet');
      assert.deepEqual(p.spec?.tolerations?.map((t) => `${t.key}:${t.effect}`), [
        'node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule',
        'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule',
        'node.kubernetes.io/network-unavailable:NoSchedule',
      ]);
    }
    assert.deepEqual(h.recorder.events.sort(), pods.map((p) => `Normal SuccessfulCreate Created pod: ${p.metadata.name}`).sort());
    await runPods(h);
    await drain([c]);
    const st = h.client.peek<DaemonSetObj>(R.daemonsets, NS, 'agent')!.status;
    assert.deepEqual(st, {
      currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 1,
      updatedNumberScheduled: 3, numberAvailable: 3, numberUnavailable: 0,
    });
  });

  it('removes pods from nodes that stop matching and counts misscheduled ones', async () => {
    const { h, c } = await setup((h) => {
      h.client.seed(R.nodes, node('lin-1', 'linux'));
      h.client.seed(R.nodes, node('lin-2', 'linux'));
      h.client.seed(R.daemonsets, ds('agent', { template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'c', image: 'proxy:1' }] } } }));
    });
    await drain([c]);
    await runPods(h);
    const n = h.client.peek<NodeObj>(R.nodes, undefined, 'lin-2')!;
    await h.client.update(R.nodes, undefined, { ...n, metadata: { ...n.metadata, labels: { 'kubernetes.io/os': 'windows' } } });
    await drain([c]);
    assert.deepEqual(nodesOf(h.client.all<PodObj>(R.pods, NS)), ['lin-1']);
    assert.ok(h.recorder.events.some((e) => e.startsWith('Normal SuccessfulDelete Deleted pod: agent-')));
  });

  it('rolls a new template out one node at a time with maxUnavailable 1 and records revision 2', async () => {
    const { h, c } = await setup((h) => {
      for (const n of ['a', 'b', 'c']) h.client.seed(R.nodes, node(n, 'linux'));
      h.client.seed(R.daemonsets, ds('agent'));
    });
    await drain([c]);
    await runPods(h);
    await drain([c]);
    const cur = h.client.peek<DaemonSetObj>(R.daemonsets, NS, 'agent')!;
    const next = structuredClone(cur);
    next.spec!.template.spec!.containers[0].image = 'proxy:2';
    next.metadata.annotations!['deprecated.daemonset.template.generation'] = '2';
    next.metadata.generation = 2;
    await h.client.update(R.daemonsets, NS, next);
    await settle();
    await drain([c]);
    // One old pod deleted; its replacement comes once the deletion is seen.
    let pods = h.client.all<PodObj>(R.pods, NS);
    assert.equal(pods.filter((p) => p.spec?.containers[0].image === 'proxy:1').length, 2);
    assert.equal(pods.filter((p) => p.spec?.containers[0].image === 'proxy:2').length, 1);
    for (let i = 0; i < 5; i++) {
      await runPods(h);
      await drain([c]);
    }
    pods = h.client.all<PodObj>(R.pods, NS);
    assert.deepEqual(pods.map((p) => p.spec?.containers[0].image), ['proxy:2', 'proxy:2', 'proxy:2']);
    assert.deepEqual(pods.map((p) => p.metadata.labels?.['pod-template-generation']), ['2', '2', '2']);
    const revs = h.client.all<ControllerRevision & PodObj>(R.controllerrevisions, NS).map((r) => r.revision).sort();
    assert.deepEqual(revs, [1, 2]);
    const st = h.client.peek<DaemonSetObj>(R.daemonsets, NS, 'agent')!.status!;
    assert.equal(st.updatedNumberScheduled, 3);
    assert.equal(st.observedGeneration, 2);
  });

  it('leaves pods alone under OnDelete', async () => {
    const { h, c } = await setup((h) => {
      h.client.seed(R.nodes, node('a', 'linux'));
      h.client.seed(R.daemonsets, ds('agent', { updateStrategy: { type: 'OnDelete' } }));
    });
    await drain([c]);
    await runPods(h);
    const next = structuredClone(h.client.peek<DaemonSetObj>(R.daemonsets, NS, 'agent')!);
    next.spec!.template.spec!.containers[0].image = 'proxy:2';
    next.metadata.annotations!['deprecated.daemonset.template.generation'] = '2';
    await h.client.update(R.daemonsets, NS, next);
    await drain([c]);
    assert.deepEqual(h.client.all<PodObj>(R.pods, NS).map((p) => p.spec?.containers[0].image), ['proxy:1']);
    assert.equal(h.client.peek<DaemonSetObj>(R.daemonsets, NS, 'agent')!.status!.updatedNumberScheduled, 0);
  });

  it('decides placement from nodeSelector, affinity and taints as NodeShouldRunDaemonPod does', () => {
    const d = ds('x', { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [], affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] }] } } } } } });
    assert.deepEqual(nodeShouldRunDaemonPod(node('w', 'windows'), d), { shouldRun: true, shouldContinueRunning: true });
    assert.deepEqual(nodeShouldRunDaemonPod(node('l', 'linux'), d), { shouldRun: false, shouldContinueRunning: false });
    assert.deepEqual(nodeShouldRunDaemonPod(node('w', 'windows', [{ key: 'os', value: 'win', effect: 'NoSchedule' }]), d), { shouldRun: false, shouldContinueRunning: true });
    assert.deepEqual(nodeShouldRunDaemonPod(node('w', 'windows', [{ key: 'gone', effect: 'NoExecute' }]), d), { shouldRun: false, shouldContinueRunning: false });
    assert.deepEqual(nodeShouldRunDaemonPod(node('w', 'windows', [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]), d), { shouldRun: true, shouldContinueRunning: true });
  });
});
