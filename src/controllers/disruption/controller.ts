// The disruption controller (pkg/controller/disruption/disruption.go): keeps each PodDisruptionBudget's status —
// healthy pods, expected pods, disruptions allowed, the DisruptionAllowed condition — and forgets evictions whose
// pods were deleted or never were. It also resets stale DisruptionTarget pod conditions.

import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { isConflict } from '../../api/errors.js';
import {
  conditionsAreUpToDate, DISRUPTION_ALLOWED, setStatusCondition, SYNC_FAILED, updateDisruptionAllowedCondition,
} from '../../api/strategies/pdb-helpers.js';
import { objectKey, splitKey, type KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { selectorMatches } from '../util/selector.js';
import { clone, type DeploymentObj, type PodObj, type ReplicaSetObj, type Typed } from '../util/types.js';
import { buildDisruptedPodMap, countHealthyPods, disruptionsAllowed, expectedPodCount } from './budget.js';
import { unmanagedPodsMessage } from './messages.js';
import { ScaleFinder } from './scale.js';
import { STALE_POD_KEY_PREFIX, staleDisruptionWait, syncStalePodDisruption } from './stale-condition.js';

export const NAME = 'disruption-controller';
/** The event source kube's disruption controller records under. */
export const COMPONENT = 'controllermanager';

type PdbObj = Typed<PodDisruptionBudget>;

export type DisruptionControllerOptions = RecordingControllerOptions;

export class DisruptionController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pods: Informer<PodObj>;
  private readonly pdbs: Informer<PdbObj>;
  private readonly replicaSets: Informer<ReplicaSetObj>;
  private readonly deployments: Informer<DeploymentObj>;
  private readonly scales: ScaleFinder;

  constructor(opts: DisruptionControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), 1);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.pods = opts.informers.for<PodObj>(R.pods);
    this.pdbs = opts.informers.for<PdbObj>(R.poddisruptionbudgets);
    this.replicaSets = opts.informers.for<ReplicaSetObj>(R.replicasets);
    this.deployments = opts.informers.for<DeploymentObj>(R.deployments);
    this.scales = new ScaleFinder({ client: this.client, replicaSets: this.replicaSets, deployments: this.deployments });
    const enqueue = (pdb: PdbObj) => this.queue.add(objectKey(pdb));
    this.pdbs.addHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
    const podChanged = (pod: PodObj) => {
      const pdb = this.pdbForPod(pod);
      if (pdb) enqueue(pdb);
      const wait = staleDisruptionWait(pod, this.clock.now());
      if (wait !== undefined) this.queue.addAfter(STALE_POD_KEY_PREFIX + objectKey(pod), wait);
    };
    this.pods.addHandler({
      add: podChanged,
      update: (_o, n) => podChanged(n),
      delete: (pod) => { const pdb = this.pdbForPod(pod); if (pdb) enqueue(pdb); },
    });
  }

  protected informersToSync() {
    return [this.pods, this.pdbs, this.replicaSets, this.deployments];
  }

  /** getPdbForPod (PodDisruptionBudgetLister.GetPodPodDisruptionBudgets): here an empty selector matches all pods. */
  private pdbForPod(pod: PodObj): PdbObj | undefined {
    if (!pod.metadata.labels || Object.keys(pod.metadata.labels).length === 0) return undefined;
    const pdbs = this.pdbs.list(pod.metadata.namespace).filter((p) => selectorMatches(p.spec?.selector, pod.metadata.labels))
      .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
    if (pdbs.length > 1) {
      this.recorder.event(pod, 'Warning', 'MultiplePodDisruptionBudgets',
        `Pod ${JSON.stringify(pod.metadata.namespace)}/${JSON.stringify(pod.metadata.name)} matches multiple PodDisruptionBudgets.  Chose ${JSON.stringify(pdbs[0].metadata.name)} arbitrarily.`);
    }
    return pdbs[0];
  }

  async reconcile(key: string): Promise<void> {
    if (key.startsWith(STALE_POD_KEY_PREFIX)) {
      const podKey = key.slice(STALE_POD_KEY_PREFIX.length);
      const retryIn = await syncStalePodDisruption(this.client, this.pods.get(podKey), this.clock.now());
      if (retryIn !== undefined) this.queue.addAfter(key, retryIn);
      return;
    }
    const pdb = this.pdbs.get(key);
    if (!pdb) return;
    try {
      await this.trySync(key, pdb);
    } catch (err) {
      // Conflicts retry as they are; anything else first closes the budget (fail safe), as kube's sync does.
      if (isConflict(err)) throw err;
      this.logger.warn('failed to sync PodDisruptionBudget', { pdb: key, err: err instanceof Error ? err.message : String(err) });
      await this.failSafe(pdb, err instanceof Error ? err.message : String(err));
    }
  }

  private async trySync(key: string, pdb: PdbObj): Promise<void> {
    const { namespace } = splitKey(key);
    const pods = this.pods.list(namespace).filter((p) => selectorMatches(pdb.spec?.selector, p.metadata.labels));
    if (pods.length === 0) this.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    let expected;
    try {
      expected = await expectedPodCount(pdb, pods, (ps) => this.scales.expectedScale(ps));
    } catch (err) {
      this.recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
    if (expected.unmanagedPods.length) {
      this.recorder.event(pdb, 'Warning', 'UnmanagedPods', unmanagedPodsMessage(pdb.spec?.selector));
    }
    const now = this.clock.now();
    const disrupted = buildDisruptedPodMap(pods, pdb, now);
    for (const pod of disrupted.notDeleted) {
      // kube's message names the budget's namespace twice (disruption.go passes pdb.Namespace for both).
      this.recorder.event(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.namespace} to be deleted but it wasn't`);
    }
    const currentHealthy = countHealthyPods(pods, disrupted.pods, now);
    await this.updateStatus(pdb, currentHealthy, expected.desiredHealthy, expected.expectedCount, disrupted.pods);
    if (disrupted.recheckAt !== undefined) this.queue.addAfter(key, Math.max(0, disrupted.recheckAt - now));
  }

  /** updatePdbStatus: writes only when a counter, the disrupted pods, the generation or the condition moved. */
  private async updateStatus(pdb: PdbObj, currentHealthy: number, desiredHealthy: number, expectedPods: number, disruptedPods: Record<string, string>): Promise<void> {
    const allowed = disruptionsAllowed(currentHealthy, desiredHealthy, expectedPods);
    const st = pdb.status;
    const generation = pdb.metadata.generation ?? 0;
    if (st && st.currentHealthy === currentHealthy && st.desiredHealthy === desiredHealthy && st.expectedPods === expectedPods
      && st.disruptionsAllowed === allowed && sameMap(st.disruptedPods, disruptedPods) && (st.observedGeneration ?? 0) === generation
      && conditionsAreUpToDate(pdb)) {
      return;
    }
    const next = clone(pdb);
    next.status = {
      currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed: allowed,
      ...(Object.keys(disruptedPods).length ? { disruptedPods } : {}),
      ...(generation ? { observedGeneration: generation } : {}),
      ...(st?.conditions ? { conditions: clone(st.conditions) } : {}),
    };
    updateDisruptionAllowedCondition(next, rfc3339(this.clock.now()));
    await this.client.update(R.poddisruptionbudgets, pdb.metadata.namespace, next, { subresource: 'status' });
  }

  /** failSafe: at least stop evictions (disruptionsAllowed 0, DisruptionAllowed False/SyncFailed). */
  private async failSafe(pdb: PdbObj, message: string): Promise<void> {
    const next = clone(pdb);
    const st = (next.status ??= { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });
    st.disruptionsAllowed = 0;
    setStatusCondition((st.conditions ??= []), {
      type: DISRUPTION_ALLOWED, status: 'False', reason: SYNC_FAILED, message,
      observedGeneration: st.observedGeneration || undefined,
    }, rfc3339(this.clock.now()));
    // An unchanged status is not written again: each write would wake this budget, fail and fail safe once more.
    if (JSON.stringify(next.status) === JSON.stringify(pdb.status)) return;
    await this.client.update(R.poddisruptionbudgets, pdb.metadata.namespace, next as KubeObject, { subresource: 'status' });
  }
}

/** Semantic equality of two disruptedPods maps, where absent and empty are the same. */
function sameMap(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b).length && ka.every((k) => a![k] === b[k]);
}
