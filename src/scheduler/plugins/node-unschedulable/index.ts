// NodeUnschedulable: cordoned nodes (spec.unschedulable) take only pods tolerating
// node.kubernetes.io/unschedulable:NoSchedule (plugins/nodeunschedulable/node_unschedulable.go).

import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { FilterPlugin } from '../../interfaces.js';
import type { Pod, Taint } from '../../types.js';
import { tolerationsTolerateTaint } from '../../util/tolerations.js';

export const NAME = 'NodeUnschedulable';
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
const REJECTED = Status.unresolvable(ERR_REASON_UNSCHEDULABLE);
const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export class NodeUnschedulable implements FilterPlugin {
  readonly name = NAME;
  filter(_s: CycleState, pod: Pod, node: NodeInfo): Status {
    if (!node.node?.spec?.unschedulable) return Status.SUCCESS;
    if (tolerationsTolerateTaint(pod.spec?.tolerations, UNSCHEDULABLE_TAINT)) return Status.SUCCESS;
    return REJECTED;
  }

  /** The answer depends on spec.unschedulable and on whether the pod tolerates the cordon taint. */
  nodeStaticKey(pod: Pod): string {
    return tolerationsTolerateTaint(pod.spec?.tolerations, UNSCHEDULABLE_TAINT) ? 't' : '';
  }
}

export const create = (): NodeUnschedulable => new NodeUnschedulable();
