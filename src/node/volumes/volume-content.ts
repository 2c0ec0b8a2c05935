// What each pod volume holds when the kubelet sets it up (pkg/volume/{configmap,secret,downwardapi,projected,
// emptydir,hostpath,csi,nfs,flexvolume}): the files of ConfigMap, Secret, downward-API and projected volumes, or a
// directory (the pod's, the node's or a storage system's), and the MountVolume error a volume the kubelet cannot set
// up gives.

import type { Pod, Volume } from 'kubernetes-types/core/v1.js';
import { fieldRefValue, resourceFieldValue, type ConfigSource } from '../process/env-vars.js';
import { csiInlineVolume, csiMigratedInline, csiPersistentVolume, kubeletMigrates, type CsiNodeFacts, type CsiOutcome } from './csi-node.js';
import { translateInTreePV, translateInlineVolume } from '../../csi/migration.js';
import { flexVolume } from './flex-volume.js';
import { nfsVolume } from './network-volumes.js';

export interface VolumeFile {
  data: Buffer;
  /** POSIX mode the kubelet writes (defaultMode 0644 unless set); Windows ignores it (seed 001 storage limits). */
  mode: number;
}

export type VolumeContent =
  /** Files written by the kubelet (atomic writer), read-only in the container. */
  | { kind: 'files'; files: Map<string, VolumeFile> }
  /** An empty directory of the pod (emptyDir); `memory` is tmpfs on Linux, a disk directory on Windows. */
  | { kind: 'emptyDir'; memory: boolean }
  /** A path on the node, shared by every pod that mounts it. */
  | { kind: 'hostPath'; path: string; type: string; readOnly?: boolean }
  /** A bound PersistentVolumeClaim's volume: its files live on the node for the PersistentVolume's life. */
  | { kind: 'persistentVolume'; volumeName: string; readOnly: boolean }
  /** Data on a storage system every node reaches (CSI volume, NFS export, FlexVolume share): src/csi/backend.ts. */
  | { kind: 'network'; key: string; readOnly: boolean; source: string }
  /** A volume type the emulated node does not model (cloud disks): an empty directory for now. */
  | { kind: 'unmodelled'; type: string };

/**
 * `pending`: not mountable yet and not an error either (a volume waiting for its attach: `unattached`); no event,
 * retried. `unprocessed`: the desired-state populator's error (the claim missing or unbound), which the kubelet reports
 * through WaitForAttachAndMount (src/node/volumes/attach-mount-wait.ts), not as a MountVolume event.
 */
export type VolumeResult = { content: VolumeContent } | { error: string } | { pending: string; unattached?: true } | { unprocessed: string };

export interface VolumeContext {
  pod: Pod;
  os: 'linux' | 'windows';
  hostIP: string;
  podIP: string;
  allocatable: Record<string, string>;
  config: ConfigSource;
  /** The node, for the volume plugins that depend on it (CSI registration, csi-proxy, FlexVolume drivers). */
  node?: CsiNodeFacts & { flexVolumeDrivers?: string[] };
}

const DEFAULT_MODE = 0o644;

class SetUpError extends Error {}
/** A volume the volume manager fails with its own full message (MountDevice, plugin lookup). */
class MountError extends Error {}
class PendingError extends Error {}
/** A volume waiting for the attach/detach controller's VolumeAttachment (csi_attacher.go WaitForAttach). */
class UnattachedError extends PendingError {}
/** The volume manager cannot even start: the claim is missing or not bound (desired_state_of_world_populator). */
class UnboundClaimError extends Error {}

/**
 * A persistentVolumeClaim volume: the claim must exist and be bound to an existing volume, else the pod waits in
 * ContainerCreating (the populator's `error processing PVC` reasons).
 */
