// Writes the kubeconfig a user exports: the cluster's CA, the server URL and the admin client certificate.

import { renameSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import type { ClusterPki } from '../apiserver/pki.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function kubeconfigYaml(server: string, pki: Pick<ClusterPki, 'ca' | 'admin'>, name = 'winkube'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'certificate-authority-data': b64(pki.ca.cert) } }],
    users: [{ name: `${name}-admin`, user: { 'client-certificate-data': b64(pki.admin.cert), 'client-key-data': b64(pki.admin.key) } }],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin` } }],
    'current-context': name,
    preferences: {},
  });
}

/** Written atomically (temp file + rename) so a script waiting for the file never reads half of it. */
export function writeKubeconfig(path: string, server: string, pki: Pick<ClusterPki, 'ca' | 'admin'>): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, kubeconfigYaml(server, pki), { mode: 0o600 });
  renameSync(tmp, path);
}

/** A kubeconfig for another user of the cluster: its own client certificate, context `winkube-<user>`. */
export function userKubeconfigYaml(server: string, caCert: string, user: { cert: string; key: string }, userName: string, cluster = 'winkube'): string {
  const context = `${cluster}-${userName}`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server, 'certificate-authority-data': b64(caCert) } }],
    users: [{ name: userName, user: { 'client-certificate-data': b64(user.cert), 'client-key-data': b64(user.key) } }],
    contexts: [{ name: context, context: { cluster, user: userName } }],
    'current-context': context,
    preferences: {},
  });
}
