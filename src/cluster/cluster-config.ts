// What kubeadm init uploads for nodes to find: the cluster-info ConfigMap in kube-public (a kubeconfig with only the
// server and CA, which joining nodes verify with the CA hash and the token's JWS signature) and the kubeadm-config
// ConfigMap in kube-system (networking settings). Node agents read these through the API instead of being handed them.

import { parse, stringify } from 'yaml';
import { isAlreadyExists, isNotFound } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { ensureComponentRbac } from './component-rbac.js';
import { ensureJoinRbac } from './join-rbac.js';

export const CLUSTER_INFO_NAMESPACE = 'kube-public';
export const CLUSTER_INFO_NAME = 'cluster-info';
export const KUBEADM_CONFIG_NAME = 'kubeadm-config';

export interface ClusterConfigValues {
  /** The URL joining nodes use (kubeadm's controlPlaneEndpoint). */
  server: string;
  /** The cluster CA certificate (PEM). */
  ca: string;
  /** --service-cluster-ip-range, primary first. */
  serviceCidrs: readonly string[];
}

type ConfigMapObj = KubeObject & { data?: Record<string, string> };

/** The kubeconfig kubeadm puts in cluster-info (phases/bootstrap-token/clusterinfo): one cluster named "", no user. */
export function clusterInfoKubeconfig(server: string, ca: string): string {
  return stringify({
    apiVersion: 'v1', kind: 'Config', preferences: {},
    clusters: [{ name: '', cluster: { 'certificate-authority-data': Buffer.from(ca).toString('base64'), server } }],
    contexts: [], 'current-context': '', users: [],
  });
}

/** kubeadm's ClusterConfiguration, with the fields winkube's node agents read (phases/uploadconfig). */
export function clusterConfiguration(v: ClusterConfigValues): string {
  return stringify({
    apiVersion: 'kubeadm.k8s.io/v1beta3', kind: 'ClusterConfiguration', clusterName: 'kubernetes',
    controlPlaneEndpoint: v.server.replace(/^https:\/\//, ''),
    networking: { dnsDomain: 'cluster.local', serviceSubnet: v.serviceCidrs.join(',') },
  });
}

/** The service CIDRs from a kubeadm-config ConfigMap, or undefined when it has none. */
export function serviceCidrsFrom(cm: ConfigMapObj | undefined): string[] | undefined {
  const text = cm?.data?.ClusterConfiguration;
  if (!text) return undefined;
  const subnet = (parse(text) as { networking?: { serviceSubnet?: string } } | null)?.networking?.serviceSubnet;
  return subnet ? subnet.split(',').map((c) => c.trim()).filter(Boolean) : undefined;
}

/** Creates or updates one key set of a ConfigMap, leaving its other keys (cluster-info's JWS signatures) alone. */
async function upsert(client: Client, namespace: string, name: string, data: Record<string, string>): Promise<void> {
  try {
    const cm = await client.get<ConfigMapObj>(R.configmaps, namespace, name);
    if (Object.entries(data).every(([k, v]) => cm.data?.[k] === v)) return;
    await client.patch(R.configmaps, namespace, name, 'merge', { data });
    return;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await client.create<ConfigMapObj>(R.configmaps, namespace, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    await client.patch(R.configmaps, namespace, name, 'merge', { data });
  }
}

export async function publishClusterConfig(client: Client, v: ClusterConfigValues): Promise<void> {
  await upsert(client, CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME, { kubeconfig: clusterInfoKubeconfig(v.server, v.ca) });
  await upsert(client, 'kube-system', KUBEADM_CONFIG_NAME, { ClusterConfiguration: clusterConfiguration(v) });
  await ensureJoinRbac(client);
  await ensureComponentRbac(client);
}
