// Node health from the kubelet's two heartbeats, the Ready condition and the node Lease, timed by this controller's
// own clock (never the kubelet's timestamps, which may be skewed): past the grace period every kubelet-owned condition
// turns Unknown (node_lifecycle_controller.go tryUpdateNodeHealth).

import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { NodeCondition, NodeStatus } from 'kubernetes-types/core/v1.js';
import { rfc3339 } from '../../util/clock.js';
import type { NodeObj } from '../util/types.js';

/** What was last seen of a node, and when, on this controller's clock. */
export interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  status?: NodeStatus;
  lease?: Lease;
}

export interface HealthVerdict {
  /** The grace period the node was judged by (startup or monitor). */
  gracePeriodMs: number;
  /** The Ready condition as the node object had it. */
  observedReady: NodeCondition;
  /** The Ready condition after this pass (Unknown once the grace period is over); undefined if never posted. */
  currentReady?: NodeCondition;
  /** The health record to keep when `conditions` are not written (or the write fails). */
  health: NodeHealth;
  /** The node's conditions to write to its status, when they changed. */
  conditions?: NodeCondition[];
}

/** The conditions the kubelet owns; NetworkUnavailable belongs to the network plugin and is left alone. */
export const KUBELET_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

export const readyCondition = (s: NodeStatus | undefined): NodeCondition | undefined => s?.conditions?.find((c) => c.type === 'Ready');

const renewMs = (l: Lease | undefined) => (l?.spec?.renewTime ? Date.parse(l.spec.renewTime) : NaN);

/**
 * Judges one node (a cached object, left as it is): past the grace period its kubelet conditions come back turned
 * Unknown, to be written.
 */
export function judgeNodeHealth(
  node: NodeObj, saved: NodeHealth | undefined, lease: Lease | undefined, now: number,
  cfg: { monitorGracePeriodMs: number; startupGracePeriodMs: number },
): HealthVerdict {
  const created = Date.parse(node.metadata.creationTimestamp ?? '') || now;
  const createdText = node.metadata.creationTimestamp ?? rfc3339(now);
  let currentReady = readyCondition(node.status);
  let observedReady: NodeCondition;
  let gracePeriodMs: number;
  let health = saved;
  if (!currentReady) {
    // Never posted: judge it from its creation, with the longer startup grace period.
    observedReady = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: createdText, lastTransitionTime: createdText };
    gracePeriodMs = cfg.startupGracePeriodMs;
    health = health ? { ...health, status: node.status } : { status: node.status, probeTimestamp: created, readyTransitionTimestamp: created };
  } else {
    observedReady = { ...currentReady };
    gracePeriodMs = cfg.monitorGracePeriodMs;
  }
  const savedReady = readyCondition(saved?.status);
  const savedLease = saved?.lease;
  if (!health) {
    health = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (!savedReady && currentReady) {
    // First Ready condition seen (a new node, or this controller restarted).
    health = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (savedReady && !currentReady) {
    health = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (savedReady && currentReady && savedReady.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
    const transition = savedReady.lastTransitionTime !== currentReady.lastTransitionTime ? now : health.readyTransitionTimestamp;
    health = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: transition };
  }
  // A renewed Lease is a heartbeat too; a kubelet that renews but never posts status is taken as healthy.
  if (lease && (!savedLease || renewMs(savedLease) < renewMs(lease))) {
    health = { ...health, lease, probeTimestamp: now };
  }

  if (now > health.probeTimestamp + gracePeriodMs) {
    const stamp = rfc3339(now);
    const conditions = (node.status?.conditions ?? []).map((c) => (
      // The heartbeat time stays: it says when the kubelet was last heard from.
      KUBELET_CONDITIONS.includes(c.type) && c.status !== 'Unknown'
        ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: stamp }
        : c));
    for (const type of KUBELET_CONDITIONS) {
      if (conditions.some((x) => x.type === type)) continue;
      conditions.push({
        type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
        lastHeartbeatTime: createdText, lastTransitionTime: stamp,
      });
    }
    currentReady = conditions.find((c) => c.type === 'Ready');
    if (!sameCondition(currentReady, observedReady)) return { gracePeriodMs, observedReady, currentReady, health, conditions };
  }
  return { gracePeriodMs, observedReady, currentReady, health };
}

function sameCondition(a: NodeCondition | undefined, b: NodeCondition): boolean {
  return !!a && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '')
    && (a.lastHeartbeatTime ?? '') === (b.lastHeartbeatTime ?? '') && (a.lastTransitionTime ?? '') === (b.lastTransitionTime ?? '');
}
