// DefaultPreemption: when no node fits, finds nodes where evicting lower-priority pods makes room, picks the one
// whose eviction hurts least, evicts there and nominates the node (plugins/defaultpreemption/default_preemption.go,
// framework/preemption/preemption.go Evaluator.Preempt). PodDisruptionBudgets count when the cluster serves them.

import type { CycleState } from '../../framework/cycle-state.js';
import { fitErrorMessage } from '../../framework/fit-error.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { Handle, PostFilterPlugin, PostFilterResult } from '../../interfaces.js';
import { R } from '../../../client/resources.js';
import { DEFAULT_SCHEDULER_NAME, podKey, podPriority, type Pod } from '../../types.js';
import { rfc3339 } from '../../../util/clock.js';
import { atLeast } from '../../util/version.js';
import { pickOneNodeForPreemption } from './pick-node.js';
import { selectVictimsOnNode, type Candidate } from './victims.js';

export { NO_VICTIMS } from './victims.js';
export const NAME = 'DefaultPreemption';
export const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NOT_ELIGIBLE_POLICY = 'not eligible due to preemptionPolicy=Never.';
export const NOT_ELIGIBLE_TERMINATING = 'not eligible due to a terminating pod on the nominated node.';

// DefaultPreemptionArgs defaults: try at least 10% of the nodes, and at least 100 of them.
const MIN_CANDIDATE_NODES_PERCENTAGE = 10;
const MIN_CANDIDATE_NODES_ABSOLUTE = 100;

export interface DefaultPreemptionArgs {
  minCandidateNodesPercentage?: number;
  minCandidateNodesAbsolute?: number;
}

/** A victim already being deleted by a preemption (podTerminatingByPreemption). */
function terminatingByPreemption(p: Pod): boolean {
  if (!p.metadata.deletionTimestamp) return false;
  return (p.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.reason === 'PreemptionByScheduler' && c.status === 'True');
}

export class DefaultPreemption implements PostFilterPlugin {
  readonly name = NAME;
  private readonly pct: number;
  private readonly abs: number;

  constructor(private readonly handle: Handle, args: DefaultPreemptionArgs = {}, private readonly rng: () => number = Math.random) {
    this.pct = args.minCandidateNodesPercentage ?? MIN_CANDIDATE_NODES_PERCENTAGE;
    this.abs = args.minCandidateNodesAbsolute ?? MIN_CANDIDATE_NODES_ABSOLUTE;
  }

  postFilter(state: CycleState, pod: Pod, nodeStatuses: ReadonlyMap<string, Status>): PostFilterResult {
    const reason = this.notEligible(pod, nodeStatuses);
    if (reason) return this.result(reason);
    const all = this.handle.nodeInfos.list();
    const statuses: Status[] = [];
    // Nodes failed by an Unresolvable filter cannot be helped by evicting anything (nodesWherePreemptionMightHelp).
    const potential: NodeInfo[] = [];
    for (const ni of all) {
      const s = nodeStatuses.get(ni.name);
      if (!s || s.code === 'UnschedulableAndUnresolvable') statuses.push(Status.unresolvable(NOT_HELPFUL));
      else potential.push(ni);
    }
    const candidates = potential.length ? this.dryRun(state, pod, potential, statuses) : [];
    if (candidates.length === 0) {
      // Nothing to nominate any more: an earlier nomination is cleared (util.ClearNominatedNodeName).
      const clear = pod.status?.nominatedNodeName ? '' : undefined;
      return { ...this.result(fitErrorMessage(all.length, { preFilterMsg: '', postFilterMsg: '' }, statuses)), nominatedNodeName: clear };
    }
    const now = this.handle.clock.now();
    const best = pickOneNodeForPreemption(candidates, now)!;
    this.prepareCandidate(pod, best);
    return { status: Status.SUCCESS, nominatedNodeName: best.node };
  }