function claimContent(v: Volume, ns: string, ctx: VolumeContext): VolumeContent {
  const name = v.persistentVolumeClaim!.claimName;
  const claim = ctx.config.persistentVolumeClaim?.(ns, name);
  if (!claim) throw new UnboundClaimError(`error processing PVC ${ns}/${name}: failed to fetch PVC from API server: persistentvolumeclaims "${name}" not found`);
  if (claim.phase !== 'Bound' || !claim.volumeName) {
    throw new UnboundClaimError(`error processing PVC ${ns}/${name}: PVC ${ns}/${name} has non-bound phase ("${claim.phase ?? ''}") or empty pvc.Spec.VolumeName ("${claim.volumeName ?? ''}")`);
  }
  if (ctx.config.persistentVolume && !ctx.config.persistentVolume(claim.volumeName)) {
    throw new UnboundClaimError(`error processing PVC ${ns}/${name}: failed to fetch PV ${JSON.stringify(claim.volumeName)} from API server: persistentvolumes "${claim.volumeName}" not found`);
  }
  const readOnly = !!v.persistentVolumeClaim!.readOnly;
  const spec = ctx.config.persistentVolume?.(claim.volumeName)?.spec;
  if (spec?.csi && ctx.node) {
    return networkOrThrow(csiPersistentVolume(claim.volumeName, spec.csi, ctx.node, ctx.config), readOnly || !!spec.csi.readOnly, 'csi');
  }
  // An in-tree azureDisk/azureFile volume the kubelet runs migrated is its CSI driver's (src/csi/migration.ts).
  const migrated = spec && ctx.node ? translateInTreePV({ spec }) : undefined;
  if (migrated && ctx.node && kubeletMigrates(ctx.node, migrated.driver)) {
    return networkOrThrow(csiPersistentVolume(claim.volumeName, migrated, ctx.node, ctx.config), readOnly || !!migrated.readOnly, 'csi');
  }
  if (spec?.nfs && ctx.node) return nfsContent(spec.nfs, claim.volumeName, readOnly || !!spec.nfs.readOnly, ctx);
  if (spec?.flexVolume && ctx.node) return flexContent(spec.flexVolume, claim.volumeName, readOnly, ns, ctx);
  // hostPath and local volumes (local-path's among them) are a directory of the node: pods mounting the path see it.
  if (spec?.hostPath) return { kind: 'hostPath', path: spec.hostPath.path, type: spec.hostPath.type ?? '', readOnly };
  if (spec?.local) return { kind: 'hostPath', path: spec.local.path, type: '', readOnly };
  return { kind: 'persistentVolume', volumeName: claim.volumeName, readOnly };
}

function networkOrThrow(r: CsiOutcome, readOnly: boolean, source: string): VolumeContent {
  if ('error' in r) throw new MountError(r.error);
  if ('pending' in r) throw new UnattachedError(r.pending);
  return { kind: 'network', key: r.key, readOnly, source };
}

function nfsContent(src: NonNullable<Volume['nfs']>, name: string, readOnly: boolean, ctx: VolumeContext): VolumeContent {
  const r = nfsVolume(src, name, ctx.os, ctx.node?.kubeletVersion ?? '', ctx.pod.metadata?.uid ?? '');
  if ('setUpError' in r) throw new SetUpError(r.setUpError);
  if ('skipped' in r) return { kind: 'unmodelled', type: 'nfs' };
  return { kind: 'network', key: r.key, readOnly, source: 'nfs' };
}

function flexContent(src: NonNullable<Volume['flexVolume']>, name: string, readOnly: boolean, ns: string, ctx: VolumeContext): VolumeContent {
  const r = flexVolume(src, name, ns, ctx.node?.flexVolumeDrivers, ctx.config.secret);
  if ('error' in r) throw new MountError(r.error);
  if ('setUpError' in r) throw new SetUpError(r.setUpError);
  return { kind: 'network', key: r.key, readOnly: readOnly || !!src.readOnly, source: 'flexVolume' };
}

export function volumeContent(v: Volume, ctx: VolumeContext): VolumeResult {
  try {
    return { content: content(v, ctx) };
  } catch (err) {
    if (err instanceof SetUpError) return { error: `MountVolume.SetUp failed for volume "${v.name}" : ${err.message}` };
    if (err instanceof UnboundClaimError) return { unprocessed: err.message };
    if (err instanceof MountError) return { error: err.message };
    if (err instanceof UnattachedError) return { pending: err.message, unattached: true };
    if (err instanceof PendingError) return { pending: err.message };
    throw err;
  }
}

function content(v: Volume, ctx: VolumeContext): VolumeContent {
  const ns = ctx.pod.metadata?.namespace ?? 'default';
  if (v.configMap) return { kind: 'files', files: keyFiles('configmap', ctx.config.configMap(ns, v.configMap.name ?? ''), v.configMap, v.configMap.defaultMode) };
  if (v.secret) return { kind: 'files', files: keyFiles('secret', ctx.config.secret(ns, v.secret.secretName ?? ''), { ...v.secret, name: v.secret.secretName }, v.secret.defaultMode) };
  if (v.downwardAPI) return { kind: 'files', files: downwardFiles(v.downwardAPI.items ?? [], v.downwardAPI.defaultMode, ctx) };
  if (v.projected) {
    const files = new Map<string, VolumeFile>();
    for (const src of v.projected.sources ?? []) {
      const mode = v.projected.defaultMode;
      const part = src.configMap ? keyFiles('configmap', ctx.config.configMap(ns, src.configMap.name ?? ''), src.configMap, mode)
        : src.secret ? keyFiles('secret', ctx.config.secret(ns, src.secret.name ?? ''), src.secret, mode)
          : src.downwardAPI ? downwardFiles(src.downwardAPI.items ?? [], mode, ctx)
            : src.serviceAccountToken ? tokenFiles(src.serviceAccountToken, mode, ctx)
              : new Map<string, VolumeFile>();
      for (const [k, f] of part) files.set(k, f);
    }
    return { kind: 'files', files };
  }
  if (v.emptyDir) return { kind: 'emptyDir', memory: v.emptyDir.medium === 'Memory' && ctx.os === 'linux' };
  if (v.hostPath) return { kind: 'hostPath', path: v.hostPath.path, type: v.hostPath.type ?? '' };
  if (v.persistentVolumeClaim) return claimContent(v, ns, ctx);
  if (v.csi && ctx.node) return networkOrThrow(csiInlineVolume(v.name, v.csi.driver, ctx.pod.metadata?.uid ?? '', ctx.node), !!v.csi.readOnly, 'csi');
  if (v.nfs && ctx.node) return nfsContent(v.nfs, v.name, !!v.nfs.readOnly, ctx);
  const inline = ctx.node ? translateInlineVolume(v, ns) : undefined;
  if (inline && ctx.node && kubeletMigrates(ctx.node, inline.csi.driver)) return networkOrThrow(csiMigratedInline(inline, ctx.node, ctx.config), !!inline.csi.readOnly, 'csi');
  if (v.flexVolume && ctx.node) return flexContent(v.flexVolume, v.name, false, ns, ctx);
  const type = Object.keys(v).find((k) => k !== 'name') ?? 'unknown';
  return { kind: 'unmodelled', type };
}

