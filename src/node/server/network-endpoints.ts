// The node agent's network inspection paths on its kubelet server (reached through nodes/<name>/proxy/winkube/…):
// the verification matrix, one traced flow, a node's HNS objects and its kube-proxy. The CLI's `winkube net` and
// `winkube hns` read them, so they work against any cluster the user's kubeconfig reaches.

import { netCheck } from '../../network/check/net-check.js';
import type { ClusterNetwork } from '../../network/model/cluster-network.js';
import { FlowSpecError, parseDestination, parseSource, serializeTrace } from '../../network/model/serialize.js';
import type { FlowProtocol, PodNet } from '../../network/model/types.js';

export interface NetworkInspection {
  net: ClusterNetwork;
  /** A node's HNS objects as the chosen view prints them (undefined: not a Windows node of this agent). */
  hnsText(node: string, view: string): string | undefined;
  /** Resolves a name from a pod with its own resolver (its OS's search rules, through the cluster DNS). */
  resolveFromPod(pod: PodNet, name: string): Promise<string | undefined>;
}

export interface EndpointAnswer { status: number; contentType: string; body: string }

const json = (status: number, body: unknown): EndpointAnswer => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
const text = (status: number, body: string): EndpointAnswer => ({ status, contentType: 'text/plain; charset=utf-8', body });

/** `parts` is the path after /winkube/. */
export async function networkEndpoint(o: NetworkInspection, node: string, parts: string[], q: URLSearchParams): Promise<EndpointAnswer | undefined> {
  const [first, second] = parts;
  try {
    if (first === 'net' && second === 'check') {
      const namespaces = q.get('namespace')?.split(',').map((s) => s.trim()).filter(Boolean);
      return json(200, { cells: await netCheck(o.net, { resolve: (p, name) => o.resolveFromPod(p, name), namespaces }) });
    }
    if (first === 'net' && second === 'trace') {
      const protocol = (q.get('protocol') ?? 'TCP').toUpperCase() as FlowProtocol;
      if (!['TCP', 'UDP', 'ICMP'].includes(protocol)) return text(400, `invalid protocol "${protocol}": TCP, UDP or ICMP\n`);
      const port = protocol === 'ICMP' ? undefined : Number(q.get('port') ?? 80);
      if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) return text(400, `invalid port "${q.get('port')}"\n`);
      const fromSpec = q.get('from') ?? '';
      const from = parseSource(o.net, fromSpec);
      // svc/NAME without a namespace is the source pod's namespace, as its short DNS name would be.
      const ns = from.kind === 'pod' ? o.net.podByIP(from.ip)?.namespace : undefined;
      const to = parseDestination(o.net, q.get('to') ?? '', ns);
      return json(200, serializeTrace(o.net.trace({ from, to, protocol, port }, { peek: true }), fromSpec));
    }
    if (first === 'hns') {
      const out = o.hnsText(node, q.get('view') ?? 'all');
      return out === undefined ? text(404, `node ${node} has no HNS: it is not a Windows node\n`) : text(200, out);
    }
    if (first === 'kube-proxy') {
      const n = o.net.nodes.get(node);
      if (!n) return text(404, `node ${node} is not in the network model\n`);
      const proxy = n.winkernel ?? n.iptables;
      const state = n.winkernel?.state() ?? { phase: 'running' };
      const head = n.iptables?.label === 'OVN'
        ? `${node}: no kube-proxy; OVN load balancers program Services (ovn-kubernetes)\n`
        : `kube-proxy on ${node}: mode ${n.network.kubeProxy.mode}, ${state.phase}${'reason' in state ? ` (${state.reason})` : ''}\n`;
      const rules = q.get('rules') === 'true' ? (n.iptables?.save() ?? o.hnsText(node, 'policies') ?? '') : '';
      return text(200, `${head}${rules ? `\n${rules}` : ''}\n--- log ---\n${proxy?.log.text() ?? ''}`);
    }
  } catch (err) {
    if (err instanceof FlowSpecError) return text(400, `${err.message}\n`);
    throw err;
  }
  return undefined;
}
