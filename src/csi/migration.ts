// CSI migration of the in-tree Azure volume plugins (k8s.io/csi-translation-lib plugins/azure_disk.go, azure_file.go):
// which in-tree plugin each CSI driver takes over, from which kubelet release migration is on, and how an in-tree
// StorageClass, PersistentVolume or inline pod volume reads as the CSI driver's (and a CSI volume back as in-tree, as
// the external-provisioner stores a migrated volume). Controllers and the kubelet both translate with these functions,
// as both link csi-translation-lib.

import type { AzureDiskVolumeSource, AzureFilePersistentVolumeSource, CSIPersistentVolumeSource, PersistentVolume, Volume } from 'kubernetes-types/core/v1.js';
import { kubeletAtLeast } from '../node/kube-version.js';

export const AZURE_DISK_PLUGIN = 'kubernetes.io/azure-disk';
export const AZURE_FILE_PLUGIN = 'kubernetes.io/azure-file';
export const AZURE_DISK_DRIVER = 'disk.csi.azure.com';
export const AZURE_FILE_DRIVER = 'file.csi.azure.com';
/** storagehelpers.AnnMigratedTo: the CSI driver a migrated in-tree volume or claim is handled by. */
export const MIGRATED_TO_ANNOTATION = 'pv.kubernetes.io/migrated-to';
/** v1.MigratedPluginsAnnotationKey: the kubelet's list of migrated in-tree plugins on its CSINode. */
export const MIGRATED_PLUGINS_ANNOTATION = 'storage.alpha.kubernetes.io/migrated-plugins';
/** kubernetes.io/azure-file-resource-group: the share's resource group, which the in-tree source has no field for. */
export const AZURE_FILE_RESOURCE_GROUP_ANNOTATION = 'kubernetes.io/azure-file-resource-group';

/**
 * The in-tree plugins csi_plugin.go Init hands the kubelet's nodeinfomanager, with the kubelet minor from which each
 * CSIMigration<Plugin> gate is on by default (pkg/features/kube_features.go; all but Portworx locked on by 1.26,
 * Portworx on by default from 1.31, GA 1.33).
 */
const MIGRATIONS: readonly { plugin: string; driver: string; sinceMinor: number }[] = [
  { plugin: 'kubernetes.io/aws-ebs', driver: 'ebs.csi.aws.com', sinceMinor: 23 },
  { plugin: AZURE_DISK_PLUGIN, driver: AZURE_DISK_DRIVER, sinceMinor: 23 },
  { plugin: AZURE_FILE_PLUGIN, driver: AZURE_FILE_DRIVER, sinceMinor: 24 },
  { plugin: 'kubernetes.io/cinder', driver: 'cinder.csi.openstack.org', sinceMinor: 21 },
  { plugin: 'kubernetes.io/gce-pd', driver: 'pd.csi.storage.gke.io', sinceMinor: 23 },
  { plugin: 'kubernetes.io/portworx-volume', driver: 'pxd.portworx.com', sinceMinor: 31 },
  { plugin: 'kubernetes.io/vsphere-volume', driver: 'csi.vsphere.vmware.com', sinceMinor: 25 },
];

/**
 * The CSI driver that takes over an in-tree plugin in the control plane (a 1.33 kube-controller-manager, where every
 * one of these is migrated): translator.GetCSINameFromInTreeName; undefined for anything else.
 */
export function migratedDriver(inTreePlugin: string | undefined): string | undefined {
  return MIGRATIONS.find((m) => m.plugin === inTreePlugin)?.driver;
}

/** The in-tree plugin a CSI driver migrates (translator.GetInTreeNameFromCSIName). */
export function inTreePluginOf(driver: string): string | undefined {
  return MIGRATIONS.find((m) => m.driver === driver)?.plugin;
}

/** The plugins a kubelet of this version runs migrated, sorted (nodeinfomanager setMigrationAnnotation joins them). */
export function kubeletMigratedPlugins(kubeletVersion: string): string[] {
  return MIGRATIONS.filter((m) => kubeletAtLeast(kubeletVersion, m.sinceMinor)).map((m) => m.plugin).sort();
}

