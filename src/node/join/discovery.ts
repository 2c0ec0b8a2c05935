// Token discovery as `kubeadm join` does it (cmd/kubeadm/app/discovery/token/token.go): read kube-public/cluster-info
// without trusting the server yet, check the token's JWS signature over its kubeconfig (the server knows the token),
// then the CA against the --discovery-token-ca-cert-hash pins (the CA is the one the user meant).

import { parse } from 'yaml';
import type { KubeObject } from '../../api/types.js';
import { caMatchesPins } from '../../bootstrap/ca-hash.js';
import { detachedSignatureValid, jwsKey } from '../../bootstrap/jws.js';
import type { BootstrapToken } from '../../bootstrap/token.js';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE } from '../../cluster/cluster-config.js';
import { createHttpClient } from '../../client/http-transport.js';
import { R } from '../../client/resources.js';
import type { Clock } from '../../util/clock.js';

export interface DiscoveryOptions {
  server: string;
  token: BootstrapToken;
  /** `sha256:<hex>` pins; kubeadm refuses to go on without one unless told to skip verification. */
  caCertHashes: string[];
  unsafeSkipCAVerification?: boolean;
  clock: Clock;
  /** How long to wait for the bootstrap signer to sign cluster-info for this token (kubeadm: --discovery-timeout). */
  timeoutMs?: number;
}

export interface DiscoveredCluster {
  server: string;
  ca: string;
}

type ConfigMapObj = KubeObject & { data?: Record<string, string> };

export async function discoverCluster(o: DiscoveryOptions): Promise<DiscoveredCluster> {
  if (!o.caCertHashes.length && !o.unsafeSkipCAVerification) {
    throw new Error('discovery.bootstrapToken: Invalid value: "": using token-based discovery without caCertHashes can be unsafe. Set unsafeSkipCAVerification as true in your kubeadm config file or pass --discovery-token-unsafe-skip-ca-verification flag to continue');
  }
  const insecure = createHttpClient({ server: o.server, insecureSkipTlsVerify: true, timeoutMs: 10_000 });
  const deadline = o.clock.now() + (o.timeoutMs ?? 60_000);
  for (;;) {
    let cm: ConfigMapObj | undefined;
    let failure: string;
    try {
      cm = await insecure.get<ConfigMapObj>(R.configmaps, CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME);
      failure = '';
    } catch (err) {
      failure = `failed to request the cluster-info ConfigMap: ${(err as Error).message}`;
    }
    const content = cm?.data?.kubeconfig;
    const sig = cm?.data?.[jwsKey(o.token.id)];
    if (cm && !content) failure = 'the cluster-info ConfigMap holds no kubeconfig';
    else if (cm && !sig) failure = `there is no JWS signed token in the cluster-info ConfigMap. This token id "${o.token.id}" is invalid for this cluster, can't connect`;
    if (!failure && content && sig) {
      if (!detachedSignatureValid(sig, content, o.token.id, o.token.secret)) {
        throw new Error('failed to verify JWS signature of received cluster info object, can\'t trust this API server');
      }
      const cluster = (parse(content) as { clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string } }[] }).clusters?.[0]?.cluster;
      const ca = Buffer.from(cluster?.['certificate-authority-data'] ?? '', 'base64').toString();
      if (!cluster?.server || !ca) throw new Error('the cluster-info kubeconfig names no server or CA');
      if (!o.unsafeSkipCAVerification && !caMatchesPins(ca, o.caCertHashes)) {
        throw new Error('cluster CA found in cluster-info ConfigMap is invalid: none of the public keys "' + o.caCertHashes.join(',') + '" are pinned');
      }
      return { server: cluster.server, ca };
    }
    // The signer may not have signed a brand-new token yet, or the server is still starting: retry until the deadline.
    if (o.clock.now() >= deadline) throw new Error(`couldn't validate the identity of the API Server: ${failure}`);
    await o.clock.sleep(1000);
  }
}
