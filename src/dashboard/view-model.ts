// The dashboard's view model: one pure function from cached nodes, pods, deployments and events to a Snapshot.

import { rfc3339 } from '../util/clock.js';
import { compareNodes, nodeView, type NodeObject } from './node-view.js';
import { comparePods, isUnscheduled, unscheduledPodView, type PodObject } from './pod-view.js';
import type { NodeView, Snapshot, Summary } from './view-types.js';
import { deploymentView, recentEvents, type DeploymentObject, type EventObject } from './workload-view.js';

/** How many events the page shows. */
export const EVENT_LIMIT = 50;

export interface SnapshotInput {
  nodes: readonly NodeObject[];
  pods: readonly PodObject[];
  deployments: readonly DeploymentObject[];
  events: readonly EventObject[];
  /** Epoch ms the snapshot is stamped with. */
  now: number;
}

export function buildSnapshot(input: SnapshotInput): Snapshot {
  const byNode = new Map<string, PodObject[]>();
  for (const pod of input.pods) {
    const n = pod.spec?.nodeName;
    if (!n) continue;
    let list = byNode.get(n);
    if (!list) byNode.set(n, (list = []));
    list.push(pod);
  }
  const nodes = input.nodes.map((n) => nodeView(n, byNode.get(n.metadata.name ?? '') ?? [])).sort(compareNodes);
  const unscheduled = input.pods.filter(isUnscheduled).map(unscheduledPodView)
    .sort((a, b) => (a.created ?? '').localeCompare(b.created ?? '') || comparePods(a, b));
  const deployments = input.deployments.map(deploymentView)
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  const events = recentEvents(input.events, EVENT_LIMIT);
  return { generatedAt: rfc3339(input.now), summary: summarize(input, nodes, unscheduled.length, deployments, events), nodes, unscheduled, deployments, events };
}

function summarize(input: SnapshotInput, nodes: NodeView[], unscheduled: number, deployments: Snapshot['deployments'], events: Snapshot['events']): Summary {
  const phases = new Map<string, number>();
  for (const p of input.pods) {
    const phase = p.status?.phase ?? 'Pending';
    phases.set(phase, (phases.get(phase) ?? 0) + 1);
  }
  const windowsBuilds: Record<string, number> = {};
  for (const n of nodes) if (n.windows) windowsBuilds[n.windows.build] = (windowsBuilds[n.windows.build] ?? 0) + 1;
  return {
    nodes: nodes.length,
    linuxNodes: nodes.filter((n) => n.os === 'linux').length,
    windowsNodes: nodes.filter((n) => n.os === 'windows').length,
    readyNodes: nodes.filter((n) => n.ready === 'True').length,
    windowsBuilds,
    pods: input.pods.length,
    running: phases.get('Running') ?? 0,
    pending: phases.get('Pending') ?? 0,
    failed: phases.get('Failed') ?? 0,
    succeeded: phases.get('Succeeded') ?? 0,
    unscheduled,
    deployments: deployments.length,
    deploymentsReady: deployments.filter((d) => d.ready >= d.desired).length,
    warnings: events.filter((e) => e.type === 'Warning').length,
  };
}
