import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Taint, Toleration } from 'kubernetes-types/core/v1.js';
import { R } from '../../client/resources.js';
import { drain, newHarness, type Harness } from '../testing/harness.js';
import type { PodObj } from '../util/types.js';
import { matchingTolerations, minTolerationMs, TaintEvictionController } from './taint-eviction.js';

const UNREACHABLE: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
/** What DefaultTolerationSeconds admission adds to every pod. */
const DEFAULT_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];
const settle = async () => { for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r)); };

function seedPod(h: Harness, name: string, tolerations: Toleration[] = DEFAULT_TOLERATIONS): void {
  h.client.seed(R.pods, { metadata: { name, namespace: 'default' }, spec: { nodeName: 'n', tolerations, containers: [{ name: 'c', image: 'img' }] }, status: { phase: 'Running' } });
}

async function setup(pods: [string, Toleration[]?][]) {
  const h = newHarness();
  h.client.seed(R.nodes, { metadata: { name: 'n' }, spec: {} });
  for (const [name, t] of pods) seedPod(h, name, t);
  const c = new TaintEvictionController({ ...h });
  await h.sync();
  await drain([c]);
  const taint = async (taints: Taint[] | null) => {
    await h.client.patch(R.nodes, undefined, 'n', 'merge', { spec: { taints } });
    await settle();
    await drain([c]);
  };
  const advance = async (ms: number) => {
    await h.clock.advance(ms);
    await drain([c]);
  };
  const names = () => h.client.all<PodObj>(R.pods, 'default').map((p) => p.metadata.name);
  return { h, c, taint, advance, names };
}

describe('TaintEvictionController', () => {
  it('deletes a pod that does not tolerate a NoExecute taint at once, with a DisruptionTarget condition first', async () => {
    const { h, taint, names } = await setup([['intolerant', []], ['tolerant']]);
    await taint([UNREACHABLE]);
    assert.deepEqual(names(), ['tolerant']);
    assert.deepEqual(h.recorder.events, ['Normal TaintManagerEviction Marking for deletion Pod default/intolerant']);
    const status = h.client.actions.find((a) => a.verb === 'patch' && a.subresource === 'status' && a.name === 'intolerant')?.body as { status: { conditions: { type: string; reason: string; message: string }[] } };
    assert.deepEqual(status.status.conditions.map((c) => [c.type, c.reason, c.message]), [['DisruptionTarget', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint']]);
  });

  it('deletes a pod after its tolerationSeconds (300 s by default admission), not before', async () => {
    const { taint, advance, names } = await setup([['web']]);
    await taint([UNREACHABLE]);
    await advance(299_000);
    assert.deepEqual(names(), ['web']);
    await advance(1_000);
    assert.deepEqual(names(), []);
  });

  it('cancels the deletion when the taint goes first', async () => {
    const { h, taint, advance, names } = await setup([['web']]);
    await taint([UNREACHABLE]);
    await advance(100_000);
    await taint(null);
    await advance(300_000);
    assert.deepEqual(names(), ['web']);
    assert.deepEqual(h.recorder.events, ['Normal TaintManagerEviction Cancelling deletion of Pod default/web']);
  });

  it('leaves pods that tolerate the taint forever, and ignores NoSchedule taints', async () => {
    const { taint, advance, names } = await setup([['forever', [{ operator: 'Exists' }]], ['plain', []]]);
    await taint([{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]);
    await advance(3_600_000);
    assert.deepEqual(names(), ['forever', 'plain']);
    await taint([UNREACHABLE]);
    await advance(3_600_000);
    assert.deepEqual(names(), ['forever']);
  });

  it('matching tolerations and the shortest toleration', () => {
    assert.deepEqual(matchingTolerations([UNREACHABLE], DEFAULT_TOLERATIONS), [true, [DEFAULT_TOLERATIONS[1]]]);
    assert.deepEqual(matchingTolerations([UNREACHABLE, { key: 'x', effect: 'NoExecute' }], DEFAULT_TOLERATIONS), [false, []]);
    assert.equal(minTolerationMs([]), 0);
    assert.equal(minTolerationMs([{ operator: 'Exists' }]), -1);
    assert.equal(minTolerationMs([{ tolerationSeconds: 30 }, { tolerationSeconds: 300 }, {}]), 30_000);
    assert.equal(minTolerationMs([{ tolerationSeconds: 30 }, { tolerationSeconds: -5 }]), 0);
  });
});
