// The summed scale of the controllers behind a PDB's pods (disruption.go getExpectedScale and its finders):
// Deployments through their ReplicaSets, bare ReplicaSets, then any resource's scale subresource.

import { isNotFound } from '../../api/errors.js';
import { parseApiVersion, type OwnerReference } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { getControllerOf } from '../util/owner.js';
import type { DeploymentObj, PodObj, ReplicaSetObj } from '../util/types.js';

interface Found { uid: string; scale: number }
type Finder = (ref: OwnerReference, namespace: string) => Promise<Found | undefined>;

export interface ScaleFinderDeps {
  client: Client;
  replicaSets: Informer<ReplicaSetObj>;
  deployments: Informer<DeploymentObj>;
}

/** verifyGroupKind: the reference names `kind` in one of `groups`. */
function isKind(ref: OwnerReference, kind: string, groups: string[]): boolean {
  return ref.kind === kind && groups.includes(parseApiVersion(ref.apiVersion).group);
}

export class ScaleFinder {
  private readonly finders: Finder[];

  constructor(private readonly deps: ScaleFinderDeps) {
    // kube also asks ReplicationControllers and StatefulSets first; winkube serves neither, so the scale finder
    // answers for them if they are ever added to the client's resource list.
    this.finders = [(r, ns) => this.deployment(r, ns), (r, ns) => this.replicaSet(r, ns), (r, ns) => this.scaleSubresource(r, ns)];
  }

  /** getExpectedScale: one scale per distinct controller; pods without a controller are reported, not counted. */
  async expectedScale(pods: PodObj[]): Promise<{ expectedCount: number; unmanagedPods: string[] }> {
    const scales = new Map<string, number>();
    const unmanagedPods: string[] = [];
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      if (!ref) {
        unmanagedPods.push(pod.metadata.name!);
        continue;
      }
      if (scales.has(ref.uid)) continue;
      let found: Found | undefined;
      for (const f of this.finders) {
        found = await f(ref, pod.metadata.namespace!);
        if (found) break;
      }
      if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name)}`);
      scales.set(found.uid, found.scale);
    }
    let expectedCount = 0;
    for (const n of scales.values()) expectedCount += n;
    return { expectedCount, unmanagedPods };
  }

  private ownedReplicaSet(ref: OwnerReference, namespace: string): ReplicaSetObj | undefined {
    if (!isKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
    const rs = this.deps.replicaSets.get(`${namespace}/${ref.name}`);
    return rs && rs.metadata.uid === ref.uid ? rs : undefined;
  }

  /** getPodDeployment: the Deployment that controls the pod's ReplicaSet. */
  private async deployment(ref: OwnerReference, namespace: string): Promise<Found | undefined> {
    const rs = this.ownedReplicaSet(ref, namespace);
    const rsRef = rs && getControllerOf(rs);
    if (!rsRef || !isKind(rsRef, 'Deployment', ['apps', 'extensions'])) return undefined;
    const d = this.deps.deployments.get(`${namespace}/${rsRef.name}`);
    if (!d || d.metadata.uid !== rsRef.uid) return undefined;
    return { uid: d.metadata.uid!, scale: d.spec?.replicas ?? 1 };
  }

  /** getPodReplicaSet: a ReplicaSet no Deployment controls. */
  private async replicaSet(ref: OwnerReference, namespace: string): Promise<Found | undefined> {
    const rs = this.ownedReplicaSet(ref, namespace);
    if (!rs || getControllerOf(rs)?.kind === 'Deployment') return undefined;
    return { uid: rs.metadata.uid!, scale: rs.spec?.replicas ?? 1 };
  }

  /** getScaleController: GET <resource>/scale of whatever the reference names. */
  private async scaleSubresource(ref: OwnerReference, namespace: string): Promise<Found | undefined> {
    const { group, version } = parseApiVersion(ref.apiVersion);
    const rt = (Object.values(R) as ResourceType[]).find((r) => r.group === group && r.kind === ref.kind);
    if (!rt) throw new Error(`no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(ref.apiVersion)}`);
    try {
      const scale = await this.deps.client.get<{ metadata: { uid?: string }; spec?: { replicas?: number } }>(
        { ...rt, version: version || rt.version }, namespace, ref.name, 'scale');
      return scale.metadata.uid === ref.uid ? { uid: ref.uid, scale: scale.spec?.replicas ?? 0 } : undefined;
    } catch (err) {
      // Not found: the object is gone, or it has no scale subresource (kube asks discovery which; either way no scale).
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
