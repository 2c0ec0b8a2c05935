// DefaultPreemption: when no node fits, finds nodes where evicting lower-priority pods would make room, and says
// why not when there are none (plugins/defaultpreemption/default_preemption.go, framework/preemption/preemption.go).
// Victim choice among several candidates is simplified (fewest victims, then lowest top victim priority); PDBs and
// the nominated-node bookkeeping of kube's Evaluator come with issue 3.

import type { CycleState } from '../../framework/cycle-state.js';
import { fitErrorMessage } from '../../framework/fit-error.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { Handle, PostFilterPlugin, PostFilterResult } from '../../interfaces.js';
import { R } from '../../../client/resources.js';
import { podPriority, type Pod } from '../../types.js';
import { atLeast } from '../../util/version.js';

export const NAME = 'DefaultPreemption';
export const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NO_VICTIMS = 'No preemption victims found for incoming pod';

interface Candidate {
  node: string;
  victims: PodInfo[];
}

export class DefaultPreemption implements PostFilterPlugin {
  readonly name = NAME;
  constructor(private readonly handle: Handle) {}

  postFilter(state: CycleState, pod: Pod, nodeStatuses: ReadonlyMap<string, Status>): PostFilterResult {
    if (pod.spec?.preemptionPolicy === 'Never') return this.result('not eligible due to preemptionPolicy=Never.');
    const all = this.handle.nodeInfos.list();
    const statuses: Status[] = [];
    const candidates: Candidate[] = [];
    for (const ni of all) {
      const s = nodeStatuses.get(ni.name);
      // Nodes failed by an Unresolvable filter cannot be helped by evicting anything (nodesWherePreemptionMightHelp).
      if (!s || s.code === 'UnschedulableAndUnresolvable') {
        statuses.push(Status.unresolvable(NOT_HELPFUL));
        continue;
      }
      const r = this.selectVictimsOnNode(state, pod, ni);
      if ('victims' in r) candidates.push(r);
      else statuses.push(r);
    }
    if (candidates.length === 0) {
      const inner = fitErrorMessage(all.length, { preFilterMsg: '', postFilterMsg: '' }, statuses);
      return this.result(inner);
    }
    const best = candidates.sort(compareCandidates)[0]!;
    this.evict(pod, best);
    return { status: Status.unschedulable(), nominatedNodeName: best.node };
  }

  /** "preemption: <msg>", with the trailing period dropped from 1.30 on, where kube stopped printing "..". */
  private result(msg: string): PostFilterResult {
    const v = this.handle.kubernetesVersion;
    const text = atLeast(v, 1, 30) ? msg.replace(/\.$/, '') : msg;
    return { status: Status.unschedulable(`preemption: ${text}`) };
  }

  /** Removes every lower-priority pod, checks the pod fits, then re-adds as many victims as still fit. */
  private selectVictimsOnNode(state: CycleState, pod: Pod, ni: NodeInfo): Candidate | Status {
    const prio = podPriority(pod);
    const trial = ni.clone();
    const potential = [...trial.pods.values()].filter((pi) => podPriority(pi.pod) < prio);
    if (potential.length === 0) return Status.unresolvable(NO_VICTIMS);
    for (const pi of potential) trial.removePod(pi.key);
    const fits = this.handle.runFilterPlugins(state, pod, trial);
    if (!fits.isSuccess()) return fits;
    // Reprieve the most important pods first (MoreImportantPod: higher priority, then earlier start).
    potential.sort((a, b) => podPriority(b.pod) - podPriority(a.pod));
    const victims: PodInfo[] = [];
    for (const pi of potential) {
      trial.addPod(pi);
      if (!this.handle.runFilterPlugins(state, pod, trial).isSuccess()) {
        trial.removePod(pi.key);
        victims.push(pi);
      }
    }
    return { node: ni.name, victims };
  }

  private evict(preemptor: Pod, c: Candidate): void {
    const { client, logger, recorder } = this.handle;
    for (const v of c.victims) {
      recorder.event(v.pod, 'Normal', 'Preempted', `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${c.node}`, 'Preempting');
      client.delete(R.pods, v.pod.metadata.namespace, v.pod.metadata.name!).catch((err: unknown) => {
        logger.warn('preemption: deleting victim failed', { victim: v.key, err: String(err) });
      });
    }
  }
}

function compareCandidates(a: Candidate, b: Candidate): number {
  const top = (c: Candidate) => Math.max(...c.victims.map((v) => podPriority(v.pod)), -Infinity);
  return top(a) - top(b) || a.victims.length - b.victims.length;
}

export const create = (_args: unknown, handle: Handle): DefaultPreemption => new DefaultPreemption(handle);
