// The CSI side of the emulated kubelet (pkg/volume/csi): which emulated drivers' node plugins register on this node
// (on Windows only through csi-proxy, seed 001/002 "CSI Plugins"), what registration publishes (the CSINode entry, the
// csi.volume.kubernetes.io/nodeid annotation, topology labels: pkg/volume/csi/nodeinfomanager), and whether a CSI
// volume can be staged here (the kubelet's errors when the driver never registered or the volume is not attached yet).

import type { CSINode } from 'kubernetes-types/storage/v1.js';
import type { PersistentVolumeSpec, Volume } from 'kubernetes-types/core/v1.js';
import { csiProxyVersion, missingPipeError } from '../../csi/csi-proxy.js';
import { csiDataKey } from '../../csi/backend.js';
import { EMULATED_DRIVERS, csiAttachmentName, csiUniqueVolumeName, type EmulatedDriver } from '../../csi/drivers.js';
import { MIGRATED_PLUGINS_ANNOTATION, inTreePluginOf, kubeletMigratedPlugins, translateInTreePV, translateInlineVolume, type TranslatedInline } from '../../csi/migration.js';
import type { NodeProfile } from '../profile.js';

export const NODE_ID_ANNOTATION = 'csi.volume.kubernetes.io/nodeid';

export type CsiNodeFacts = Pick<NodeProfile, 'name' | 'os' | 'kubeletVersion' | 'csiProxy'>;

/** One emulated driver's node plugin on this node: registered, or why it could not start. */
export interface PluginState {
  driver: EmulatedDriver;
  /** The plugin's own failure (the csi-proxy pipe it could not open); undefined when registered. */
  error?: string;
}

/** The emulated drivers whose node plugin runs on this node's OS, with the failure of those that cannot start. */
export function nodePlugins(p: CsiNodeFacts): PluginState[] {
  return EMULATED_DRIVERS.filter((d) => d.os.includes(p.os)).map((driver) => {
    if (p.os !== 'windows') return { driver };
    const error = missingPipeError(driver.windowsPipes, csiProxyVersion(p));
    return error ? { driver, error } : { driver };
  });
}

export function registeredDrivers(p: CsiNodeFacts): EmulatedDriver[] {
  return nodePlugins(p).filter((s) => !s.error).map((s) => s.driver);
}

/** The node ID a driver reports from NodeGetInfo: the node name for the emulated drivers. */
const nodeIdOf = (_d: EmulatedDriver, p: CsiNodeFacts) => p.name;

/**
 * The CSINode's annotations: storage.alpha.kubernetes.io/migrated-plugins, the in-tree plugins this kubelet runs
 * through CSI, sorted and comma-joined (nodeinfomanager.go setMigrationAnnotation; none, no annotation).
 */
export function csiNodeAnnotations(p: CsiNodeFacts): Record<string, string> {
  const plugins = kubeletMigratedPlugins(p.kubeletVersion);
  return plugins.length ? { [MIGRATED_PLUGINS_ANNOTATION]: plugins.join(',') } : {};
}

/** Whether this kubelet mounts the in-tree plugin a CSI driver migrates through that driver. */
export function kubeletMigrates(p: Pick<CsiNodeFacts, 'kubeletVersion'>, driver: string): boolean {
  const plugin = inTreePluginOf(driver);
  return !!plugin && kubeletMigratedPlugins(p.kubeletVersion).includes(plugin);
}

/** The CSINode the kubelet keeps for its node (owned by the Node, so it goes with it). */
export function csiNodeObject(p: CsiNodeFacts, nodeUid: string | undefined): CSINode {
  const annotations = csiNodeAnnotations(p);
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'CSINode',
    metadata: {
      name: p.name,
      ...(Object.keys(annotations).length ? { annotations } : {}),
      ...(nodeUid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: p.name, uid: nodeUid }] } : {}),
    },
    spec: {
      drivers: registeredDrivers(p).map((d) => ({
        name: d.name, nodeID: nodeIdOf(d, p), topologyKeys: d.nodeTopologyKey ? [d.nodeTopologyKey] : null,
      })) as CSINode['spec']['drivers'],
    },
  };
}

/** The Node annotation and labels registration adds: driver → node ID as JSON, and each topology segment. */
export function nodeRegistrationMetadata(p: CsiNodeFacts): { annotations: Record<string, string>; labels: Record<string, string> } {
  const drivers = registeredDrivers(p);
  const ids = Object.fromEntries(drivers.map((d) => [d.name, nodeIdOf(d, p)]));
  const labels = Object.fromEntries(drivers.filter((d) => d.nodeTopologyKey).map((d) => [d.nodeTopologyKey!, p.name]));
  return { annotations: drivers.length ? { [NODE_ID_ANNOTATION]: JSON.stringify(ids) } : {}, labels };
}

/** A PersistentVolume's CSI source as the kubelet reads it. */
export interface CsiSource { driver: string; volumeHandle: string; readOnly?: boolean; volumeAttributes?: Record<string, string> }

