// What a node agent learns from the API instead of being handed it in-process: the Service CIDRs (kubeadm-config's
// ClusterConfiguration.networking.serviceSubnet) and where pods reach kube-apiserver (the `kubernetes` Endpoints).

import type { KubeObject } from '../../api/types.js';
import { isNotFound } from '../../api/errors.js';
import { KUBEADM_CONFIG_NAME, serviceCidrsFrom } from '../../cluster/cluster-config.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';

export interface NodeClusterSettings {
  serviceCidrs?: string[];
  /** The `kubernetes` Service's endpoint: the advertised address and port. */
  advertised?: { address: string; port: number };
}

/** Missing objects (a real cluster without kubeadm-config, or no read access) leave the agent's defaults in place. */
export async function readClusterSettings(client: Client): Promise<NodeClusterSettings> {
  const out: NodeClusterSettings = {};
  try {
    out.serviceCidrs = serviceCidrsFrom(await client.get(R.configmaps, 'kube-system', KUBEADM_CONFIG_NAME));
  } catch (err) {
    if (!isNotFound(err) && (err as { code?: number }).code !== 403) throw err;
  }
  try {
    const ep = await client.get<KubeObject & { subsets?: { addresses?: { ip: string }[]; ports?: { port: number; name?: string }[] }[] }>(R.endpoints, 'default', 'kubernetes');
    const s = ep.subsets?.[0];
    const ip = s?.addresses?.[0]?.ip;
    const port = s?.ports?.find((p) => p.name === 'https')?.port ?? s?.ports?.[0]?.port;
    if (ip && port) out.advertised = { address: ip, port };
  } catch (err) {
    if (!isNotFound(err) && (err as { code?: number }).code !== 403) throw err;
  }
  return out;
}
