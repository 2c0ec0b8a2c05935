// Which HPAs select which pods, for the AmbiguousSelector check (pkg/controller/podautoscaler/horizontal.go
// hpaSelectors, a pkg/controller/util/selectors BiMultimap): an HPA is registered with a selector that picks nothing
// when it is enqueued, gets its target's selector when it is reconciled, and is dropped when it is deleted.

import { Selector } from '../../api/labels.js';
import { splitKey } from '../../api/types.js';

type Labels = Readonly<Record<string, string>> | undefined;

export class HpaSelectors {
  /** namespace/name of each HPA → its target's selector (Selector.nothing() until its first reconcile). */
  private readonly byHpa = new Map<string, Selector>();

  /** enqueueHPA: known from now on, selecting nothing yet. */
  register(key: string): void {
    if (!this.byHpa.has(key)) this.byHpa.set(key, Selector.nothing());
  }

  /** validateAndParseSelector: only an HPA registered by its handlers takes a selector. */
  update(key: string, selector: Selector): void {
    if (this.byHpa.has(key)) this.byHpa.set(key, selector);
  }

  /** deleteHPA. */
  delete(key: string): void {
    this.byHpa.delete(key);
  }

  /**
   * hpasControllingPodsUnderSelector: the HPAs of the pods' namespace whose selectors pick any of the pods, as
   * `namespace/name` keys. kube lists them in map order; sorted here so the text is stable.
   */
  controlling(namespace: string, pods: readonly { metadata?: { labels?: Labels } }[]): string[] {
    const found = new Set<string>();
    for (const [key, selector] of this.byHpa) {
      if (found.has(key) || splitKey(key).namespace !== namespace) continue;
      if (pods.some((p) => selector.matches(p.metadata?.labels))) found.add(key);
    }
    return [...found].sort();
  }
}
