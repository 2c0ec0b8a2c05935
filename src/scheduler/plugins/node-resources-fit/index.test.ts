import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podRequests } from '../../framework/resource.js';
import { newState, nodeInfo } from '../../testing/harness.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { Pod } from '../../types.js';
import { NodeResourcesFit } from './index.js';
import { allocatableAndRequested, balancedAllocation, balancedAllocationDefault, DEFAULT_RESOURCES, leastAllocated, leastAllocatedDefault } from './scoring.js';
import { BalancedAllocation } from '../node-resources-balanced-allocation/index.js';

describe('podRequests', () => {
  const cases: { name: string; pod: Pod; cpu: number; mem: number }[] = [
    { name: 'sum of containers', pod: makePod().req({ cpu: '100m', memory: '1Mi' }).container('x', { cpu: '250m', memory: '2Mi' }).obj(), cpu: 350, mem: 3 * 2 ** 20 },
    { name: 'init container larger than the sum wins', pod: makePod().req({ cpu: '100m' }).init({ cpu: '1' }).obj(), cpu: 1000, mem: 0 },
    { name: 'sidecars add to the steady state and to later init containers', pod: makePod().req({ cpu: '100m' }).init({ cpu: '200m' }, true).init({ cpu: '500m' }).obj(), cpu: 700, mem: 0 },
    { name: 'overhead is added', pod: makePod().req({ cpu: '100m' }).overhead({ cpu: '50m', memory: '10Mi' }).obj(), cpu: 150, mem: 10 * 2 ** 20 },
    { name: 'fractional cpu rounds up to a millicore', pod: makePod().req({ cpu: '0.0001' }).obj(), cpu: 1, mem: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = podRequests(c.pod);
      assert.equal(r.milliCPU, c.cpu);
      assert.equal(r.memory, c.mem);
    });
  }
});

describe('NodeResourcesFit filter', () => {
  const node = makeNode('n1').allocatable({ cpu: '2', memory: '4Gi', pods: '3', 'ephemeral-storage': '10Gi', 'example.com/gpu': '1' }).obj();
  const existing = [makePod('e1').node('n1').req({ cpu: '1500m', memory: '1Gi' }).obj(), makePod('e2').node('n1').obj()];
  const cases: { name: string; pod: Pod; pods?: Pod[]; want: string[] }[] = [
    { name: 'fits', pod: makePod().req({ cpu: '500m', memory: '3Gi' }).obj(), pods: existing, want: [] },
    { name: 'insufficient cpu', pod: makePod().req({ cpu: '501m' }).obj(), pods: existing, want: ['Insufficient cpu'] },
    { name: 'insufficient cpu and memory, in that order', pod: makePod().req({ memory: '3Gi', cpu: '1' }).container('x', { memory: '1' }).obj(), pods: existing, want: ['Insufficient cpu', 'Insufficient memory'] },
    { name: 'ephemeral storage', pod: makePod().req({ 'ephemeral-storage': '11Gi' }).obj(), want: ['Insufficient ephemeral-storage'] },
    { name: 'extended resource', pod: makePod().req({ 'example.com/gpu': '2' }).obj(), want: ['Insufficient example.com/gpu'] },
    { name: 'unknown extended resource', pod: makePod().req({ 'example.com/fpga': '1' }).obj(), want: ['Insufficient example.com/fpga'] },
    { name: 'too many pods, even for a best-effort pod', pod: makePod().obj(), pods: [...existing, makePod('e3').node('n1').obj()], want: ['Too many pods'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new NodeResourcesFit();
      const s = newState();
      pl.preFilter(s, c.pod);
      const st = pl.filter(s, c.pod, nodeInfo(node, c.pods ?? []));
      assert.deepEqual(st.reasons, c.want);
      if (c.want.length) assert.equal(st.code, 'Unschedulable');
    });
  }
});

describe('resource scoring', () => {
  it('LeastAllocated uses non-zero defaults and integer math', () => {
    const node = makeNode('n1').allocatable({ cpu: '4', memory: '10Gi', pods: '110' }).obj();
    const on = [makePod('e').node('n1').req({ cpu: '1', memory: '2Gi' }).obj()];
    const pod = makePod().obj(); // no requests: 100m and 200Mi for scoring
    const pl = new NodeResourcesFit();
    const s = newState();
    pl.preScore(s, pod);
    // cpu: (4000-1100)*100/4000 = 72; memory: (10240Mi-2248Mi)*100/10240Mi = 78 → (72+78)/2 = 75
    assert.equal(pl.score(s, pod, nodeInfo(node, on)), 75);
  });
  it('MostAllocated', () => {
    const node = makeNode('n1').allocatable({ cpu: '4', memory: '4Gi', pods: '110' }).obj();
    const pl = new NodeResourcesFit({ scoringStrategy: { type: 'MostAllocated' } });
    const pod = makePod().req({ cpu: '2', memory: '1Gi' }).obj();
    const s = newState();
    pl.preScore(s, pod);
    assert.equal(pl.score(s, pod, nodeInfo(node)), 37); // (50 + 25) / 2
  });
  it('BalancedAllocation', () => {
    assert.equal(balancedAllocation([4000, 4096], [2000, 1024]), 87); // |0.5-0.25|/2 = 0.125
    const pl = new BalancedAllocation();
    const s = newState();
    assert.ok(pl.preScore(s, makePod().obj()).isSkip(), 'best-effort pods are skipped');
    const pod = makePod().req({ cpu: '2', memory: '2Gi' }).obj();
    assert.ok(pl.preScore(s, pod).isSuccess());
    assert.equal(pl.score(s, pod, nodeInfo(makeNode('n').allocatable({ cpu: '4', memory: '4Gi', pods: '10' }).obj())), 100);
  });
});

describe('allocation-free default scoring', () => {
  // The fast paths must agree with the general array form for every node/pod combination.
  const nodes = [
    makeNode('a').allocatable({ cpu: '4', memory: '8Gi', pods: '110' }).obj(),
    makeNode('b').allocatable({ cpu: '0', memory: '8Gi', pods: '110' }).obj(),
    makeNode('c').allocatable({ cpu: '3', memory: '5Gi', pods: '110' }).obj(),
  ];
  const placed = [makePod('e').node('x').req({ cpu: '1700m', memory: '3Gi' }).obj(), makePod('f').node('x').obj()];
  const pods = [makePod().obj(), makePod().req({ cpu: '250m' }).obj(), makePod().req({ cpu: '5', memory: '1Gi' }).obj(), makePod().req({ memory: '7Gi' }).obj()];
  for (const n of nodes) {
    for (const [i, p] of pods.entries()) {
      it(`node ${n.metadata.name}, pod ${i}`, () => {
        const ni = nodeInfo(n, placed.map((x) => ({ ...x, spec: { ...x.spec!, nodeName: n.metadata.name } })));
        const nz = podRequests(p, true), rq = podRequests(p);
        assert.equal(leastAllocatedDefault(ni, nz), leastAllocated(...allocatableAndRequested(ni, nz, DEFAULT_RESOURCES, false), DEFAULT_RESOURCES));
        assert.equal(balancedAllocationDefault(ni, rq), balancedAllocation(...allocatableAndRequested(ni, rq, DEFAULT_RESOURCES, true)));
      });
    }
  }
});
