// The node's cumulative CPU counter must never go down, but the runtime forgets containers of deleted pods: the
// ledger keeps what each forgotten instance had used when last seen, so the sum only grows.

export class CpuLedger {
  /** Core nanoseconds of instances no longer known, as last seen. */
  private forgotten = 0;
  private lastSeen = new Map<string, number>();

  /** The total over every instance ever seen, given the cumulative usage of the ones known now. */
  total(known: ReadonlyMap<string, number>): number {
    for (const [id, used] of this.lastSeen) if (!known.has(id)) this.forgotten += used;
    let sum = this.forgotten;
    const next = new Map<string, number>();
    for (const [id, used] of known) {
      // An instance's counter only grows; a smaller reading (an earlier `now`) keeps the larger one.
      const kept = Math.max(used, this.lastSeen.get(id) ?? 0);
      next.set(id, kept);
      sum += kept;
    }
    this.lastSeen = next;
    return sum;
  }
}
