// The default StorageClass `winkube up` installs, as kind does: `standard`, served by the local-path provisioner,
// binding when the first pod uses a claim, deleting volumes with their claims. Created once; a changed or deleted-
// and-recreated class is left as the user made it.

import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import { isAlreadyExists } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { DEFAULT_CLASS_ANNOTATION } from '../api/printers/storage.js';
import { PROVISIONER } from '../controllers/volume/local-path.js';
import { ensureEmulatedCsiDrivers } from './csi-drivers.js';
import { ensureLocalPathStorage } from './local-path-storage.js';

export const DEFAULT_STORAGE_CLASS = 'standard';

export function defaultStorageClassObject(): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass',
    metadata: { name: DEFAULT_STORAGE_CLASS, annotations: { [DEFAULT_CLASS_ANNOTATION]: 'true' } },
    provisioner: PROVISIONER, reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer',
  };
}

export async function ensureDefaultStorageClass(client: Client): Promise<void> {
  try {
    await client.create(R.storageclasses, undefined, defaultStorageClassObject() as unknown as KubeObject);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
  }
  // The provisioner's namespace, helper ServiceAccount and ConfigMap, as kind installs them.
  await ensureLocalPathStorage(client);
  // The emulated CSI drivers come installed too: their CSIDriver objects and one StorageClass each (src/csi/drivers.ts).
  await ensureEmulatedCsiDrivers(client);
}
