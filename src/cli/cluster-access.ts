// How the inspection commands reach a running cluster: the kubeconfig `winkube up` wrote (or --kubeconfig /
// $KUBECONFIG), and the node agent's kubelet server behind the API server's nodes/<name>/proxy, as kubectl reaches it.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KUBELET_SERVER_ANNOTATION } from '../api/well-known.js';
import { HttpTransport, optionsFromKubeconfig } from '../client/http-transport.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { UsageError, type FlagSpec } from './flags.js';

export const CLUSTER_FLAGS: FlagSpec[] = [
  { name: 'kubeconfig', type: 'string', help: 'kubeconfig of the cluster (default: $KUBECONFIG, else <data-dir>/kubeconfig)', placeholder: 'FILE' },
  { name: 'data-dir', type: 'string', help: 'data directory of a cluster started with `winkube up`', default: '.winkube', placeholder: 'DIR' },
];

export function clusterTransport(flags: Record<string, string | number | boolean | undefined>): HttpTransport {
  const path = (flags.kubeconfig as string | undefined) ?? process.env.KUBECONFIG?.split(':')[0] ?? join(resolve(flags['data-dir'] as string), 'kubeconfig');
  if (!existsSync(path)) throw new UsageError(`no kubeconfig at ${path}: start a cluster with "winkube up" or pass --kubeconfig`);
  return new HttpTransport(optionsFromKubeconfig(loadKubeconfig(path)));
}

interface NodeItem { metadata?: { name?: string; annotations?: Record<string, string> } }

/** A node served by a winkube node agent (its kubelet server answers the inspection paths). */
export async function agentNode(t: HttpTransport, preferred?: string): Promise<string> {
  if (preferred) return preferred;
  const res = await t.request({ method: 'GET', path: '/api/v1/nodes' });
  const items = ((res.body as { items?: NodeItem[] })?.items ?? []);
  const node = items.find((n) => n.metadata?.annotations?.[KUBELET_SERVER_ANNOTATION])?.metadata?.name;
  if (!node) throw new Error('no node of this cluster is run by a winkube node agent');
  return node;
}

/** GET a path of a node's kubelet server through the API server; a non-2xx answer throws with its message. */
export async function nodeProxyGet(t: HttpTransport, node: string, path: string, query: Record<string, string> = {}): Promise<unknown> {
  const res = await t.request({ method: 'GET', path: `/api/v1/nodes/${encodeURIComponent(node)}/proxy/${path}`, query });
  if (res.status >= 300) {
    const body = res.body as { message?: string } | string;
    throw new Error(typeof body === 'string' ? body.trim() : body?.message ?? `HTTP ${res.status}`);
  }
  return res.body;
}
