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
const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export class NodeUnschedulable implements FilterPlugin {
  readonly name = NAME;
  filter(_s: CycleState, pod: Pod, node: NodeInfo): Status {
    if (!node.node?.spec?.unschedulable) return Status.SUCCESS;
    if (tolerationsTolerateTaint(pod.spec?.tolerations, UNSCHEDULABLE_TAINT)) return Status.SUCCESS;
    return Status.unresolvable(ERR_REASON_UNSCHEDULABLE);
  }
}

export const create = (): NodeUnschedulable => new NodeUnschedulable();
