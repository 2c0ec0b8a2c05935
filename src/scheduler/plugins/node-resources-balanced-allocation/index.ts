// NodeResourcesBalancedAllocation: prefers nodes whose cpu and memory would be used in similar proportions
// (plugins/noderesources/balanced_allocation.go).

import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { podRequests, type Resource } from '../../framework/resource.js';
import { Status } from '../../framework/status.js';
import { MAX_NODE_SCORE, type PreScorePlugin, type ScorePlugin } from '../../interfaces.js';
import type { Pod } from '../../types.js';
import { ROW, type RowPlugin, type RowScorer } from '../../framework/node-rows.js';
import { invalidScore } from '../../framework/run-scores.js';
import {
  allocatableAndRequested, balancedAllocation, balancedAllocationDefault, balancedAllocationRow, DEFAULT_RESOURCES, isDefaultResources,
  type ResourceSpec,
} from '../node-resources-fit/scoring.js';

export const NAME = 'NodeResourcesBalancedAllocation';
const PRE_SCORE_KEY = `PreScore${NAME}`;

export class BalancedAllocation implements PreScorePlugin, ScorePlugin, RowPlugin {
  readonly name = NAME;
  private readonly isDefault: boolean;
  constructor(private readonly resources: readonly ResourceSpec[] = DEFAULT_RESOURCES) {
    this.isDefault = isDefaultResources(resources);
  }

  /** A best-effort pod changes no balance, so the plugin skips it. */
  preScore(state: CycleState, pod: Pod): Status {
    const req = podRequests(pod);
    if (this.resources.every(({ name }) => (name === 'cpu' ? req.milliCPU : name === 'memory' ? req.memory : req.scalar.get(name) ?? 0) === 0)) {
      return Status.SKIP;
    }
    state.write(PRE_SCORE_KEY, req);
    return Status.SUCCESS;
  }

  rowScore(state: CycleState): RowScorer | undefined {
    if (!this.isDefault) return undefined;
    const req = state.read<Resource>(PRE_SCORE_KEY);
    return (rows, positions, totals, weight) => {
      for (let i = 0; i < positions.length; i++) {
        const v = balancedAllocationRow(req, rows, positions[i]! * ROW);
        if (!(v >= 0 && v <= MAX_NODE_SCORE)) throw invalidScore(NAME, v);
        totals[i]! += v * weight;
      }
    };
  }

  score(state: CycleState, _pod: Pod, node: NodeInfo): number {
    const pod = state.read<Resource>(PRE_SCORE_KEY);
    if (this.isDefault) return balancedAllocationDefault(node, pod);
    const [alloc, req] = allocatableAndRequested(node, pod, this.resources, true);
    return balancedAllocation(alloc, req);
  }
}

export const create = (args: unknown): BalancedAllocation =>
  new BalancedAllocation((args as { resources?: ResourceSpec[] } | undefined)?.resources);