/** Lookups the CSI checks need from the kubelet's caches. */
export interface CsiLookups {
  /** CSIDriver.spec.attachRequired; undefined when no CSIDriver object exists (then attach is required). */
  attachRequired?(driver: string): boolean | undefined;
  /** Whether a VolumeAttachment of the PV to this node reports attached. */
  volumeAttached?(pvName: string, nodeName: string): boolean;
  /** Whether the VolumeAttachment of this name reports attached. */
  attachmentAttached?(name: string): boolean;
}

export type CsiOutcome = { key: string } | { error: string } | { pending: string };

/**
 * NodeStage/NodePublish of a CSI PersistentVolume on this node. A driver that never registered fails in
 * csi_attacher.go MountDevice (newCsiDriverClient: `driver name … not found in the list of registered CSI drivers`);
 * an attachable volume waits for its VolumeAttachment (operation_generator VerifyControllerAttachedVolume).
 */
export function csiPersistentVolume(pvName: string, src: CsiSource, p: CsiNodeFacts, look: CsiLookups): CsiOutcome {
  if (!registeredDrivers(p).some((d) => d.name === src.driver)) {
    return { error: `MountVolume.MountDevice failed for volume ${JSON.stringify(pvName)} : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ${src.driver} not found in the list of registered CSI drivers` };
  }
  const attach = look.attachRequired?.(src.driver) ?? true;
  if (attach && look.volumeAttached && !look.volumeAttached(pvName, p.name)) {
    return { pending: `Volume not attached according to node status for volume ${JSON.stringify(pvName)} (UniqueName: ${JSON.stringify(csiUniqueVolumeName(src.driver, src.volumeHandle))})` };
  }
  return { key: csiDataKey(src) };
}

/**
 * An inline in-tree volume the kubelet runs migrated (csimigration TranslateInTreeSpecToCSI): it is mounted as the
 * translated PersistentVolume, so it is named after it in the kubelet's messages, and an attachable one waits for the
 * VolumeAttachment the attach/detach controller makes for the node (csi_attacher.go WaitForAttach).
 */
export function csiMigratedInline(t: TranslatedInline, p: CsiNodeFacts, look: CsiLookups): CsiOutcome {
  const src = t.csi;
  if (!registeredDrivers(p).some((d) => d.name === src.driver)) {
    return { error: `MountVolume.MountDevice failed for volume ${JSON.stringify(t.name)} : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ${src.driver} not found in the list of registered CSI drivers` };
  }
  const attach = look.attachRequired?.(src.driver) ?? true;
  if (attach && look.attachmentAttached && !look.attachmentAttached(csiAttachmentName(src.volumeHandle, src.driver, p.name))) {
    return { pending: `Volume not attached according to node status for volume ${JSON.stringify(t.name)} (UniqueName: ${JSON.stringify(csiUniqueVolumeName(src.driver, src.volumeHandle))})` };
  }
  return { key: csiDataKey(src) };
}

/** An inline (ephemeral) CSI volume: csi_mounter.go SetUpAt asks for the driver's client first. */
export function csiInlineVolume(volumeName: string, driver: string, podUID: string, p: CsiNodeFacts): CsiOutcome {
  if (!registeredDrivers(p).some((d) => d.name === driver)) {
    return { error: `MountVolume.SetUp failed for volume ${JSON.stringify(volumeName)} : kubernetes.io/csi: mounter.SetUpAt failed to get CSI client: driver name ${driver} not found in the list of registered CSI drivers` };
  }
  return { key: `csi-inline:${driver}/${podUID}/${volumeName}` };
}

/**
 * node.status.volumesInUse: the attachable volumes the node's pods have mounted (kubelet_node_status.go
 * setVolumesInUse from the volume manager's GetVolumesInUse), sorted unique names. The attach/detach controller does
 * not detach a volume the node still reports in use.
 */
export function volumesInUse(pods: Iterable<{ pod: { metadata?: { namespace?: string }; spec?: { volumes?: Partial<Volume>[] } }; sandboxID?: string }>,
  lookups: { persistentVolumeClaim?(ns: string, name: string): { volumeName?: string } | undefined; persistentVolume?(name: string): { spec?: PersistentVolumeSpec } | undefined },
  kubeletVersion?: string): string[] {
  const out = new Set<string>();
  // Migrated in-tree volumes are in use under their CSI driver's unique name.
  const migrated = <T extends { driver: string }>(src: T | undefined) => src && kubeletVersion !== undefined && kubeletMigrates({ kubeletVersion }, src.driver) ? src : undefined;
  for (const rec of pods) {
    if (!rec.sandboxID) continue;
    const ns = rec.pod.metadata?.namespace ?? 'default';
    for (const v of rec.pod.spec?.volumes ?? []) {
      const claim = v.persistentVolumeClaim && lookups.persistentVolumeClaim?.(ns, v.persistentVolumeClaim.claimName);
      const spec = claim && claim.volumeName ? lookups.persistentVolume?.(claim.volumeName)?.spec : undefined;
      const csi = spec?.csi ?? (spec ? migrated(translateInTreePV({ spec })) : migrated(translateInlineVolume(v, ns)?.csi));
      if (csi) out.add(csiUniqueVolumeName(csi.driver, csi.volumeHandle));
    }
  }
  return [...out].sort();
}
