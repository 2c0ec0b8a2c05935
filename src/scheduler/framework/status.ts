// Status: the result every plugin returns, with a code and the reason texts users see
// (after k8s.io/kube-scheduler/framework/interface.go Code/Status).

/**
 * Success: the plugin ran and the pod may proceed. Error: something unexpected broke (retried with backoff).
 * Unschedulable: this node does not fit now but may after preemption or a cluster change.
 * UnschedulableAndUnresolvable: preemption would not help on this node.
 * Skip: the plugin has nothing to say for this pod, so its Filter/Score is not run (PreFilter/PreScore only).
 */
export type Code = 'Success' | 'Error' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Skip';

export class Status {
  constructor(
    readonly code: Code,
    readonly reasons: readonly string[] = [],
    /** The plugin that produced the status; the framework stamps it on failures. */
    readonly plugin = '',
    readonly cause?: unknown,
  ) {}

  /** The shared success value; plugins return it rather than allocating. */
  static readonly SUCCESS = new Status('Success');
  static readonly SKIP = new Status('Skip');

  static unschedulable(...reasons: string[]): Status {
    return new Status('Unschedulable', reasons);
  }

  static unresolvable(...reasons: string[]): Status {
    return new Status('UnschedulableAndUnresolvable', reasons);
  }

  static error(err: unknown): Status {
    return new Status('Error', [err instanceof Error ? err.message : String(err)], '', err);
  }

  isSuccess(): boolean {
    return this.code === 'Success';
  }

  isSkip(): boolean {
    return this.code === 'Skip';
  }

  /** Unschedulable or UnschedulableAndUnresolvable: an expected "no", not a failure. */
  isRejected(): boolean {
    return this.code === 'Unschedulable' || this.code === 'UnschedulableAndUnresolvable';
  }

  /** The reasons joined as kube-scheduler's Status.Message() does. */
  message(): string {
    return this.reasons.join(', ');
  }

  /**
   * The same status stamped with a plugin name. Statuses are immutable, so the stamped copy is remembered: a plugin
   * that returns one shared rejection for thousands of nodes costs one allocation, not one per node.
   */
  withPlugin(plugin: string): Status {
    if (plugin === this.plugin) return this;
    const s = this.stamped;
    if (s !== undefined && s.plugin === plugin) return s;
    return (this.stamped = new Status(this.code, this.reasons, plugin, this.cause));
  }

  private stamped?: Status;
}
