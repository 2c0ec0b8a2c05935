// The local-path-storage namespace kind installs with its provisioner (rancher/local-path-provisioner
// deploy/local-path-storage.yaml): the namespace the helper pods run in, their ServiceAccount, and the
// `local-path-config` ConfigMap. Created once; a ConfigMap the user changed is left as it is.

import { isAlreadyExists, isNotFound } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { NAMESPACE, SERVICE_ACCOUNT, defaultConfigMap } from '../controllers/volume/local-path-config.js';

export async function ensureLocalPathStorage(client: Client): Promise<void> {
  const objects: [typeof R.namespaces, string | undefined, object][] = [
    [R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }],
    [R.serviceaccounts, NAMESPACE, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SERVICE_ACCOUNT, namespace: NAMESPACE } }],
    [R.configmaps, NAMESPACE, defaultConfigMap()],
  ];
  for (const [rt, ns, obj] of objects) {
    // On etcd the API server learns of the namespace it just created from its watch, a moment later: until then
    // NamespaceLifecycle answers NotFound for objects in it (kube's plugin would look the namespace up live).
    for (let attempt = 1; ; attempt++) {
      try {
        await client.create(rt, ns, obj as KubeObject);
        break;
      } catch (e) {
        if (isAlreadyExists(e)) break;
        if (!(ns && isNotFound(e) && attempt < 50)) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}
