// NodeName: a pod that names a node fits only that node (plugins/nodename/node_name.go).

import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { FilterPlugin } from '../../interfaces.js';
import type { Pod } from '../../types.js';

export const NAME = 'NodeName';
export const ERR_REASON = "node(s) didn't match the requested node name";

export class NodeName implements FilterPlugin {
  readonly name = NAME;
  filter(_s: CycleState, pod: Pod, node: NodeInfo): Status {
    const want = pod.spec?.nodeName;
    if (want && want !== node.name) return Status.unresolvable(ERR_REASON);
    return Status.SUCCESS;
  }

  /** The answer depends on the node's name only. */
  nodeStaticKey(pod: Pod): string {
    return pod.spec?.nodeName ?? '';
  }
}

export const create = (): NodeName => new NodeName();
