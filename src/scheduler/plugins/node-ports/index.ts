// NodePorts: a pod cannot land where one of its hostPorts is taken (plugins/nodeports/node_ports.go).

import type { CycleState } from '../../framework/cycle-state.js';
import { podHostPorts, type HostPort } from '../../framework/host-ports.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { FilterPlugin, PreFilterPlugin } from '../../interfaces.js';
import type { Pod } from '../../types.js';

export const NAME = 'NodePorts';
export const ERR_REASON = "node(s) didn't have free ports for the requested pod ports";
const PRE_FILTER_KEY = `PreFilter${NAME}`;

export class NodePorts implements PreFilterPlugin, FilterPlugin {
  readonly name = NAME;

  preFilter(state: CycleState, pod: Pod): Status {
    const ports = podHostPorts(pod);
    if (ports.length === 0) return Status.SKIP;
    state.write(PRE_FILTER_KEY, ports);
    return Status.SUCCESS;
  }

  filter(state: CycleState, pod: Pod, node: NodeInfo): Status {
    if (node.usedPorts.size === 0) return Status.SUCCESS;
    const ports = state.get<HostPort[]>(PRE_FILTER_KEY) ?? podHostPorts(pod);
    for (const p of ports) if (node.usedPorts.conflicts(p)) return Status.unschedulable(ERR_REASON);
    return Status.SUCCESS;
  }
}

export const create = (): NodePorts => new NodePorts();
