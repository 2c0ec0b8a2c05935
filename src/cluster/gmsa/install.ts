// Installs GMSA in the default cluster the way its docs deploy it: the CRD, the webhook's workload with a serving
// certificate the cluster CA signs (deploy/create-signed-cert.sh has the cluster sign it), and, once a webhook pod is
// a ready endpoint, the webhook configurations (failurePolicy Fail would otherwise refuse every pod meanwhile).
// Objects that exist are left as the user changed them.

import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { issueCert, type CertPair } from '../../apiserver/pki.js';
import { CRDS } from '../../apiserver/crd/crd-controller.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { NodeProfile } from '../../node/profile.js';
import type { Clock } from '../../util/clock.js';
import { gmsaCrdObject } from './crd.js';
import { GMSA_CERT_SECRET, GMSA_NAMESPACE, GMSA_RELEASE, gmsaServiceDnsNames, gmsaWebhookConfigurations, gmsaWebhookWorkload } from './manifests.js';

/** Why the fleet cannot use the webhook, or undefined: it needs Windows nodes to matter and a Linux node to run on. */
export function gmsaWebhookUnfit(profiles: readonly Pick<NodeProfile, 'os' | 'taints'>[]): string | undefined {
  if (!profiles.some((p) => p.os === 'windows')) return 'the fleet has no Windows node';
  // The pods tolerate the control-plane taint; any other NoSchedule/NoExecute taint keeps them off a node.
  const runsOn = (p: Pick<NodeProfile, 'taints'>) => (p.taints ?? []).every((t) => t.effect === 'PreferNoSchedule' || /^node-role\.kubernetes\.io\/(control-plane|master)$/.test(t.key));
  if (!profiles.some((p) => p.os === 'linux' && runsOn(p))) return 'the fleet has no Linux node the webhook pods can run on';
  return undefined;
}

async function exists(client: Client, rt: ResourceType, namespace: string | undefined, name: string): Promise<boolean> {
  try {
    await client.get(rt, namespace, name);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

async function ensure(client: Client, rt: ResourceType, obj: KubeObject): Promise<void> {
  // Look first: creating a Service again would fail on its ClusterIP before AlreadyExists.
  if (await exists(client, rt, obj.metadata.namespace, obj.metadata.name!)) return;
  try {
    await client.create(rt, obj.metadata.namespace, obj);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

/** The CRD and the webhook's workload; the serving certificate is minted only when its Secret is missing. */
export async function installGmsaWorkload(client: Client, ca: CertPair): Promise<void> {
  await ensure(client, CRDS, gmsaCrdObject());
  const haveSecret = await exists(client, R.secrets, GMSA_NAMESPACE, GMSA_CERT_SECRET);
  const serving = haveSecret
    ? { cert: '', key: '' }
    : issueCert(ca, { cn: `system:node:${GMSA_RELEASE}.${GMSA_NAMESPACE}.svc`, orgs: ['system:nodes'], server: { dns: gmsaServiceDnsNames(), ips: [] } });
  for (const { rt, obj } of gmsaWebhookWorkload({ caCert: ca.cert, ...serving })) {
    if (rt === R.secrets && haveSecret) continue;
    await ensure(client, rt, obj);
  }
}

async function hasReadyEndpoint(client: Client): Promise<boolean> {
  const slices = await client.list<KubeObject & { endpoints?: { conditions?: { ready?: boolean } }[] }>(R.endpointslices, GMSA_NAMESPACE, { labelSelector: `kubernetes.io/service-name=${GMSA_RELEASE}` });
  return slices.items.some((s) => (s.endpoints ?? []).some((e) => e.conditions?.ready === true));
}

/**
 * Creates the webhook configurations once a webhook pod is a ready endpoint behind the Service. Waits up to waitMs
 * (true: enabled); past that it keeps waiting in the background until `signal` aborts, so a fleet whose webhook
 * pods cannot start still admits pods instead of refusing every one through failurePolicy Fail.
 */
export async function enableGmsaWebhooks(client: Client, ca: CertPair, clock: Clock, o: { waitMs?: number; signal?: AbortSignal } = {}): Promise<boolean> {
  const poll = async (until: number, everyMs: number): Promise<boolean> => {
    while (!o.signal?.aborted) {
      if (await hasReadyEndpoint(client)) {
        for (const { rt, obj } of gmsaWebhookConfigurations(ca.cert)) await ensure(client, rt, obj);
        return true;
      }
      if (clock.now() >= until) return false;
      await clock.sleep(everyMs);
    }
    return false;
  };
  if (await poll(clock.now() + (o.waitMs ?? 30_000), 100)) return true;
  void poll(Number.POSITIVE_INFINITY, 1000).catch(() => {});
  return false;
}
