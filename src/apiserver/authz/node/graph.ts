// The Node authorizer's graph (plugin/pkg/auth/authorizer/node/graph.go), kept as indexes instead of a traversal:
// every path kube walks is short (secret → pv → pvc → pod → node), so each object type keeps a count of the nodes
// that reach it and a decision is a few map lookups, whatever the cluster's size.

import type { PersistentVolume, Pod } from 'kubernetes-types/core/v1.js';
import { podReferences } from './pod-references.js';

/** The vertex types a node may be asked about (graph.go vertexTypes). */
export type VertexType = 'pod' | 'secret' | 'configmap' | 'pvc' | 'pv' | 'serviceaccount' | 'resourceclaim' | 'volumeattachment';

const key = (type: VertexType, namespace: string, name: string) => `${type}/${namespace}/${name}`;

interface PodEntry {
  node: string;
  /** The vertices this pod gives its node (secrets, configmaps, claims, its ServiceAccount, resource claims). */
  keys: string[];
}

/** The nodes that reach one vertex, with how many of their pods do; most vertices have one node, kept without a Map. */
type Reach = { node: string; pods: number } | Map<string, number>;

interface PvEntry {
  claim?: string;
  secrets: string[];
}

/** Secret references of a PersistentVolume (pkg/api/v1/persistentvolume/util.go VisitPVSecretNames). */
function pvSecrets(pv: PersistentVolume): string[] {
  const s = pv.spec ?? {};
  const out = new Set<string>();
  const add = (ref: { name?: string; namespace?: string } | undefined, fallbackNs = 'default') => {
    if (ref?.name) out.add(key('secret', ref.namespace || fallbackNs, ref.name));
  };
  const claimNs = s.claimRef?.namespace ?? 'default';
  if (s.azureFile?.secretName) add({ name: s.azureFile.secretName, namespace: s.azureFile.secretNamespace ?? undefined }, claimNs);
  add(s.cephfs?.secretRef, claimNs);
  add(s.cinder?.secretRef, claimNs);
  add(s.flexVolume?.secretRef, claimNs);
  add(s.rbd?.secretRef, claimNs);
  add(s.iscsi?.secretRef, claimNs);
  add(s.scaleIO?.secretRef, claimNs);
  add(s.storageos?.secretRef, claimNs);
  const csi = s.csi;
  for (const ref of [csi?.controllerPublishSecretRef, csi?.nodeStageSecretRef, csi?.nodePublishSecretRef, csi?.controllerExpandSecretRef, csi?.nodeExpandSecretRef]) add(ref);
  return [...out];
}

export class NodeGraph {
  private readonly pods = new Map<string, PodEntry>();
  /** vertex → the nodes whose pods reach it. */
  private readonly nodesOf = new Map<string, Reach>();
  private readonly pvs = new Map<string, PvEntry>();
  private readonly pvsOfSecret = new Map<string, Set<string>>();
  private readonly attachments = new Map<string, string>();

  /** A pod reaches the graph once it is bound (graph_populator.go addPod skips pods without spec.nodeName). */
  setPod(pod: Pod): void {
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const node = pod.spec?.nodeName;
    if (!node) {
      this.deletePod(ns, name);
      return;
    }
    const refs = podReferences(pod);
    const keys = [
      ...refs.secrets.map((n) => key('secret', ns, n)),
      ...refs.configMaps.map((n) => key('configmap', ns, n)),
      ...refs.claims.map((n) => key('pvc', ns, n)),
      ...refs.resourceClaims.map((n) => key('resourceclaim', ns, n)),
      ...(refs.serviceAccount ? [key('serviceaccount', ns, refs.serviceAccount)] : []),
    ];
    const podKey = `${ns}/${name}`;
    const old = this.pods.get(podKey);
    // Status updates are most pod events and change nothing here: skip them without touching the counts.
    if (old && old.node === node && old.keys.length === keys.length && old.keys.every((k, i) => k === keys[i])) return;
    if (old) this.unlink(old);
    const entry = { node, keys };
    this.pods.set(podKey, entry);
    for (const k of keys) this.link(k, node);
  }