  /** PodEligibleToPreemptOthers. */
  private notEligible(pod: Pod, nodeStatuses: ReadonlyMap<string, Status>): string {
    if (pod.spec?.preemptionPolicy === 'Never') return NOT_ELIGIBLE_POLICY;
    const nominated = this.handle.nominator?.nodeFor(podKey(pod)) ?? pod.status?.nominatedNodeName;
    if (!nominated) return '';
    // If the nominated node cannot take the pod whatever is evicted, preempting elsewhere is allowed again.
    if (nodeStatuses.get(nominated)?.code === 'UnschedulableAndUnresolvable') return '';
    const ni = this.handle.nodeInfos.get(nominated);
    const prio = podPriority(pod);
    for (const pi of ni?.pods.values() ?? []) {
      if (podPriority(pi.pod) < prio && terminatingByPreemption(pi.pod)) return NOT_ELIGIBLE_TERMINATING;
    }
    return '';
  }

  /**
   * DryRunPreemption over the potential nodes from a random offset, stopping once enough candidates are found
   * (GetOffsetAndNumCandidates); candidates that break no PDB come first.
   */
  private dryRun(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], statuses: Status[]): Candidate[] {
    const n = nodes.length;
    const want = Math.min(n, Math.max(Math.trunc((n * this.pct) / 100), this.abs));
    const offset = Math.floor(this.rng() * n);
    const pdbs = this.handle.podDisruptionBudgets?.() ?? [];
    const now = this.handle.clock.now();
    const clean: Candidate[] = [], violating: Candidate[] = [];
    const filter = this.handle.runFilterPluginsWithNominatedPods;
    for (let i = 0; i < n; i++) {
      const r = selectVictimsOnNode(filter, state, pod, nodes[(offset + i) % n]!, pdbs, now);
      if (r instanceof Status) {
        statuses.push(r);
        continue;
      }
      (r.numPDBViolations > 0 ? violating : clean).push(r);
      if (clean.length >= want || (clean.length > 0 && clean.length + violating.length >= want)) break;
    }
    return [...clean, ...violating];
  }

  /** "preemption: <msg>", with the trailing period dropped from 1.30 on, where kube stopped printing "..". */
  private result(msg: string): PostFilterResult {
    const v = this.handle.kubernetesVersion;
    const text = atLeast(v, 1, 30) ? msg.replace(/\.$/, '') : msg;
    return { status: Status.unschedulable(`preemption: ${text}`) };
  }

  /**
   * prepareCandidate: mark each victim DisruptionTarget, record Preempted, delete it; then take the nomination away
   * from lower-priority pods nominated to the same node, since the room is now the preemptor's.
   */
  private prepareCandidate(preemptor: Pod, c: Candidate): void {
    const { client, logger, recorder, clock, nominator } = this.handle;
    const scheduler = preemptor.spec?.schedulerName || DEFAULT_SCHEDULER_NAME;
    const condition = {
      type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler',
      message: `${scheduler}: preempting to accommodate a higher priority pod`,
      lastTransitionTime: rfc3339(clock.now()),
    };
    for (const v of c.victims) {
      const { namespace, name } = v.pod.metadata;
      recorder.event(v.pod, 'Normal', 'Preempted', `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${c.node}`, 'Preempting');
      const conditions = [...(v.pod.status?.conditions ?? []).filter((x) => x.type !== 'DisruptionTarget'), condition];
      client.patch(R.pods, namespace, name!, 'strategic', { status: { conditions } }, { subresource: 'status' })
        .catch(() => undefined) // the victim may be gone already; deleting is what matters
        .then(() => client.delete(R.pods, namespace, name!))
        .catch((err: unknown) => logger.warn('preemption: deleting victim failed', { victim: v.key, err: String(err) }));
    }
    const prio = podPriority(preemptor);
    for (const pi of [...(nominator?.podsOn(c.node) ?? [])]) {
      if (pi.key === podKey(preemptor) || podPriority(pi.pod) >= prio) continue;
      nominator!.remove(pi.key);
      const { namespace, name } = pi.pod.metadata;
      client.patch(R.pods, namespace, name!, 'merge', { status: { nominatedNodeName: null } }, { subresource: 'status' })
        .catch((err: unknown) => logger.debug('preemption: clearing nominatedNodeName failed', { pod: pi.key, err: String(err) }));
    }
  }
}

export const create = (args: unknown, handle: Handle): DefaultPreemption => new DefaultPreemption(handle, (args ?? {}) as DefaultPreemptionArgs);
