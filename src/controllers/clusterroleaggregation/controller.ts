// The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go):
// a ClusterRole with an aggregationRule gets the union of the rules of every ClusterRole its selectors match, in
// name order, duplicates dropped. Any ClusterRole change re-checks every aggregating role.

import { labelSelectorAsSelector } from '../../api/labels.js';
import type { KubeObject } from '../../api/types.js';
import { deepEqual } from '../../api/validation/object-meta.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';

export const NAME = 'clusterrole-aggregation-controller';

interface Rule { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] }
type Selector = Parameters<typeof labelSelectorAsSelector>[0];
export type ClusterRoleObj = KubeObject & { rules?: Rule[] | null; aggregationRule?: { clusterRoleSelectors?: Selector[] } | null };

/** The rules `role` aggregates from `all` (syncClusterRole), or undefined when it has no aggregationRule. */
export function aggregatedRules(role: ClusterRoleObj, all: readonly ClusterRoleObj[]): Rule[] | undefined {
  if (!role.aggregationRule) return undefined;
  const rules: Rule[] = [];
  for (const sel of role.aggregationRule.clusterRoleSelectors ?? []) {
    const selector = labelSelectorAsSelector(sel);
    const matched = all.filter((c) => c.metadata.name !== role.metadata.name && selector.matches(c.metadata.labels))
      .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
    for (const c of matched) for (const r of c.rules ?? []) if (!rules.some((x) => deepEqual(x, r))) rules.push(r);
  }
  return rules;
}

export class ClusterRoleAggregationController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly roles: Informer<ClusterRoleObj>;

  constructor(opts: ControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.roles = opts.informers.for<ClusterRoleObj>(R.clusterroles);
    const enqueueAll = () => {
      for (const c of this.roles.list()) if (c.aggregationRule) this.queue.add(c.metadata.name!);
    };
    this.roles.addHandler({ add: enqueueAll, update: enqueueAll, delete: enqueueAll });
  }

  protected informersToSync() {
    return [this.roles];
  }

  async reconcile(name: string): Promise<void> {
    const role = this.roles.get(name);
    if (!role) return;
    const rules = aggregatedRules(role, this.roles.list());
    if (!rules || deepEqual(rules, role.rules ?? null)) return;
    // A conflict throws and the key comes back with backoff, reading the newer object.
    await this.client.update<ClusterRoleObj>(R.clusterroles, undefined, { ...structuredClone(role), rules });
  }
}
