// Node registration of the emulated CSI drivers' node plugins, as the kubelet's plugin watcher and nodeinfomanager do
// when a node-driver-registrar announces a driver (pkg/volume/csi/nodeinfomanager/nodeinfomanager.go): the CSINode
// lists each registered driver with its node ID and topology keys, the Node gets the
// csi.volume.kubernetes.io/nodeid annotation and the topology labels. A plugin that cannot start (no csi-proxy on a
// Windows node) leaves no trace here: that absence is what the kubelet's mount errors name.

import { isAlreadyExists } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { csiNodeObject, nodePlugins, nodeRegistrationMetadata, type CsiNodeFacts } from './csi-node.js';
import { MIGRATED_PLUGINS_ANNOTATION } from '../../csi/migration.js';

export interface RegistrationLog {
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export async function registerCsiPlugins(client: Client, p: CsiNodeFacts, nodeUid: string | undefined, log: RegistrationLog): Promise<void> {
  for (const s of nodePlugins(p)) {
    // The node plugin's own log: it exits before the registrar can announce it.
    if (s.error) log.warn('CSI node plugin failed to start', { node: p.name, driver: s.driver.name, err: `failed to connect to csi-proxy: ${s.error}` });
  }
  const want = csiNodeObject(p, nodeUid);
  try {
    await client.create(R.csinodes, undefined, want as unknown as KubeObject);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
    // A restarted kubelet re-registers: the drivers it has now replace what the object listed.
    // The migrated-plugins annotation follows the kubelet's version (nodeinfomanager updateCSINode).
    await client.patch(R.csinodes, undefined, p.name, 'merge', {
      metadata: { annotations: { [MIGRATED_PLUGINS_ANNOTATION]: want.metadata?.annotations?.[MIGRATED_PLUGINS_ANNOTATION] ?? null } },
      spec: { drivers: want.spec.drivers },
    });
  }
  const meta = nodeRegistrationMetadata(p);
  if (Object.keys(meta.annotations).length || Object.keys(meta.labels).length) {
    await client.patch(R.nodes, undefined, p.name, 'merge', { metadata: meta });
  }
}
