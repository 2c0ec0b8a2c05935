// NodeResourcesFit: the pod's requests must fit in allocatable minus what pods on the node already request; scores
// by the configured strategy, LeastAllocated by default (plugins/noderesources/fit.go).

import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { podRequests, type Resource } from '../../framework/resource.js';
import { Status } from '../../framework/status.js';
import { MAX_NODE_SCORE, type FilterPlugin, type PreFilterPlugin, type PreScorePlugin, type ScorePlugin } from '../../interfaces.js';
import type { Pod } from '../../types.js';
import { ROW, type RowPlugin, type RowScorer } from '../../framework/node-rows.js';
import { invalidScore } from '../../framework/run-scores.js';
import { fits, fitsRequest, rowFits } from './fit.js';
import {
  allocatableAndRequested, DEFAULT_RESOURCES, isDefaultResources, leastAllocated, leastAllocatedDefault, leastAllocatedRow, mostAllocated,
  type ResourceSpec,
} from './scoring.js';

export const NAME = 'NodeResourcesFit';
const PRE_FILTER_KEY = `PreFilter${NAME}`;
const PRE_SCORE_KEY = `PreScore${NAME}`;

export interface NodeResourcesFitArgs {
  ignoredResources?: string[];
  scoringStrategy?: { type?: 'LeastAllocated' | 'MostAllocated'; resources?: ResourceSpec[] };
}

export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, RowPlugin {
  readonly name = NAME;
  private readonly ignored: Set<string>;
  private readonly resources: readonly ResourceSpec[];
  private readonly scorer: typeof leastAllocated;
  /** The default strategy and resources: scored by the allocation-free path. */
  private readonly leastDefault: boolean;

  constructor(args: NodeResourcesFitArgs = {}) {
    this.ignored = new Set(args.ignoredResources ?? []);
    this.resources = args.scoringStrategy?.resources ?? DEFAULT_RESOURCES;
    const type = args.scoringStrategy?.type ?? 'LeastAllocated';
    if (type !== 'LeastAllocated' && type !== 'MostAllocated') throw new Error(`scoring strategy ${String(type)} is not supported`);
    this.scorer = type === 'MostAllocated' ? mostAllocated : leastAllocated;
    this.leastDefault = type === 'LeastAllocated' && isDefaultResources(this.resources);
  }

  preFilter(state: CycleState, pod: Pod): Status {
    state.write(PRE_FILTER_KEY, podRequests(pod));
    return Status.SUCCESS;
  }

  filter(state: CycleState, pod: Pod, node: NodeInfo): Status {
    const req = state.get<Resource>(PRE_FILTER_KEY) ?? podRequests(pod);
    if (fits(req, node, this.ignored)) return Status.SUCCESS;
    const insufficient = fitsRequest(req, node, this.ignored);
    if (insufficient.length === 0) return Status.SUCCESS;
    return Status.unschedulable(...insufficient.map((r) => r.reason));
  }

  /** Pods asking for extended resources need the NodeInfo's scalar maps, so they take the filter() path. */
  rowFilter(state: CycleState, pod: Pod): ((rows: Float64Array, base: number) => boolean) | undefined {
    const req = state.get<Resource>(PRE_FILTER_KEY) ?? podRequests(pod);
    if (req.scalar.size !== 0) return undefined;
    return (rows, base) => rowFits(req, rows, base);
  }

  rowScore(state: CycleState): RowScorer | undefined {
    if (!this.leastDefault) return undefined;
    const req = state.read<Resource>(PRE_SCORE_KEY);
    return (rows, positions, totals, weight) => {
      for (let i = 0; i < positions.length; i++) {
        const v = leastAllocatedRow(req, rows, positions[i]! * ROW);
        if (!(v >= 0 && v <= MAX_NODE_SCORE)) throw invalidScore(NAME, v);
        totals[i]! += v * weight;
      }
    };
  }

  preScore(state: CycleState, pod: Pod): Status {
    state.write(PRE_SCORE_KEY, podRequests(pod, true));
    return Status.SUCCESS;
  }

  score(state: CycleState, _pod: Pod, node: NodeInfo): number {
    const pod = state.read<Resource>(PRE_SCORE_KEY);
    if (this.leastDefault) return leastAllocatedDefault(node, pod);
    const [alloc, req] = allocatableAndRequested(node, pod, this.resources, false);
    return this.scorer(alloc, req, this.resources);
  }
}

export const create = (args: unknown): NodeResourcesFit => new NodeResourcesFit((args ?? {}) as NodeResourcesFitArgs);
