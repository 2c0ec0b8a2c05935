// What installing the emulated CSI drivers leaves in the API, as their Helm charts / deploy scripts do: a CSIDriver
// per driver (attachRequired, lifecycle modes, fsGroupPolicy) and a StorageClass naming it (expansion allowed).
// Created once; objects a user changed or deleted-and-recreated are left alone.

import type { CSIDriver, StorageClass } from 'kubernetes-types/storage/v1.js';
import { isAlreadyExists } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { EMULATED_DRIVERS, type EmulatedDriver } from '../csi/drivers.js';

export function csiDriverObject(d: EmulatedDriver): CSIDriver {
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver',
    metadata: { name: d.name },
    spec: {
      attachRequired: d.attachRequired, podInfoOnMount: d.name === 'hostpath.csi.k8s.io', storageCapacity: false,
      // hostpath serves inline ephemeral volumes too (csi-driver-host-path deploy/csi-hostpath-driverinfo.yaml).
      volumeLifecycleModes: d.name === 'hostpath.csi.k8s.io' ? ['Persistent', 'Ephemeral'] : ['Persistent'],
      fsGroupPolicy: d.name === 'smb.csi.k8s.io' ? 'ReadWriteOnceWithFSType' : 'File',
    },
  };
}

export function csiStorageClassObject(d: EmulatedDriver): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass',
    metadata: { name: d.storageClass.name },
    provisioner: d.name, parameters: d.storageClass.parameters, reclaimPolicy: 'Delete',
    volumeBindingMode: d.storageClass.bindingMode, allowVolumeExpansion: true,
  };
}

async function createOnce(client: Client, r: (typeof R)[keyof typeof R], obj: object): Promise<void> {
  try {
    await client.create(r, undefined, obj as KubeObject);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
  }
}

export async function ensureEmulatedCsiDrivers(client: Client): Promise<void> {
  for (const d of EMULATED_DRIVERS) {
    await createOnce(client, R.csidrivers, csiDriverObject(d));
    await createOnce(client, R.storageclasses, csiStorageClassObject(d));
  }
}
