// The node Lease heartbeat: kube-node-lease/<node>, renewed every 10 s with leaseDurationSeconds 40
// (pkg/kubelet/nodelease, k8s.io/component-helpers/apimachinery/lease/controller.go).

import { isAlreadyExists, isNotFound } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { rfc3339Micro } from '../util/clock.js';

export const LEASE_NAMESPACE = 'kube-node-lease';
export const LEASE_DURATION_SECONDS = 40;
/** renewInterval = 0.25 × leaseDuration. */
export const LEASE_RENEW_MS = 10_000;
/** wait.JitterUntil(…, renewInterval, 0.04, …): each wait is up to 4 % longer, at random. */
export const LEASE_RENEW_JITTER = 0.04;

/**
 * The wait before the next heartbeat: the interval plus up to 4 % (the lease controller's and the kubelet's node
 * status loop's jitter), so kubelets started together drift apart instead of renewing in one burst.
 */
export function nextHeartbeatMs(random: () => number = Math.random): number {
  return LEASE_RENEW_MS * (1 + LEASE_RENEW_JITTER * random());
}

export function leaseObject(node: string, nodeUid: string | undefined, now: number): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: node,
      namespace: LEASE_NAMESPACE,
      // The kubelet owns its lease through the Node, so deleting the Node removes the lease.
      ...(nodeUid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node, uid: nodeUid }] } : {}),
    },
    spec: { holderIdentity: node, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: rfc3339Micro(now) },
  };
}

/** Creates the lease or renews it; a missing lease is recreated. */
export async function renewLease(client: Client, node: string, nodeUid: string | undefined, now: number, exists: boolean): Promise<void> {
  if (exists) {
    try {
      await client.patch(R.leases, LEASE_NAMESPACE, node, 'merge', { spec: { holderIdentity: node, renewTime: rfc3339Micro(now) } });
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  try {
    await client.create(R.leases, LEASE_NAMESPACE, leaseObject(node, nodeUid, now));
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    await client.patch(R.leases, LEASE_NAMESPACE, node, 'merge', { spec: { holderIdentity: node, renewTime: rfc3339Micro(now) } });
  }
}