/** A projected serviceAccountToken source: the pod-bound token the kubelet's token manager holds, at its path. */
function tokenFiles(src: { audience?: string; expirationSeconds?: number; path: string }, defaultMode: number | undefined, ctx: VolumeContext): Map<string, VolumeFile> {
  const files = new Map<string, VolumeFile>();
  const r = ctx.config.serviceAccountToken?.(ctx.pod, src);
  // A node without a token manager (unit tests of other volume kinds) writes no token file.
  if (!r) return files;
  // The kubelet's SetUp waits for the TokenRequest; no event while it does.
  if ('pending' in r) throw new PendingError(`waiting for the ServiceAccount token of "${src.path}"`);
  if ('error' in r) throw new SetUpError(r.error);
  files.set(src.path, { data: Buffer.from(r.token), mode: defaultMode ?? DEFAULT_MODE });
  return files;
}

interface KeySource {
  name?: string;
  optional?: boolean;
  items?: { key: string; path: string; mode?: number }[];
}

/** ConfigMap/Secret keys as files (configmap.go / secret.go MakePayload), or the items asked for. */
function keyFiles(kind: 'configmap' | 'secret', data: Record<string, string> | undefined, src: KeySource, defaultMode: number | undefined): Map<string, VolumeFile> {
  const files = new Map<string, VolumeFile>();
  const mode = defaultMode ?? DEFAULT_MODE;
  if (!data) {
    if (src.optional) return files;
    throw new SetUpError(`${kind} "${src.name}" not found`);
  }
  if (!src.items?.length) {
    for (const [k, v] of Object.entries(data)) files.set(k, { data: Buffer.from(v), mode });
    return files;
  }
  for (const item of src.items) {
    if (!(item.key in data)) {
      if (src.optional) continue;
      throw new SetUpError(kind === 'configmap' ? `configmap references non-existent config key: ${item.key}` : `references non-existent secret key: ${item.key}`);
    }
    files.set(item.path, { data: Buffer.from(data[item.key]), mode: item.mode ?? mode });
  }
  return files;
}

/** downwardAPI items: fields as text; labels and annotations as sorted key="value" lines (fieldpath.FormatMap). */
function downwardFiles(items: NonNullable<NonNullable<Volume['downwardAPI']>['items']>, defaultMode: number | undefined, ctx: VolumeContext): Map<string, VolumeFile> {
  const files = new Map<string, VolumeFile>();
  for (const item of items) {
    let text = '';
    const path = item.fieldRef?.fieldPath;
    if (path === 'metadata.labels' || path === 'metadata.annotations') {
      const m = (path === 'metadata.labels' ? ctx.pod.metadata?.labels : ctx.pod.metadata?.annotations) ?? {};
      text = Object.keys(m).sort().map((k) => `${k}=${JSON.stringify(m[k])}`).join('\n');
    } else if (path) {
      text = fieldRefValue(ctx.pod, path, ctx.hostIP, ctx.podIP);
    } else if (item.resourceFieldRef) {
      const c = ctx.pod.spec?.containers.find((x) => x.name === item.resourceFieldRef!.containerName) ?? ctx.pod.spec?.containers[0];
      if (c) text = resourceFieldValue(c, item.resourceFieldRef.resource, item.resourceFieldRef.divisor as string | undefined, ctx.allocatable);
    }
    files.set(item.path, { data: Buffer.from(text), mode: item.mode ?? defaultMode ?? DEFAULT_MODE });
  }
  return files;
}
