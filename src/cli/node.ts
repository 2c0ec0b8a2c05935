// `winkube node`: emulated nodes joined to any API server through the API alone — with a kubeconfig, or kubeadm
// join's way (a bootstrap token and the CA hash give the agent a node certificate from an approved CSR).

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { createHttpClient } from '../client/http-transport.js';
import { loadProfiles, startComponents } from '../cluster/components.js';
import { nodeCredentials, servingCertificate } from '../node/join/credentials.js';
import { readClusterSettings } from '../node/join/cluster-settings.js';
import { fleetWarnings, formatFleetWarnings } from '../node/fleet-support.js';
import { RealClock } from '../util/clock.js';
import type { LogLevel } from '../util/log.js';
import { addLogLevel, collect, loggerFor, serveUntilSignal } from './component-runtime.js';

interface Opts {
  kubeconfig?: string;
  server?: string;
  token?: string;
  discoveryTokenCaCertHash?: string[];
  discoveryTokenUnsafeSkipCaVerification?: boolean;
  fleet?: string;
  nodeName?: string;
  dataDir: string;
  volumeDir?: string;
  kubeletServer: boolean;
  logLevel: LogLevel;
}

export function nodeCommand(): Command {
  const cmd = new Command('node')
    .summary('run emulated nodes (a fleet) joined to any API server')
    .description([
      'Runs a node agent: the fleet\'s emulated Linux and Windows nodes, registered with the API server and kept there.',
      'It needs nothing but the API: Service CIDRs come from kube-system/kubeadm-config, the API server\'s advertised',
      'address from the `kubernetes` Endpoints, its kubelet serving certificate from a kubelet-serving CSR.',
      ' Credentials, first found wins: --kubeconfig; <data-dir>/kubelet.conf from an earlier join; or kubeadm join\'s',
      'token discovery: --server, --token (from `winkube token create`) and --discovery-token-ca-cert-hash.',
    ].join(' ').replace(/ {2}/g, '\n\n'))
    .option('--kubeconfig <file>', 'kubeconfig of the API server (any cluster, including a real kube-apiserver)')
    .option('--server <url>', 'join: the API server to discover (https://HOST:PORT)')
    .option('--token <token>', 'join: a bootstrap token <id>.<secret>')
    .option('--discovery-token-ca-cert-hash <sha256:hex>', 'join: pin of the cluster CA public key (repeatable)', collect)
    .option('--discovery-token-unsafe-skip-ca-verification', 'join without pinning the CA (unsafe)')
    .option('--fleet <file>', 'the nodes to emulate (YAML or JSON, docs/node-profiles.md); the default fleet when absent')
    .option('--node-name <name>', 'the identity a join asks a certificate for (system:node:<name>); the fleet\'s first node by default')
    .option('--data-dir <dir>', 'where the agent keeps kubelet.conf and its serving certificate', '.winkube-node')
    .option('--volume-dir <dir>', 'where NFS/SMB shares and CSI disks keep their data; agents given one directory share it (default <data-dir>/volumes; `winkube up` uses its <data-dir>/volumes)')
    .option('--no-kubelet-server', 'do not serve logs, exec and port-forward (no serving certificate is requested)');
  addLogLevel(cmd);
  return cmd.action(async (o: Opts) => {
    const join = o.server || o.token;
    if (o.kubeconfig && join) throw new InvalidArgumentError('--kubeconfig and --server/--token exclude each other');
    if (join && !(o.server && o.token)) throw new InvalidArgumentError('joining needs both --server and --token');
    if (o.fleet && !existsSync(o.fleet)) throw new InvalidArgumentError(`fleet file not found: ${o.fleet}`);
    const profiles = loadProfiles(o.fleet);
    if (!profiles.length) throw new InvalidArgumentError('the fleet has no nodes');
    const say = (m: string) => process.stdout.write(`${m}\n`);
    for (const w of formatFleetWarnings(fleetWarnings(profiles))) say(`  ! warning: ${w}`);
    const clock = new RealClock();
    const logger = loggerFor(o.logLevel);
    const dataDir = resolve(o.dataDir);
    const nodeName = o.nodeName ?? profiles[0].name;
    const creds = await nodeCredentials({
      dataDir, nodeName, nodeNames: profiles.map((p) => p.name), clock, logger, kubeconfig: o.kubeconfig,
      join: join ? { server: o.server!, token: o.token!, caCertHashes: o.discoveryTokenCaCertHash ?? [], unsafeSkipCAVerification: o.discoveryTokenUnsafeSkipCaVerification } : undefined,
    });
    const client = createHttpClient(creds.transport);
    // Joined with a token, each kubelet acts as its own node; with --kubeconfig, that kubeconfig's user acts for all.
    const nodeClients = new Map([...(creds.nodes ?? [])].map(([n, t]) => [n, createHttpClient(t)]));
    const settings = await readClusterSettings(client);
    // The node itself asks for its serving certificate (the approver approves a node's own request).
    const serving = o.kubeletServer ? await servingCertificate(nodeClients.get(nodeName) ?? client, { dataDir, nodeName, clock }) : undefined;
    if (serving) say('  ✓ kubelet serving certificate issued (kubernetes.io/kubelet-serving)');
    const running = await startComponents({
      controlPlane: { client: () => client }, nodeClient: nodeClients.size ? (n) => nodeClients.get(n) ?? client : undefined, clock, logger, profiles, run: { controllers: false, scheduler: false, nodes: true },
      kubeletServerTls: serving ? { ...serving, ca: creds.ca } : undefined,
      apiServer: settings.advertised && creds.ca ? { ...settings.advertised, url: creds.transport.server, ca: creds.ca } : undefined,
      serviceCidrs: settings.serviceCidrs, progress: (s) => say(`  ✓ ${s}`),
      volumeDir: o.volumeDir ? resolve(o.volumeDir) : resolve(dataDir, 'volumes'),
    });
    say(`winkube node: ${running.nodeCount} nodes joined to ${creds.transport.server}`);
    await serveUntilSignal('node', () => running.stop());
  });
}