/**
 * pv_controller.go updateMigrationAnnotations: a claim (by its storage-provisioner annotation) or a volume (by
 * pv.kubernetes.io/provisioned-by) of a migrated plugin gets migrated-to naming the driver; any other loses it.
 * Mutates `ann`; true when it changed.
 */
export function updateMigrationAnnotations(ann: Record<string, string> | undefined, claim: boolean): boolean {
  if (!ann) return false;
  const provisioner = claim
    ? ann['volume.kubernetes.io/storage-provisioner'] ?? ann['volume.beta.kubernetes.io/storage-provisioner']
    : ann['pv.kubernetes.io/provisioned-by'];
  if (provisioner === undefined) return false;
  const driver = migratedDriver(provisioner);
  if (driver) {
    if (ann[MIGRATED_TO_ANNOTATION] === driver) return false;
    ann[MIGRATED_TO_ANNOTATION] = driver;
    return true;
  }
  if (ann[MIGRATED_TO_ANNOTATION] === undefined) return false;
  delete ann[MIGRATED_TO_ANNOTATION];
  return true;
}

/**
 * TranslateInTreeStorageClassToCSI: azure-disk's zone/zones parameters become allowed topologies on
 * topology.disk.csi.azure.com/zone (the emulated disk has no zones, so they are dropped) and `csi-migration: "true"`
 * is added; azure-file's class is used as it is.
 */
export function translateStorageClassParameters(plugin: string, params: Record<string, string>): Record<string, string> {
  if (plugin !== AZURE_DISK_PLUGIN) return { ...params };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (!['zone', 'zones'].includes(k.toLowerCase())) out[k] = v;
  out['csi-migration'] = 'true';
  return out;
}

/** azure_file.go getStorageAccountName: `azure-storage-account-<account>-secret` names the account; else the name. */
function storageAccountOf(secretName: string): string {
  return /azure-storage-account-(.+)-secret/.exec(secretName)?.[1] ?? secretName;
}

function diskAttributes(src: AzureDiskVolumeSource): Record<string, string> {
  const attrs: Record<string, string> = { kind: 'Managed', 'csi-migration': 'true' };
  if (src.cachingMode) attrs.cachingMode = src.cachingMode;
  if (src.fsType !== undefined) attrs.fsType = src.fsType;
  if (src.kind) attrs.kind = src.kind;
  return attrs;
}

/** TranslateInTreePVToCSI: the CSI source an in-tree azureDisk/azureFile PersistentVolume is handled as. */
export function translateInTreePV(pv: PersistentVolume): CSIPersistentVolumeSource | undefined {
  const disk = pv.spec?.azureDisk;
  if (disk) {
    return {
      driver: AZURE_DISK_DRIVER, volumeHandle: disk.diskURI, volumeAttributes: diskAttributes(disk),
      ...(disk.fsType !== undefined ? { fsType: disk.fsType } : {}), ...(disk.readOnly !== undefined ? { readOnly: disk.readOnly } : {}),
    };
  }
  const file = pv.spec?.azureFile;
  if (file) {
    const rg = pv.metadata?.annotations?.[AZURE_FILE_RESOURCE_GROUP_ANNOTATION] ?? '';
    return {
      driver: AZURE_FILE_DRIVER, volumeHandle: `${rg}#${storageAccountOf(file.secretName)}#${file.shareName}#`,
      nodeStageSecretRef: { name: file.secretName, namespace: file.secretNamespace ?? 'default' },
      volumeAttributes: { sharename: file.shareName }, ...(file.readOnly !== undefined ? { readOnly: file.readOnly } : {}),
    };
  }
  return undefined;
}

/** An inline volume as TranslateInTreeInlineVolumeToCSI makes it: a PersistentVolume named after the driver and disk. */
export interface TranslatedInline { name: string; accessModes: string[]; csi: CSIPersistentVolumeSource }

