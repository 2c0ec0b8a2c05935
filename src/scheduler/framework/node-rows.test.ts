import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Cache } from '../cache/cache.js';
import { makeNode, makePod } from '../testing/wrappers.js';
import { newPodInfo, type NodeInfo } from './node-info.js';
import { HOT, ROW } from './node-rows.js';

/** What a node's row must hold, worked out from the authoritative Resource objects. */
function expectedRow(ni: NodeInfo): number[] {
  const a = ni.allocatable, r = ni.requested, nz = ni.nonZeroRequested;
  const row = new Array<number>(ROW).fill(0);
  row[HOT.ALLOC_CPU] = a.milliCPU;
  row[HOT.ALLOC_MEMORY] = a.memory;
  row[HOT.FREE_CPU] = a.milliCPU - r.milliCPU;
  row[HOT.FREE_MEMORY] = a.memory - r.memory;
  row[HOT.FREE_EPHEMERAL] = a.ephemeralStorage - r.ephemeralStorage;
  row[HOT.FREE_PODS] = a.allowedPodNumber - ni.pods.size;
  row[HOT.NONZERO_CPU] = nz.milliCPU;
  row[HOT.NONZERO_MEMORY] = nz.memory;
  return row;
}

const rowOf = (ni: NodeInfo) => Array.from(ni.hot.subarray(ni.hotBase, ni.hotBase + ROW));

/** Every listed node's row is where the cache says position i's row is, and holds the right figures. */
function assertRows(cache: Cache): void {
  const rows = cache.positionRows();
  cache.list().forEach((ni, i) => {
    assert.equal(ni.hot, rows, `${ni.name} uses the cache's array`);
    assert.equal(ni.hotBase, i * ROW, `${ni.name} sits at its position`);
    assert.deepEqual(rowOf(ni), expectedRow(ni), `${ni.name} row`);
  });
}

describe('node rows', () => {
  it('follow pods, node updates, growth past the initial capacity and swap-removal', () => {
    const cache = new Cache();
    for (let i = 0; i < 100; i++) cache.addOrUpdateNode(makeNode(`n${i}`).allocatable({ cpu: `${1 + (i % 4)}`, memory: `${i + 1}Gi`, pods: '10' }).obj());
    for (let i = 0; i < 100; i += 3) cache.assumePod(makePod(`p${i}`).req({ cpu: '250m', memory: '1Gi' }).node(`n${i}`).obj(), `n${i}`);
    cache.addPod(makePod('best-effort').node('n1').obj());
    assertRows(cache);
    cache.forgetPod(makePod('p3').req({ cpu: '250m', memory: '1Gi' }).node('n3').obj());
    cache.addOrUpdateNode(makeNode('n4').allocatable({ cpu: '64', memory: '1Ti', pods: '200', 'ephemeral-storage': '1Ti' }).obj());
    cache.removeNode(makeNode('n0').obj());
    cache.removeNode(makeNode('n99').obj());
    assertRows(cache);
  });

  it('a removed node that still holds pods keeps a private row, and the node moved into its place is not overwritten', () => {
    const cache = new Cache();
    for (const n of ['a', 'b', 'c']) cache.addOrUpdateNode(makeNode(n).obj());
    cache.addPod(makePod('on-a').node('a').req({ cpu: '1' }).obj());
    cache.removeNode(makeNode('a').obj());
    const c = cache.get('c')!;
    const before = rowOf(c);
    cache.addPod(makePod('also-on-a').node('a').req({ cpu: '1' }).obj());
    assert.deepEqual(rowOf(c), before);
    assertRows(cache);
  });

  it('clones own their rows', () => {
    const cache = new Cache();
    cache.addOrUpdateNode(makeNode('n').obj());
    const ni = cache.get('n')!;
    const copy = ni.clone();
    copy.addPod(newPodInfo(makePod('what-if').node('n').req({ cpu: '1' }).obj()));
    assert.notEqual(copy.hot, ni.hot);
    assert.deepEqual(rowOf(copy), expectedRow(copy));
    assert.deepEqual(rowOf(ni), expectedRow(ni), 'the original is untouched');
    assert.equal(ni.pods.size, 0);
  });
});
