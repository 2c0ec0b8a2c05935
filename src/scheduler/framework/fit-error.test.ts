import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitErrorMessage } from './fit-error.js';
import { Status } from './status.js';

describe('fitErrorMessage', () => {
  const u = (...r: string[]) => Status.unresolvable(...r);
  const cases: { name: string; n: number; statuses: Status[]; pre?: string; post?: string; want: string }[] = [
    {
      name: 'reasons counted, sorted as strings, post-filter appended',
      n: 5,
      statuses: [u('node(s) had untolerated taint {os: windows}'), u('node(s) had untolerated taint {os: windows}'), u('node(s) had untolerated taint {os: windows}'), u("node(s) didn't match Pod's node affinity/selector"), u("node(s) didn't match Pod's node affinity/selector")],
      post: 'preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling',
      want: "0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint {os: windows}. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.",
    },
    {
      name: 'one node with several reasons counts under each ("1 ..." sorts before "2 ...")',
      n: 2,
      statuses: [Status.unschedulable('Insufficient cpu', 'Insufficient memory'), Status.unschedulable('Insufficient cpu')],
      want: '0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.',
    },
    { name: 'byte order: 10 sorts before 9', n: 19, statuses: [...Array(10).fill(u('b')), ...Array(9).fill(u('a'))], want: '0/19 nodes are available: 10 b, 9 a.' },
    { name: 'a PreFilter message replaces per-node reasons', n: 3, statuses: [u('x'), u('x'), u('x')], pre: 'persistentvolumeclaim "data" not found', want: '0/3 nodes are available: persistentvolumeclaim "data" not found.' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(fitErrorMessage(c.n, { preFilterMsg: c.pre ?? '', postFilterMsg: c.post ?? '' }, c.statuses), c.want));
  }
});
