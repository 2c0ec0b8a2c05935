// `winkube hns NODE`: a Windows node's Host Networking Service objects, printed the way Get-HnsNetwork,
// Get-HnsEndpoint, Get-HnsPolicyList and hnsdiag print them on the node.

import { agentNode, CLUSTER_FLAGS, clusterTransport, nodeProxyGet } from './cluster-access.js';
import { flagHelp, parseFlags, UsageError, type FlagSpec } from './flags.js';
import type { Command } from './main.js';

const VIEWS = ['all', 'networks', 'endpoints', 'policies', 'hnsdiag', 'json'];
const FLAGS: FlagSpec[] = [
  ...CLUSTER_FLAGS,
  { name: 'view', type: 'string', help: `${VIEWS.join(' | ')}: networks = Get-HnsNetwork, endpoints = Get-HnsEndpoint, policies = Get-HnsPolicyList (kube-proxy's load balancers), hnsdiag = hnsdiag list all`, default: 'all', placeholder: 'VIEW' },
];

export const hnsCommand: Command = {
  name: 'hns',
  summary: "show a Windows node's HNS networks, endpoints and load balancers",
  help: () => ['Usage: winkube hns NODE [flags]', '', 'NODE is a Windows node of the cluster.', '', 'Flags:', flagHelp(FLAGS)].join('\n'),
  async run(argv) {
    const { flags, rest } = parseFlags(argv, FLAGS);
    if (rest.length > 1) throw new UsageError(`unexpected argument "${rest[1]}"`);
    const view = String(flags.view);
    if (!VIEWS.includes(view)) throw new UsageError(`invalid --view "${view}": ${VIEWS.join(', ')}`);
    const t = clusterTransport(flags);
    try {
      if (!rest[0]) throw new UsageError(`want a NODE, e.g. ${await agentNode(t).catch(() => 'winkube-win2019-1')}`);
      process.stdout.write(String(await nodeProxyGet(t, rest[0], 'winkube/hns', { view })));
      return 0;
    } finally {
      t.close();
    }
  },
};
