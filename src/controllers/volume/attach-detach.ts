// The attach/detach controller (pkg/controller/volume/attachdetach): for every pod placed on a node, each CSI volume
// whose driver needs attaching (CSIDriver.spec.attachRequired, or no CSIDriver object at all: csi_attacher.go
// isAttachRequired) gets a VolumeAttachment `csi-<sha256(handle+driver+node)>` for the external attacher; when no
// pod on the node uses it any more (and the node no longer reports it in use) the VolumeAttachment is deleted. The
// node's status.volumesAttached lists what is attached, as the controller's node status updater writes it. A volume
// that may not be attached to two nodes (ReadWriteOnce, ReadWriteOncePod) waits while it is attached elsewhere, and
// its pods get the Multi-Attach warning once (src/controllers/volume/multi-attach.ts). In-tree azureDisk/azureFile
// volumes — PersistentVolumes and inline pod volumes — are attached through their CSI driver when the node's kubelet
// runs them migrated (src/csi/migration.ts); an inline one's VolumeAttachment carries the translated spec.

import type { VolumeAttachment } from 'kubernetes-types/storage/v1.js';
import type { CSIDriver, CSINode } from 'kubernetes-types/storage/v1.js';
import type { PersistentVolumeSpec } from 'kubernetes-types/core/v1.js';
import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { csiAttachmentName, csiUniqueVolumeName } from '../../csi/drivers.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import type { NodeObj, PodObj, Typed } from '../util/types.js';
import type { PVCObj, PVObj } from './binder.js';
import { NODE_NAME_INDEX, podsByNode } from '../nodelifecycle/pods.js';
import { claimNames } from './local-path.js';
import { multiAttachAllowed, multiAttachMessage, type Holder } from './multi-attach.js';
import { MIGRATED_PLUGINS_ANNOTATION, inTreePluginOf, translateInTreePV, translateInlineVolume } from '../../csi/migration.js';

export const NAME = 'persistentvolume-attach-detach-controller';
export const COMPONENT = 'attachdetach-controller';

/** Index of VolumeAttachments by the volume they attach (volumeKey). */
const PV_INDEX = 'pv';

export type VolumeAttachmentObj = Typed<VolumeAttachment>;
type CSIDriverObj = Typed<CSIDriver>;
type CSINodeObj = Typed<CSINode>;

/** The key a volume is tracked by: its PersistentVolume's name, or `inline:` and the unique name for an inline volume. */
export function volumeKey(va: VolumeAttachment): string | undefined {
  const src = va.spec?.source;
  if (src?.persistentVolumeName) return src.persistentVolumeName;
  const handle = src?.inlineVolumeSpec?.csi?.volumeHandle;
  return handle ? `inline:${csiUniqueVolumeName(va.spec.attacher, handle)}` : undefined;
}

/** Pods whose volumes may need attaching: claims, or in-tree Azure volumes inline. */
function mayAttach(p: PodObj): boolean {
  return claimNames(p).length > 0 || (p.spec?.volumes ?? []).some((v) => v.azureDisk || v.azureFile);
}

/** csi_attacher.go getAttachmentName: `csi-` + hex sha256 of volume handle, driver and node name. */
export function attachmentName(handle: string, driver: string, node: string): string {
  return csiAttachmentName(handle, driver, node);
}

const finished = (p: PodObj) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

interface Wanted {
  /** The volume's spec name in messages: the PersistentVolume, or the translated inline volume's name. */
  name: string;
  /** Access modes for the multi-attach rule. */
  pv: { spec: { accessModes: string[] } };
  driver: string; handle: string; pods: PodObj[];
  /** The VolumeAttachment source. */
  source: { persistentVolumeName: string } | { inlineVolumeSpec: PersistentVolumeSpec };
}

