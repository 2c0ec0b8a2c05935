// Which boot of a node this is, read back from the boot ID the Node reported last time, and the kubelet's
// `Rebooted` event when it changed (pkg/kubelet/nodestatus/setters.go MachineInfo).

import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { bootIdFor } from './node-object.js';
import type { NodeProfile } from './profile.js';

/** Far more restarts than any data directory sees; past it the count starts over (the ID still changes). */
const MAX_BOOTS = 10_000;

/**
 * The boot count that produced `previousBootID` (0 when there is none or it is not ours), so the next boot is one
 * more. Boot IDs are derived from the count (node-object.ts bootIdFor), so the count is found by deriving again.
 */
export function previousBoot(p: NodeProfile, previousBootID: string | undefined): number {
  if (!previousBootID) return 0;
  for (let n = 1; n <= MAX_BOOTS; n++) if (bootIdFor(p, n) === previousBootID) return n;
  return 0;
}

/** The kubelet's node reference: kind Node, the node's name as its UID too (kubelet.go nodeRef). */
export function nodeRef(name: string): ObjectReference {
  return { kind: 'Node', name, uid: name, namespace: '' };
}

/** events.NodeRebooted: a Warning whenever the reported boot ID differs from the one stored on the Node. */
export function rebootedMessage(name: string, bootID: string): string {
  return `Node ${name} has been rebooted, boot id: ${bootID}`;
}
