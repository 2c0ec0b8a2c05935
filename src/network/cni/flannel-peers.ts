// The flannel leases of a node agent's nodes' peers: what each flanneld's kube subnet manager learns from its watch of
// all Nodes. The view is the same for every node, so an agent keeps one table for all of its nodes (N entries, not N²).

import type { FlannelLease } from './flannel-setup.js';

export class FlannelPeers {
  private readonly leases = new Map<string, FlannelLease>();
  /** Each lease as JSON, to tell a changed lease from a Node update (heartbeat) that left it as it was. */
  private readonly texts = new Map<string, string>();

  /** Records a node's lease (undefined: the node or its lease is gone); true when the table changed. */
  set(name: string, lease: FlannelLease | undefined): boolean {
    if (!lease) {
      this.texts.delete(name);
      return this.leases.delete(name);
    }
    const text = JSON.stringify(lease);
    if (this.texts.get(name) === text) return false;
    this.texts.set(name, text);
    this.leases.set(name, lease);
    return true;
  }

  /** Every lease but `self`'s: the peers one node routes to. */
  *others(self: string): Iterable<FlannelLease> {
    for (const [name, l] of this.leases) if (name !== self) yield l;
  }
}