/** TranslateInTreeInlineVolumeToCSI for azureDisk (ReadWriteOnce) and azureFile (ReadWriteMany, secret in the pod's namespace). */
export function translateInlineVolume(v: Pick<Volume, 'azureDisk' | 'azureFile'>, podNamespace: string): TranslatedInline | undefined {
  if (v.azureDisk) {
    const d = v.azureDisk;
    return {
      name: `${AZURE_DISK_DRIVER}-${d.diskName}`, accessModes: ['ReadWriteOnce'],
      csi: {
        driver: AZURE_DISK_DRIVER, volumeHandle: d.diskURI, volumeAttributes: diskAttributes(d),
        ...(d.fsType !== undefined ? { fsType: d.fsType } : {}), ...(d.readOnly !== undefined ? { readOnly: d.readOnly } : {}),
      },
    };
  }
  if (v.azureFile) {
    const f = v.azureFile;
    return {
      name: `${AZURE_FILE_DRIVER}-${f.shareName}`, accessModes: ['ReadWriteMany'],
      csi: {
        driver: AZURE_FILE_DRIVER, volumeHandle: `#${storageAccountOf(f.secretName)}#${f.shareName}#`,
        nodeStageSecretRef: { name: f.secretName, namespace: podNamespace || 'default' },
        volumeAttributes: { sharename: f.shareName }, ...(f.readOnly !== undefined ? { readOnly: f.readOnly } : {}),
      },
    };
  }
  return undefined;
}

const MANAGED_DISK_PATH = '.*/subscriptions/(?:.*)/resourceGroups/(?:.*)/providers/Microsoft.Compute/disks/(.+)';
const UNMANAGED_DISK_PATH = 'http(?:.*)://(?:.*)/vhds/(.+)';

/** The in-tree source the migrated external-provisioner stores (TranslateCSIPVToInTree), with any annotation it adds. */
export type InTreeSource =
  | { azureDisk: AzureDiskVolumeSource; annotations: Record<string, string> }
  | { azureFile: AzureFilePersistentVolumeSource; annotations: Record<string, string> };

/**
 * TranslateCSIPVToInTree. azure-disk: the disk name from the managed-disk URI (an error when it does not parse, in
 * the translator's words), kind Managed unless the attributes say otherwise. azure-file: share and secret from the
 * attributes or the `rg#account#share#…` handle, the secret namespace `default` unless given.
 */
export function translateCsiToInTree(src: CSIPersistentVolumeSource): InTreeSource | { error: string } {
  const attrs = src.volumeAttributes ?? {};
  if (src.driver === AZURE_DISK_DRIVER) {
    const uri = src.volumeHandle;
    const managed = !/^http/i.test(uri);
    // The patterns as text: the error quotes them the way Go's regexp prints them.
    const pattern = managed ? MANAGED_DISK_PATH : UNMANAGED_DISK_PATH;
    const m = new RegExp(pattern).exec(uri);
    if (!m) return { error: `could not get disk name from ${uri}, correct format: ${pattern}` };
    const disk: AzureDiskVolumeSource = { diskName: m[1], diskURI: uri, fsType: src.fsType ?? '', readOnly: !!src.readOnly, kind: 'Managed' };
    if (attrs.cachingMode !== undefined) disk.cachingMode = attrs.cachingMode;
    if (attrs.fsType) disk.fsType = attrs.fsType;
    if (attrs.kind) disk.kind = attrs.kind;
    return { azureDisk: disk, annotations: {} };
  }
  if (src.driver === AZURE_FILE_DRIVER) {
    const file: AzureFilePersistentVolumeSource = { shareName: '', secretName: '', readOnly: !!src.readOnly };
    for (const [k, v] of Object.entries(attrs)) {
      switch (k.toLowerCase()) {
        case 'sharename': file.shareName = v; break;
        case 'secretname': file.secretName = v; break;
        case 'secretnamespace': file.secretNamespace = v; break;
      }
    }
    const annotations: Record<string, string> = {};
    if (src.nodeStageSecretRef?.name) {
      file.secretName = src.nodeStageSecretRef.name;
      file.secretNamespace = src.nodeStageSecretRef.namespace;
    }
    if (!file.shareName || !file.secretName) {
      const parts = src.volumeHandle.split('#');
      if (parts.length < 3) return { error: `error parsing volume id: ${JSON.stringify(src.volumeHandle)}, should at least contain two #` };
      file.shareName ||= parts[2];
      file.secretName ||= `azure-storage-account-${parts[1]}-secret`;
      if (parts[0]) annotations[AZURE_FILE_RESOURCE_GROUP_ANNOTATION] = parts[0];
    }
    file.secretNamespace ??= 'default';
    return { azureFile: file, annotations };
  }
  return { error: `could not find in-tree plugin translation logic for ${src.driver}` };
}