  deletePod(namespace: string, name: string): void {
    const podKey = `${namespace}/${name}`;
    const old = this.pods.get(podKey);
    if (!old) return;
    this.pods.delete(podKey);
    this.unlink(old);
  }

  private link(k: string, node: string): void {
    const r = this.nodesOf.get(k);
    if (!r) this.nodesOf.set(k, { node, pods: 1 });
    else if (r instanceof Map) r.set(node, (r.get(node) ?? 0) + 1);
    else if (r.node === node) r.pods++;
    else this.nodesOf.set(k, new Map([[r.node, r.pods], [node, 1]]));
  }

  private unlink(e: PodEntry): void {
    for (const k of e.keys) {
      const r = this.nodesOf.get(k);
      if (!r) continue;
      if (r instanceof Map) {
        const n = (r.get(e.node) ?? 0) - 1;
        if (n > 0) r.set(e.node, n);
        else r.delete(e.node);
        if (r.size === 0) this.nodesOf.delete(k);
      } else if (r.node === e.node && --r.pods <= 0) {
        this.nodesOf.delete(k);
      }
    }
  }

  /** pv → pvc (its claimRef) and secret → pv (graph.go AddPV). */
  setPV(pv: PersistentVolume): void {
    const name = pv.metadata?.name ?? '';
    this.deletePV(name);
    const ref = pv.spec?.claimRef;
    const entry: PvEntry = { claim: ref?.name ? key('pvc', ref.namespace ?? '', ref.name) : undefined, secrets: pvSecrets(pv) };
    this.pvs.set(name, entry);
    for (const s of entry.secrets) {
      let set = this.pvsOfSecret.get(s);
      if (!set) this.pvsOfSecret.set(s, (set = new Set()));
      set.add(name);
    }
  }

  deletePV(name: string): void {
    const old = this.pvs.get(name);
    if (!old) return;
    this.pvs.delete(name);
    for (const s of old.secrets) {
      const set = this.pvsOfSecret.get(s);
      set?.delete(name);
      if (set?.size === 0) this.pvsOfSecret.delete(s);
    }
  }

  /** volumeattachment → node (graph.go AddVolumeAttachment). */
  setVolumeAttachment(name: string, nodeName: string | undefined): void {
    if (nodeName) this.attachments.set(name, nodeName);
    else this.attachments.delete(name);
  }

  deleteVolumeAttachment(name: string): void {
    this.attachments.delete(name);
  }

  /** Whether `node` reaches the object (node_authorizer.go hasPathFrom). Cluster-scoped objects pass namespace ''. */
  hasPathFrom(node: string, type: VertexType, namespace: string, name: string): boolean {
    switch (type) {
      case 'pod': return this.pods.get(`${namespace}/${name}`)?.node === node;
      case 'pv': return this.pvReaches(name, node);
      case 'volumeattachment': return this.attachments.get(name) === node;
      case 'secret': {
        const k = key('secret', namespace, name);
        if (this.reaches(k, node)) return true;
        for (const pv of this.pvsOfSecret.get(k) ?? []) if (this.pvReaches(pv, node)) return true;
        return false;
      }
      default: return this.reaches(key(type, namespace, name), node);
    }
  }

  private reaches(k: string, node: string): boolean {
    const r = this.nodesOf.get(k);
    return r instanceof Map ? (r.get(node) ?? 0) > 0 : r?.node === node;
  }

  private pvReaches(pv: string, node: string): boolean {
    const claim = this.pvs.get(pv)?.claim;
    return !!claim && this.reaches(claim, node);
  }

  /** Sizes, for tests and benchmarks. */
  get size(): { pods: number; vertices: number; pvs: number; attachments: number } {
    return { pods: this.pods.size, vertices: this.nodesOf.size, pvs: this.pvs.size, attachments: this.attachments.size };
  }
}
