// `winkube net check|trace|proxy`: the seed's verification list as a matrix, one flow traced hop by hop, and what a
// node's kube-proxy programmed — all answered by the node agent's network model through the API server.

import { formatNetCheck, type CheckCell } from '../network/check/net-check.js';
import type { SerializedTrace } from '../network/model/serialize.js';
import { agentNode, CLUSTER_FLAGS, clusterTransport, nodeProxyGet } from './cluster-access.js';
import { flagHelp, parseFlags, UsageError, type FlagSpec } from './flags.js';
import type { Command } from './main.js';

const CHECK_FLAGS: FlagSpec[] = [
  ...CLUSTER_FLAGS,
  { name: 'namespace', type: 'string', help: 'only pods and Services of these namespaces (comma-separated); default all but kube-system', placeholder: 'NS' },
  { name: 'json', type: 'boolean', help: 'print the cells as JSON' },
];
const TRACE_FLAGS: FlagSpec[] = [
  ...CLUSTER_FLAGS,
  { name: 'protocol', type: 'string', help: 'tcp | udp | icmp', default: 'tcp', placeholder: 'PROTO' },
  { name: 'port', type: 'number', help: 'destination port (tcp and udp); default 80', placeholder: 'N' },
  { name: 'json', type: 'boolean', help: 'print the trace as JSON' },
];
const PROXY_FLAGS: FlagSpec[] = [
  ...CLUSTER_FLAGS,
  { name: 'rules', type: 'boolean', help: 'print the programmed rules (iptables-save on Linux nodes, HNS load balancers on Windows nodes)' },
];

const HELP = [
  'Usage:',
  '  winkube net check [flags]                  the seed\'s verification list over every node, pod and Service',
  '  winkube net trace FROM TO [flags]          one flow through the data plane, hop by hop',
  '  winkube net proxy NODE [flags]             the node\'s kube-proxy: state and log (and --rules)',
  '',
  'FROM is pod/NAME, pod/NAMESPACE/NAME, node/NAME, outside, or an address; TO is any of those, svc/NAME or',
  'svc/NAMESPACE/NAME (its ClusterIP), or an address. Addresses are modelled: no packet is sent.',
  '',
  'check flags:', flagHelp(CHECK_FLAGS), '', 'trace flags:', flagHelp(TRACE_FLAGS), '', 'proxy flags:', flagHelp(PROXY_FLAGS),
].join('\n');

export function formatTrace(t: SerializedTrace): string {
  const lines = [`${t.flow.protocol} ${t.flow.from} → ${t.flow.to}${t.flow.port !== undefined ? `:${t.flow.port}` : ''}`];
  t.hops.forEach((h, i) => lines.push(`  ${String(i + 1).padStart(2)}. ${h.at.padEnd(28)} ${h.rule}`));
  lines.push(`verdict: ${t.fate}${t.reason ? ` — ${t.reason}` : ''}`);
  if (t.seenSource) lines.push(`the destination sees the client as ${t.seenSource}${t.seenDestination ? ` and itself addressed as ${t.seenDestination}` : ''}`);
  return `${lines.join('\n')}\n`;
}

async function check(argv: string[]): Promise<number> {
  const { flags, rest } = parseFlags(argv, CHECK_FLAGS);
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const t = clusterTransport(flags);
  try {
    const node = await agentNode(t);
    const query: Record<string, string> = flags.namespace ? { namespace: String(flags.namespace) } : {};
    const body = await nodeProxyGet(t, node, 'winkube/net/check', query) as { cells: CheckCell[] };
    process.stdout.write(flags.json ? `${JSON.stringify(body.cells, null, 2)}\n` : formatNetCheck(body.cells));
    return body.cells.some((c) => c.result === 'fail') ? 1 : 0;
  } finally {
    t.close();
  }
}

async function trace(argv: string[]): Promise<number> {
  const { flags, rest } = parseFlags(argv, TRACE_FLAGS);
  if (rest.length !== 2) throw new UsageError('want FROM and TO');
  const protocol = String(flags.protocol).toUpperCase();
  if (!['TCP', 'UDP', 'ICMP'].includes(protocol)) throw new UsageError(`invalid --protocol "${flags.protocol}": tcp, udp or icmp`);
  const t = clusterTransport(flags);
  try {
    const node = await agentNode(t);
    const query: Record<string, string> = { from: rest[0], to: rest[1], protocol };
    if (protocol !== 'ICMP') query.port = String(flags.port ?? 80);
    const body = await nodeProxyGet(t, node, 'winkube/net/trace', query) as SerializedTrace;
    process.stdout.write(flags.json ? `${JSON.stringify(body, null, 2)}\n` : formatTrace(body));
    return body.fate === 'delivered' || body.fate === 'egress' ? 0 : 1;
  } finally {
    t.close();
  }
}

async function proxy(argv: string[]): Promise<number> {
  const { flags, rest } = parseFlags(argv, PROXY_FLAGS);
  if (rest.length !== 1) throw new UsageError('want the NODE whose kube-proxy to show');
  const t = clusterTransport(flags);
  try {
    const body = await nodeProxyGet(t, rest[0], 'winkube/kube-proxy', flags.rules ? { rules: 'true' } : {});
    process.stdout.write(String(body));
    return 0;
  } finally {
    t.close();
  }
}

export const netCommand: Command = {
  name: 'net',
  summary: 'check, trace and inspect the cluster network (the seed verification list, flows, kube-proxy)',
  help: () => HELP,
  async run(argv) {
    const [sub, ...rest] = argv;
    switch (sub) {
      case 'check': return check(rest);
      case 'trace': return trace(rest);
      case 'proxy': return proxy(rest);
      default: throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'want a subcommand: check, trace or proxy');
    }
  },
};
