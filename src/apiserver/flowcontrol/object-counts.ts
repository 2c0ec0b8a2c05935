// Stored object counts for the list work estimator, kept as kube keeps them: each resource's count is read when its
// store is first asked for and then re-polled every minute, not read live (k8s.io/apiserver
// pkg/registry/generic/registry/store.go startObservingCount with --etcd-count-metric-poll-period, 1m by default;
// pkg/util/flowcontrol/request/object_count_tracker.go). A list is charged by what the last poll saw.

/** --etcd-count-metric-poll-period's default. */
export const COUNT_POLL_PERIOD_MS = 60_000;

export class ObjectCountTracker {
  /** group → resource → count at the last poll. */
  private readonly counts = new Map<string, Map<string, number>>();

  /** `source`: the live count, undefined for what storage does not hold (aggregated or computed resources). */
  constructor(private readonly source: (group: string, resource: string) => number | undefined) {}

  /** The count as last polled; a resource seen for the first time is polled now, as its store starts observing. */
  get(group: string, resource: string): number | undefined {
    const byResource = this.counts.get(group);
    const n = byResource?.get(resource);
    if (n !== undefined) return n;
    // Nothing stored for it (yet): kube's tracker answers ObjectCountNotFound until a store polls it, so read again.
    const live = this.source(group, resource);
    if (live === undefined) return undefined;
    if (byResource) byResource.set(resource, live);
    else this.counts.set(group, new Map([[resource, live]]));
    return live;
  }

  /** One poll of every resource seen so far; one that is gone stops being tracked (the pruner drops it). */
  refresh(): void {
    for (const [group, byResource] of this.counts) {
      for (const resource of byResource.keys()) {
        const live = this.source(group, resource);
        if (live === undefined) byResource.delete(resource);
        else byResource.set(resource, live);
      }
    }
  }
}
