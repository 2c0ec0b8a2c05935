// Table printing for pods: Ready, the aggregate Status reason, Restarts with the last restart's age, and wide columns.

import type { Container, Pod, PodStatus } from 'kubernetes-types/core/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { humanDuration, parseTimestamp, translateTimestampSince } from './duration.js';

/** pkg/util/node NodeUnreachablePodReason: set by the node lifecycle controller on pods of an unreachable node. */
const NODE_LOST = 'NodeLost';

/** pkg/api/pod IsRestartableInitContainer: a sidecar is an init container with restartPolicy Always. */
function isRestartable(c: Container | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

function conditionTrue(status: PodStatus | undefined, type: string): boolean {
  // isPodInitializedConditionTrue / hasPodReadyCondition look at the first condition of the type.
  const cond = (status?.conditions ?? []).find((c) => c.type === type);
  return cond?.status === 'True';
}

/** Keeps the latest of a set of timestamps, as printPod does with lastRestartDate. */
function later(current: number | undefined, ts: string | undefined): number | undefined {
  const t = parseTimestamp(ts);
  if (t === undefined) return current;
  return current === undefined || t > current ? t : current;
}

export interface PodSummary {
  ready: string;
  reason: string;
  restarts: number;
  /** Epoch ms of the most recent container termination counted in `restarts`, if any. */
  lastRestart: number | undefined;
}

/** The Ready, Status and Restarts logic of printers.go printPod. */
export function summarizePod(pod: Pod): PodSummary {
  const spec = pod.spec;
  const status = pod.status ?? {};
  const initSpecs = spec?.initContainers ?? [];
  let total = spec?.containers?.length ?? 0;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: number | undefined;
  let lastSidecarRestart: number | undefined;

  const phase = status.phase ?? '';
  let reason = status.reason ? status.reason : phase;
  for (const c of status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const initByName = new Map<string, Container>();
  for (const c of initSpecs) {
    initByName.set(c.name, c);
    if (isRestartable(c)) total++;
  }

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i]!;
    const sidecar = isRestartable(initByName.get(cs.name));
    restarts += cs.restartCount ?? 0;
    lastRestart = later(lastRestart, cs.lastState?.terminated?.finishedAt);
    if (sidecar) {
      sidecarRestarts += cs.restartCount ?? 0;
      lastSidecarRestart = later(lastSidecarRestart, cs.lastState?.terminated?.finishedAt);
    }
    const terminated = cs.state?.terminated;
    const waiting = cs.state?.waiting;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready) ready++;
      continue;
    }
    if (terminated) {
      if (!terminated.reason) {
        reason = terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode ?? 0}`;
      } else {
        reason = `Init:${terminated.reason}`;
      }
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditionTrue(status, 'Initialized')) {
    // Regular containers count from here; only sidecar restarts carry over from the init loop.
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      restarts += cs.restartCount ?? 0;
      lastRestart = later(lastRestart, cs.lastState?.terminated?.finishedAt);
      const terminated = cs.state?.terminated;
      const waiting = cs.state?.waiting;
      if (waiting?.reason) {
        reason = waiting.reason;
      } else if (terminated?.reason) {
        reason = terminated.reason;
      } else if (terminated) {
        reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
      } else if (cs.ready && cs.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    // A pod whose last-listed container completed while others still run is not "Completed".
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(status, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata?.deletionTimestamp && status.reason === NODE_LOST) {
    reason = 'Unknown';
  } else if (pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') {
    reason = 'Terminating';
  }

  return { ready: `${ready}/${total}`, reason, restarts, lastRestart };
}

/** printPod's wide IP: the conversion from v1 makes status.podIP authoritative over podIPs[0]. */
function podIP(status: PodStatus | undefined): string {
  return status?.podIP || status?.podIPs?.[0]?.ip || '<none>';
}

function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  let trueCount = 0;
  for (const gate of gates) {
    const cond = (pod.status?.conditions ?? []).find((c) => c.type === gate.conditionType);
    if (cond?.status === 'True') trueCount++;
  }
  return `${trueCount}/${gates.length}`;
}

function podRow(obj: KubeObject, now: number): TableCell[] {
  const pod = obj as unknown as Pod;
  const s = summarizePod(pod);
  const restarts =
    s.restarts !== 0 && s.lastRestart !== undefined
      ? `${s.restarts} (${humanDuration(now - s.lastRestart)} ago)`
      : String(s.restarts);
  return [
    pod.metadata?.name ?? '',
    s.ready,
    s.reason,
    restarts,
    translateTimestampSince(pod.metadata?.creationTimestamp, now),
    podIP(pod.status),
    pod.spec?.nodeName || '<none>',
    pod.status?.nominatedNodeName || '<none>',
    readinessGates(pod),
  ];
}

/** metav1.TableRowCondition; the reason and message ride along in the JSON even though TableDef only names type/status. */
interface RowCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

// printers.go podSuccessConditions / podFailedConditions: finished pods carry a Completed row condition.
const SUCCEEDED: RowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const FAILED: RowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

function podConditions(obj: KubeObject): RowCondition[] {
  const phase = (obj as unknown as Pod).status?.phase;
  if (phase === 'Succeeded') return SUCCEEDED.map((c) => ({ ...c }));
  if (phase === 'Failed') return FAILED.map((c) => ({ ...c }));
  return [];
}

export const POD_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Ready containers out of all containers (sidecars included).'),
    column('Status', 'string', 'The aggregate status of the pod and its containers.'),
    column('Restarts', 'string', 'Container restarts, and how long ago the last one happened.'),
    AGE_COLUMN,
    column('IP', 'string', 'The pod IP address (status.podIP).', true),
    column('Node', 'string', 'The node the pod is bound to (spec.nodeName).', true),
    column('Nominated Node', 'string', 'The node nominated by preemption (status.nominatedNodeName).', true),
    column('Readiness Gates', 'string', 'Readiness gate conditions that are True out of all gates.', true),
  ],
  row: podRow,
  conditions: podConditions,
};
