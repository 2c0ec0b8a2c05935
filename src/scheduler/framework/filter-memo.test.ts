import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FilterPlugin } from '../interfaces.js';
import { cacheWith, testHandle } from '../testing/harness.js';
import { makeNode, makePod } from '../testing/wrappers.js';
import type { Pod } from '../types.js';
import { CycleState } from './cycle-state.js';
import type { NodeInfo } from './node-info.js';
import { Registry } from './registry.js';
import { Framework } from './runtime.js';
import { Status } from './status.js';

/** Counts calls; "static" plugins answer from the node's labels only and say so with nodeStaticKey. */
function counting(name: string, isStatic: boolean, ok: (pod: Pod, n: NodeInfo) => boolean) {
  const pl: FilterPlugin & { calls: number } = {
    name, calls: 0,
    filter(_s, pod, n) {
      pl.calls++;
      return ok(pod, n) ? Status.SUCCESS : Status.unresolvable(`${name} says no`);
    },
  };
  if (isStatic) pl.nodeStaticKey = (pod) => pod.spec?.nodeSelector?.os ?? '';
  return pl;
}

function frameworkWith(plugins: FilterPlugin[]) {
  const registry = new Registry(plugins.map((p) => [p.name, () => p] as const));
  return new Framework({ registry, plugins: plugins.map((p) => ({ name: p.name })), handle: testHandle() });
}

const osMatches = (pod: Pod, n: NodeInfo) => n.labels.os === (pod.spec?.nodeSelector?.os ?? n.labels.os);

describe('node-static filter memo', () => {
  it('answers repeated questions from the memo until the node changes', () => {
    const st = counting('Static', true, osMatches);
    const fw = frameworkWith([st]);
    const cache = cacheWith([makeNode('w').label('os', 'windows').obj()]);
    const ni = cache.get('w')!;
    const ask = (os: string, name: string) => fw.runFilterPlugins(new CycleState(), makePod(name).nodeSelector({ os }).obj(), ni);
    assert.ok(ask('windows', 'a').isSuccess());
    assert.ok(ask('windows', 'b').isSuccess());
    assert.equal(st.calls, 1, 'second pod with the same key is answered from the memo');
    assert.equal(ask('linux', 'c').message(), 'Static says no');
    assert.equal(ask('linux', 'd').plugin, 'Static', 'a remembered rejection keeps its plugin');
    assert.equal(st.calls, 2);
    cache.addOrUpdateNode(makeNode('w').label('os', 'linux').obj());
    assert.ok(ask('linux', 'e').isSuccess(), 'a changed node is asked again');
    assert.equal(st.calls, 3);
  });

  it('memoizes only a leading run of static filters, so the first rejecting plugin is still reported', () => {
    const dyn = counting('Dynamic', false, () => false);
    const st = counting('Static', true, () => false);
    const fw = frameworkWith([dyn, st]);
    const ni = cacheWith([makeNode('n').obj()]).get('n')!;
    for (const name of ['a', 'b']) assert.equal(fw.runFilterPlugins(new CycleState(), makePod(name).obj(), ni).plugin, 'Dynamic');
    assert.equal(dyn.calls, 2);
  });

  it('does not remember errors', () => {
    let fail = true;
    const pl: FilterPlugin = { name: 'Flaky', filter: () => (fail ? Status.error(new Error('boom')) : Status.SUCCESS), nodeStaticKey: () => '' };
    const fw = frameworkWith([pl]);
    const ni = cacheWith([makeNode('n').obj()]).get('n')!;
    assert.equal(fw.runFilterPlugins(new CycleState(), makePod('a').obj(), ni).code, 'Error');
    fail = false;
    assert.ok(fw.runFilterPlugins(new CycleState(), makePod('b').obj(), ni).isSuccess());
  });
});
