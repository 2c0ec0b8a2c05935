// VolumeBinding: a pod's PersistentVolumeClaims decide where it may run. Bound claims pin it to the nodes their
// volumes' node affinity admits; WaitForFirstConsumer claims need a matching free volume on the node or a class that
// can provision there, and the chosen node is written to the claims before the pod is bound
// (pkg/scheduler/framework/plugins/volumebinding/volume_binding.go, binder.go).

import type { PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type {
  FilterPlugin, Handle, ObjectListers, PreBindPlugin, PreFilterPlugin, ReservePlugin,
} from '../../interfaces.js';
import { R } from '../../../client/resources.js';
import type { Pod } from '../../types.js';
import { claimKey, findPodVolumes, podClaims, type PodVolumes } from './find.js';

export const NAME = 'VolumeBinding';
export const SELECTED_NODE_ANNOTATION = 'volume.kubernetes.io/selected-node';
export const BOUND_BY_CONTROLLER_ANNOTATION = 'pv.kubernetes.io/bound-by-controller';
export const ERR_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
/** How long PreBind waits for the claims to be bound (the plugin's default bindTimeoutSeconds). */
export const BIND_TIMEOUT_MS = 600_000;
const POLL_MS = 200;
const STATE_KEY = `PreFilter${NAME}`;

interface StateData {
  bound: PersistentVolumeClaim[];
  delayed: PersistentVolumeClaim[];
  /** What Filter found per feasible node: the volumes to bind and the claims to provision. */
  byNode: Map<string, PodVolumes>;
  /** Set by Reserve: the node's plan, or undefined when every claim is already bound. */
  reserved?: PodVolumes;
}

export class VolumeBinding implements PreFilterPlugin, FilterPlugin, ReservePlugin, PreBindPlugin {
  readonly name = NAME;
  /** Volumes promised to a claim by a pod in Reserve..PreBind, so other pods do not pick them meanwhile (assume cache). */
  private readonly assumedVolumes = new Map<string, string>();
  /** Claims promised a node by a pod in Reserve..PreBind, before the annotation reaches the informer. */
  private readonly assumedClaims = new Map<string, string>();

  constructor(private readonly handle: Pick<Handle, 'client' | 'clock'> & { listers?: ObjectListers }) {}

  private get listers(): ObjectListers {
    return this.handle.listers ?? {};
  }

  preFilter(state: CycleState, pod: Pod): Status {
    const res = podClaims(pod, this.listers);
    if (res.status) return res.status;
    if (!res.claims.length) return Status.SKIP;
    const bound: PersistentVolumeClaim[] = [], delayed: PersistentVolumeClaim[] = [];
    let immediateUnbound = false;
    for (const c of res.claims) {
      if (c.spec?.volumeName) bound.push(c);
      else if (this.isDelayBinding(c)) delayed.push(c);
      else immediateUnbound = true;
    }
    // Immediate claims are the PV controller's to bind; the pod is retried when they are (storage events).
    if (immediateUnbound) return Status.unresolvable(ERR_UNBOUND_IMMEDIATE);
    state.write(STATE_KEY, { bound, delayed, byNode: new Map() } satisfies StateData);
    return Status.SUCCESS;
  }

  /** IsDelayBindingMode: a class that is missing or unnamed counts as Immediate. */
  private isDelayBinding(c: PersistentVolumeClaim): boolean {
    const name = className(c);
    return !!name && this.listers.storageClass?.(name)?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  filter(state: CycleState, pod: Pod, node: NodeInfo): Status {
    const data = state.get<StateData>(STATE_KEY);
    if (!data) return Status.SUCCESS;
    const r = findPodVolumes(data.bound, data.delayed, node, this.listers, {
      assumedVolumes: this.assumedVolumes, assumedClaims: this.assumedClaims,
    });
    if (r.reasons.length) return Status.unresolvable(...r.reasons);
    data.byNode.set(node.name, r.volumes);
    return Status.SUCCESS;
  }

  /** AssumePodVolumes: remember the node's plan and keep its volumes from other pods until PreBind is done. */
  reserve(state: CycleState, pod: Pod, nodeName: string): Status {
    const data = state.get<StateData>(STATE_KEY);
    if (!data) return Status.SUCCESS;
    const plan = data.byNode.get(nodeName);
    if (!plan || (!plan.bindings.length && !plan.provisions.length)) {
      data.reserved = undefined;
      return Status.SUCCESS;
    }
    const claim = (c: PersistentVolumeClaim) => claimKey(c.metadata?.namespace ?? '', c.metadata?.name ?? '');
    for (const b of plan.bindings) {
      const holder = this.assumedVolumes.get(b.pv.metadata!.name!);
      if (holder !== undefined && holder !== claim(b.claim)) return Status.unschedulable(`volume ${b.pv.metadata!.name} is being bound to another claim`);
    }
    for (const b of plan.bindings) this.assumedVolumes.set(b.pv.metadata!.name!, claim(b.claim));
    for (const c of plan.provisions) this.assumedClaims.set(claim(c), nodeName);
    data.reserved = plan;
    return Status.SUCCESS;
  }

  unreserve(state: CycleState, _pod: Pod, _nodeName: string): void {
    const plan = state.get<StateData>(STATE_KEY)?.reserved;
    if (plan) this.forget(plan);
  }

  private forget(plan: PodVolumes): void {
    for (const b of plan.bindings) this.assumedVolumes.delete(b.pv.metadata!.name!);
    for (const c of plan.provisions) this.assumedClaims.delete(claimKey(c.metadata?.namespace ?? '', c.metadata?.name ?? ''));
  }

  /**
   * BindPodVolumes: reserve the chosen volumes for their claims (claimRef) and tell the provisioner the node
   * (selected-node), then wait until the PV controller has bound every claim, so the pod reaches its node with its
   * volumes ready.
   */
  async preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    const plan = state.get<StateData>(STATE_KEY)?.reserved;
    if (!plan) return Status.SUCCESS;
    const { client } = this.handle;
    try {
      for (const b of plan.bindings) {
        const pv = structuredClone(b.pv);
        pv.metadata = { ...pv.metadata, annotations: { ...(pv.metadata?.annotations ?? {}), [BOUND_BY_CONTROLLER_ANNOTATION]: 'yes' } };
        pv.spec = {
          ...pv.spec,
          claimRef: {
            kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: b.claim.metadata?.namespace, name: b.claim.metadata?.name,
            uid: b.claim.metadata?.uid, resourceVersion: b.claim.metadata?.resourceVersion,
          },
        };
        await client.update(R.persistentvolumes, undefined, pv as never);
      }
      // The versions our writes replaced: until the informer shows a newer one, its copy says nothing yet.
      const stale = new Set<string>();
      for (const c of plan.provisions) {
        if (c.metadata?.annotations?.[SELECTED_NODE_ANNOTATION] === nodeName) continue;
        await client.patch(R.persistentvolumeclaims, c.metadata!.namespace, c.metadata!.name!, 'merge',
          { metadata: { annotations: { [SELECTED_NODE_ANNOTATION]: nodeName } } });
        stale.add(`${c.metadata?.uid}@${c.metadata?.resourceVersion}`);
      }
      return await this.waitForBindings(plan, nodeName, stale);
    } finally {
      this.forget(plan);
    }
  }

  private async waitForBindings(plan: PodVolumes, nodeName: string, stale: ReadonlySet<string>): Promise<Status> {
    const { clock } = this.handle;
    const deadline = clock.now() + BIND_TIMEOUT_MS;
    const claims = [...plan.bindings.map((b) => b.claim), ...plan.provisions];
    for (;;) {
      const st = this.checkBindings(claims, plan.provisions, nodeName, stale);
      if (st !== undefined) return st;
      if (clock.now() >= deadline) return Status.error(new Error(`binding volumes: context deadline exceeded`));
      await clock.sleep(POLL_MS);
    }
  }

  /** checkBindings: Success when all claims are bound, an error when provisioning was given up, undefined to wait. */
  private checkBindings(claims: PersistentVolumeClaim[], provisions: PersistentVolumeClaim[], nodeName: string, stale: ReadonlySet<string>): Status | undefined {
    const l = this.listers;
    for (const c of claims) {
      const cur = l.persistentVolumeClaim?.(c.metadata!.namespace!, c.metadata!.name!);
      if (!cur) return Status.error(new Error(`failed to get PVC "${c.metadata!.namespace}/${c.metadata!.name}": not found`));
      if (cur.metadata?.uid !== c.metadata?.uid) return Status.error(new Error(`PVC "${c.metadata!.namespace}/${c.metadata!.name}" was recreated`));
      if (stale.has(`${cur.metadata?.uid}@${cur.metadata?.resourceVersion}`)) return undefined;
      const provisioning = provisions.includes(c);
      // The provisioner drops selected-node when it cannot provision there: schedule the pod again.
      if (provisioning && !cur.spec?.volumeName && cur.metadata?.annotations?.[SELECTED_NODE_ANNOTATION] !== nodeName) {
        return Status.error(new Error(`provisioning failed for PVC "${c.metadata!.name}"`));
      }
      if (!cur.spec?.volumeName || cur.status?.phase !== 'Bound') return undefined;
      if (!l.persistentVolume?.(cur.spec.volumeName)) return undefined;
    }
    return Status.SUCCESS;
  }
}

function className(c: PersistentVolumeClaim): string {
  return c.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? c.spec?.storageClassName ?? '';
}

export const create = (_args: unknown, handle: Handle): VolumeBinding => new VolumeBinding(handle);
