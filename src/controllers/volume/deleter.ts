// Who deletes a released volume with reclaimPolicy Delete (pkg/controller/volume/persistentvolume/pv_controller.go
// findDeletablePlugin): an external provisioner when the volume names one in pv.kubernetes.io/provisioned-by, else
// the in-tree plugin its source matches. kube-controller-manager's only in-tree deleter is hostPath's, which removes
// paths matching /tmp/.+ (pkg/volume/hostpath/host_path.go hostPathDeleter.Delete) on the controller-manager's host;
// everything else fails, and the volume is marked Failed with the error as its message and a VolumeFailedDelete event.

import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import { isNotFound } from '../../api/errors.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';

export const PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
/** The provisioned-by value of volumes kube-controller-manager's hostPath provisioner makes. */
export const HOST_PATH_PLUGIN = 'kubernetes.io/host-path';

/** The volume plugins kube-controller-manager registers (cmd/kube-controller-manager/app/plugins.go); hostPath alone deletes. */
const CONTROLLER_PLUGINS: (keyof NonNullable<PersistentVolume['spec']>)[] = ['hostPath', 'nfs', 'local', 'csi', 'iscsi', 'fc'];

const IN_TREE_PLUGIN_NAMES = ['kubernetes.io/nfs', 'kubernetes.io/local-volume', 'kubernetes.io/csi', 'kubernetes.io/iscsi', 'kubernetes.io/fc'];

export type DeleteDecision =
  /** An external provisioner deletes it; the PV controller leaves it alone (no event, phase stays Released). */
  | { external: string }
  /** The hostPath deleter removes the directory, then the controller deletes the object. */
  | { hostPath: string }
  /** No deleter: the volume goes Failed with this message. */
  | { error: string };

export function deleteDecision(pv: PersistentVolume): DeleteDecision {
  const name = pv.metadata?.name ?? '';
  const by = pv.metadata?.annotations?.[PROVISIONED_BY];
  if (by && by !== HOST_PATH_PLUGIN) {
    // FindDeletablePluginByName finds no in-tree plugin: a name outside kubernetes.io/ is an external provisioner's.
    if (!by.startsWith('kubernetes.io/')) return { external: by };
    // A plugin found by name but not deletable, or none of that name (volume/plugins.go FindPluginByName).
    return { error: IN_TREE_PLUGIN_NAMES.includes(by) ? 'no deletable volume plugin matched' : `no volume plugin matched name: ${by}` };
  }
  const spec = pv.spec ?? {};
  if (spec.hostPath) {
    const path = spec.hostPath.path;
    // The deleter's regexp is unanchored: /tmp/.+ anywhere in the path will do.
    if (!/\/tmp\/.+/.test(path)) return { error: `host_path deleter only supports /tmp/.+ but received provided ${path}` };
    return { hostPath: path };
  }
  const matched = CONTROLLER_PLUGINS.some((k) => spec[k] !== undefined);
  return { error: `error getting deleter volume plugin for volume ${JSON.stringify(name)}: ${matched ? 'no deletable volume plugin matched' : 'no volume plugin matched'}` };
}

/**
 * Whether an external provisioner deletes this released volume (sig-storage-lib-external-provisioner controller.go
 * shouldDelete): reclaimPolicy Delete, phase Released, and its own name in pv.kubernetes.io/provisioned-by.
 */
export function externalShouldDelete(pv: PersistentVolume, provisioner: string): boolean {
  return pv.spec?.persistentVolumeReclaimPolicy === 'Delete' && pv.status?.phase === 'Released'
    && !pv.metadata?.deletionTimestamp && pv.metadata?.annotations?.[PROVISIONED_BY] === provisioner;
}

/** The provisioner deleted the storage: the PersistentVolume object goes (one already gone is fine). */
export async function deleteVolumeObject(client: Client, name: string): Promise<void> {
  try {
    await client.delete(R.persistentvolumes, undefined, name);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
