// Table tests for the small filters: NodeName, NodeUnschedulable, NodePorts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Status } from '../framework/status.js';
import { newState, nodeInfo } from '../testing/harness.js';
import { makeNode, makePod } from '../testing/wrappers.js';
import type { Node, Pod } from '../types.js';
import { NodeName } from './node-name/index.js';
import { NodePorts } from './node-ports/index.js';
import { NodeUnschedulable } from './node-unschedulable/index.js';

type Case = { name: string; run: () => Status; want: string; code?: string };

function filterWith(pl: { filter(s: ReturnType<typeof newState>, p: Pod, n: ReturnType<typeof nodeInfo>): Status; preFilter?(s: ReturnType<typeof newState>, p: Pod): Status }, pod: Pod, node: Node, on: Pod[] = []): Status {
  const s = newState();
  const pre = pl.preFilter?.(s, pod);
  if (pre?.isSkip()) return pre;
  return pl.filter(s, pod, nodeInfo(node, on));
}

describe('simple filters', () => {
  const n1 = makeNode('n1').obj();
  const cordoned = makeNode('n1').unschedulable().obj();
  const cases: Case[] = [
    { name: 'NodeName: no nodeName', run: () => filterWith(new NodeName(), makePod().obj(), n1), want: '' },
    { name: 'NodeName: same node', run: () => filterWith(new NodeName(), makePod().node('n1').obj(), n1), want: '' },
    { name: 'NodeName: other node', run: () => filterWith(new NodeName(), makePod().node('n2').obj(), n1), want: "node(s) didn't match the requested node name", code: 'UnschedulableAndUnresolvable' },
    { name: 'NodeUnschedulable: schedulable node', run: () => filterWith(new NodeUnschedulable(), makePod().obj(), n1), want: '' },
    { name: 'NodeUnschedulable: cordoned', run: () => filterWith(new NodeUnschedulable(), makePod().obj(), cordoned), want: 'node(s) were unschedulable', code: 'UnschedulableAndUnresolvable' },
    { name: 'NodeUnschedulable: tolerated', run: () => filterWith(new NodeUnschedulable(), makePod().toleration({ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }).obj(), cordoned), want: '' },
    { name: 'NodeUnschedulable: wildcard toleration', run: () => filterWith(new NodeUnschedulable(), makePod().toleration({ operator: 'Exists' }).obj(), cordoned), want: '' },
    { name: 'NodePorts: free', run: () => filterWith(new NodePorts(), makePod().hostPort(80).obj(), n1, [makePod('o').node('n1').hostPort(81).obj()]), want: '' },
    { name: 'NodePorts: same port', run: () => filterWith(new NodePorts(), makePod().hostPort(80).obj(), n1, [makePod('o').node('n1').hostPort(80).obj()]), want: "node(s) didn't have free ports for the requested pod ports", code: 'Unschedulable' },
    { name: 'NodePorts: other protocol', run: () => filterWith(new NodePorts(), makePod().hostPort(53, 'UDP').obj(), n1, [makePod('o').node('n1').hostPort(53).obj()]), want: '' },
    { name: 'NodePorts: specific IP vs wildcard', run: () => filterWith(new NodePorts(), makePod().hostPort(80, 'TCP', '10.0.0.1').obj(), n1, [makePod('o').node('n1').hostPort(80).obj()]), want: "node(s) didn't have free ports for the requested pod ports" },
    { name: 'NodePorts: two specific IPs', run: () => filterWith(new NodePorts(), makePod().hostPort(80, 'TCP', '10.0.0.1').obj(), n1, [makePod('o').node('n1').hostPort(80, 'TCP', '10.0.0.2').obj()]), want: '' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const st = c.run();
      assert.equal(st.message(), c.want);
      if (c.code) assert.equal(st.code, c.code);
    });
  }
});