export class AttachDetachController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pods: Informer<PodObj>;
  private readonly pvcs: Informer<PVCObj>;
  private readonly pvs: Informer<PVObj>;
  private readonly nodes: Informer<NodeObj>;
  private readonly drivers: Informer<CSIDriverObj>;
  private readonly attachments: Informer<VolumeAttachmentObj>;
  private readonly csiNodes: Informer<CSINodeObj>;
  /** Pods already told their volume attached (SuccessfulAttachVolume is recorded once per pod and volume). */
  private readonly told = new Set<string>();
  /** Node and PV pairs whose pods were told of a Multi-Attach error (desired_state_of_world SetMultiAttachError). */
  private readonly multiAttachReported = new Set<string>();
  /**
   * Attachments created but not yet in the informer's cache, by PV: two workers syncing two nodes must not both
   * attach one exclusive volume (the reconciler's one-operation-per-volume rule, IsOperationPending).
   */
  private readonly attaching = new Map<string, Set<string>>();

  constructor(opts: RecordingControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 2);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.pods = opts.informers.for<PodObj>(R.pods);
    this.pvcs = opts.informers.for<PVCObj>(R.persistentvolumeclaims);
    this.pvs = opts.informers.for<PVObj>(R.persistentvolumes);
    this.nodes = opts.informers.for<NodeObj>(R.nodes);
    this.drivers = opts.informers.for<CSIDriverObj>(R.csidrivers);
    this.attachments = opts.informers.for<VolumeAttachmentObj>(R.volumeattachments);
    this.attachments.addIndexer(NODE_NAME_INDEX, (va) => (va.spec?.nodeName ? [va.spec.nodeName] : []));
    this.csiNodes = opts.informers.for<CSINodeObj>(R.csinodes);
    this.attachments.addIndexer(PV_INDEX, (va) => { const k = volumeKey(va); return k ? [k] : []; });
    // Everything is reconciled per node: the key is the node name. Only pods with claims can need an attachment, so
    // the rest (most pods) cost nothing here; a node's pods and attachments are found through indexes.
    this.pods.addIndexer(NODE_NAME_INDEX, podsByNode);
    const onPod = (p: PodObj) => { if (p.spec?.nodeName && mayAttach(p)) this.queue.add(p.spec.nodeName); };
    this.pods.addHandler({ add: onPod, update: (o, p) => { onPod(o); onPod(p); }, delete: onPod });
    // A claim bound (or its volume changed) matters to the nodes of the pods that use it.
    const usersOf = (ns: string | undefined, claim: string | undefined) => {
      if (!ns || !claim) return;
      for (const p of this.pods.list(ns)) if (p.spec?.nodeName && claimNames(p).includes(claim)) this.queue.add(p.spec.nodeName);
    };
    const onVA = (va: VolumeAttachmentObj) => {
      const pv = volumeKey(va) ?? '';
      const pending = this.attaching.get(pv);
      if (pending?.delete(va.spec?.nodeName ?? '') && pending.size === 0) this.attaching.delete(pv);
      if (va.spec?.nodeName) this.queue.add(va.spec.nodeName);
    };
    // A detached volume may now attach where a pod waits for it (the Multi-Attach retry).
    const onVAGone = (va: VolumeAttachmentObj) => {
      onVA(va);
      const ref = this.pvs.get(va.spec?.source?.persistentVolumeName ?? '')?.spec?.claimRef;
      usersOf(ref?.namespace, ref?.name);
      // An inline volume's users are found by their pods' volumes.
      if (va.spec?.source?.inlineVolumeSpec) for (const p of this.pods.list()) if (p.spec?.nodeName && mayAttach(p)) this.queue.add(p.spec.nodeName);
    };
    this.attachments.addHandler({ add: onVA, update: (_o, va) => onVA(va), delete: onVAGone });
    this.pvcs.addHandler({ add: (c) => usersOf(c.metadata.namespace, c.metadata.name), update: (_o, c) => usersOf(c.metadata.namespace, c.metadata.name), delete: () => undefined });
    const onPV = (pv: PVObj) => usersOf(pv.spec?.claimRef?.namespace, pv.spec?.claimRef?.name);
    this.pvs.addHandler({ add: onPV, update: (_o, pv) => onPV(pv), delete: () => undefined });
    // The kubelet's migrated-plugins annotation decides whether its in-tree volumes go through CSI.
    this.csiNodes.addHandler({ add: (c) => this.queue.add(c.metadata.name!), update: (_o, c) => this.queue.add(c.metadata.name!), delete: () => undefined });
    this.nodes.addHandler({ add: (n) => this.queue.add(n.metadata.name!), update: (o, n) => { if (JSON.stringify(o.status?.volumesInUse) !== JSON.stringify(n.status?.volumesInUse)) this.queue.add(n.metadata.name!); }, delete: () => undefined });
  }

  protected informersToSync() {
    return [this.pods, this.pvcs, this.pvs, this.nodes, this.drivers, this.attachments, this.csiNodes];
  }

  /**
   * attachdetach/util/util.go isCSIMigrationSupportedOnNode: an in-tree volume is attached through its CSI driver only
   * when the node's CSINode lists the plugin in storage.alpha.kubernetes.io/migrated-plugins.
   */
  private migratedOn(node: string, driver: string): boolean {
    const plugin = inTreePluginOf(driver);
    const listed = this.csiNodes.get(node)?.metadata.annotations?.[MIGRATED_PLUGINS_ANNOTATION]?.split(',') ?? [];
    return !!plugin && listed.includes(plugin);
  }

  /** The CSI source the controller attaches a PersistentVolume as: its own, or the in-tree one translated. */
  private csiOf(pv: PVObj, node: string): { driver: string; volumeHandle: string } | undefined {
    if (pv.spec?.csi) return pv.spec.csi;
    const translated = translateInTreePV(pv);
    return translated && this.migratedOn(node, translated.driver) ? translated : undefined;
  }

  private attachRequired(driver: string): boolean {
    return this.drivers.get(driver)?.spec?.attachRequired ?? true;
  }

  /** The attachable CSI volumes the node's live pods use, by PV name. */
  private wanted(node: string): Map<string, Wanted> {
    const out = new Map<string, Wanted>();
    for (const pod of this.pods.byIndex(NODE_NAME_INDEX, node)) {
      if (finished(pod)) continue;
      for (const claimName of claimNames(pod)) {
        const claim = this.pvcs.get(`${pod.metadata.namespace}/${claimName}`);
        const pv = claim?.spec?.volumeName ? this.pvs.get(claim.spec.volumeName) : undefined;
        const csi = pv && this.csiOf(pv, node);
        if (!pv || !csi || !this.attachRequired(csi.driver)) continue;
        const name = pv.metadata.name!;
        const w = out.get(name) ?? {
          name, pv: { spec: { accessModes: pv.spec?.accessModes ?? [] } }, driver: csi.driver, handle: csi.volumeHandle, pods: [],
          source: { persistentVolumeName: name },
        };
        w.pods.push(pod);
        out.set(name, w);
      }
      // Inline in-tree volumes: TranslateInTreeInlineVolumeToCSI; the attachment carries the translated spec.
      for (const v of pod.spec?.volumes ?? []) {
        const t = translateInlineVolume(v, pod.metadata.namespace ?? 'default');
        if (!t || !this.migratedOn(node, t.csi.driver) || !this.attachRequired(t.csi.driver)) continue;
        const key = `inline:${csiUniqueVolumeName(t.csi.driver, t.csi.volumeHandle)}`;
        const w = out.get(key) ?? {
          name: t.name, pv: { spec: { accessModes: t.accessModes } }, driver: t.csi.driver, handle: t.csi.volumeHandle, pods: [],
          source: { inlineVolumeSpec: { accessModes: t.accessModes, csi: t.csi } },
        };
        w.pods.push(pod);
        out.set(key, w);
      }
    }
    return out;
  }

  async reconcile(node: string): Promise<void> {
    const nodeObj = this.nodes.get(node);
    const wanted = nodeObj ? this.wanted(node) : new Map<string, Wanted>();
    const mine = this.attachments.byIndex(NODE_NAME_INDEX, node);
    for (const [pvName, w] of wanted) {
      const name = attachmentName(w.handle, w.driver, node);
      const va = mine.find((x) => x.metadata.name === name);
      if (!va) {
        // reconciler.go attachDesiredVolumes: an exclusive volume attached to another node is not attached here.
        const elsewhere = multiAttachAllowed(w.pv) ? [] : this.attachedNodes(pvName).filter((n) => n !== node);
        if (elsewhere.length) {
          this.reportMultiAttach(w, pvName, node, elsewhere);
          continue;
        }
        const pending = this.attaching.get(pvName) ?? new Set<string>();
        this.attaching.set(pvName, pending.add(node));
        try {
          await this.create(name, w, node);
        } catch (e) {
          pending.delete(node);
          throw e;
        }
        continue;
      }
      if (va.status?.attached) this.tellAttached(w, pvName);
    }
    for (const k of this.multiAttachReported) {
      const [n, pv] = k.split('\0');
      if (n === node && !wanted.has(pv)) this.multiAttachReported.delete(k);
    }
    const inUse = new Set(nodeObj?.status?.volumesInUse ?? []);
    for (const va of mine) {
      const pv = volumeKey(va);
      if (!pv || wanted.has(pv) || va.metadata.deletionTimestamp) continue;
      const handle = this.handleOf(va);
      // reconciler.go: a volume the node still has mounted is not detached until the kubelet unmounts it.
      if (handle && inUse.has(csiUniqueVolumeName(va.spec.attacher, handle))) continue;
      try {
        await this.client.delete(R.volumeattachments, undefined, va.metadata.name!);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    if (nodeObj) await this.updateNodeStatus(nodeObj, mine);
  }

  /** The nodes the volume is attached to or being attached to or detached from (the actual state of the world). */
  private attachedNodes(pvName: string): string[] {
    const nodes = new Set(this.attachments.byIndex(PV_INDEX, pvName).map((va) => va.spec.nodeName));
    for (const n of this.attaching.get(pvName) ?? []) nodes.add(n);
    return [...nodes];
  }

  /** reconciler.go reportMultiAttachError: each pod waiting here learns which pods hold the volume on other nodes. */
  private reportMultiAttach(w: Wanted, pvName: string, node: string, others: string[]): void {
    const key = `${node}\0${pvName}`;
    if (this.multiAttachReported.has(key)) return;
    this.multiAttachReported.add(key);
    const holders: Holder[] = others.flatMap((n) => this.wanted(n).get(pvName)?.pods ?? [])
      .map((p) => ({ namespace: p.metadata.namespace!, name: p.metadata.name! }))
      .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
    for (const pod of w.pods) this.recorder.event(pod, 'Warning', 'FailedAttachVolume', multiAttachMessage(w.name, pod.metadata.namespace!, holders));
  }

  /** The handle an attachment attaches: the inline spec's, or its PersistentVolume's (translated when in-tree). */
  private handleOf(va: VolumeAttachmentObj): string | undefined {
    const inline = va.spec.source.inlineVolumeSpec?.csi?.volumeHandle;
    if (inline) return inline;
    const pv = this.pvs.get(va.spec.source.persistentVolumeName ?? '');
    return pv && (pv.spec?.csi ?? translateInTreePV(pv))?.volumeHandle;
  }

  private async create(name: string, w: Wanted, node: string): Promise<void> {
    const va: VolumeAttachment = {
      apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment',
      metadata: { name },
      spec: { attacher: w.driver, nodeName: node, source: w.source },
    };
    try {
      await this.client.create(R.volumeattachments, undefined, va as VolumeAttachmentObj);
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }

  /** operation_generator.go GenerateAttachVolumeFunc: `AttachVolume.Attach succeeded for volume "<pv>"` on each pod. */
  private tellAttached(w: Wanted, pvName: string): void {
    for (const pod of w.pods) {
      const k = `${pod.metadata.uid}/${pvName}`;
      if (this.told.has(k)) continue;
      this.told.add(k);
      this.recorder.event(pod, 'Normal', 'SuccessfulAttachVolume', `AttachVolume.Attach succeeded for volume ${JSON.stringify(w.name)} `);
    }
  }

  /** node_status_updater.go: status.volumesAttached lists the attached volumes' unique names (devicePath empty for CSI). */
  private async updateNodeStatus(node: NodeObj, mine: VolumeAttachmentObj[]): Promise<void> {
    const attached = mine.filter((va) => va.status?.attached && !va.metadata.deletionTimestamp).flatMap((va) => {
      const handle = this.handleOf(va);
      return handle ? [{ name: csiUniqueVolumeName(va.spec.attacher, handle), devicePath: '' }] : [];
    }).sort((a, b) => a.name.localeCompare(b.name));
    const before = node.status?.volumesAttached ?? [];
    if (JSON.stringify(before) === JSON.stringify(attached)) return;
    await this.client.patch(R.nodes, undefined, node.metadata.name!, 'merge', { status: { volumesAttached: attached.length ? attached : null } }, { subresource: 'status' });
  }
}
