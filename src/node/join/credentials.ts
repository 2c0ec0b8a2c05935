// A node agent's credentials, obtained through the API alone as kubeadm join + kubelet TLS bootstrap do it: a given
// kubeconfig; or the one an earlier join wrote (kubelet.conf); or token discovery, then a client certificate for
// system:node:<name> from an approved CSR. Its kubelet serving certificate comes from a kubelet-serving CSR.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHttpClient, optionsFromKubeconfig, type HttpTransportOptions } from '../../client/http-transport.js';
import { loadKubeconfig } from '../../client/kubeconfig.js';
import type { Client } from '../../client/interfaces.js';
import { writeKubeconfig } from '../../cluster/kubeconfig.js';
import { AGENT_CN_PREFIX, NODE_AGENTS_ORG } from '../../bootstrap/node-agent-identity.js';
import { parseToken } from '../../bootstrap/token.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { discoverCluster } from './discovery.js';
import { requestCertificate } from './request-certificate.js';

export interface JoinOptions {
  server: string;
  token: string;
  caCertHashes: string[];
  unsafeSkipCAVerification?: boolean;
}

export interface NodeCredentialsOptions {
  /** Where the agent keeps kubelet.conf and its serving certificate between runs. */
  dataDir: string;
  /** The identity the agent's client certificate names (system:node:<nodeName>). */
  nodeName: string;
  /**
   * Every node the agent hosts. A join then gets each its own system:node:<name> certificate (each kubelet's TLS
   * bootstrap) and the agent one for its shared informers (AGENT_CN_PREFIX<nodeName> in NODE_AGENTS_ORG).
   */
  nodeNames?: string[];
  clock: Clock;
  logger: Logger;
  kubeconfig?: string;
  join?: JoinOptions;
}

export interface NodeCredentials {
  transport: HttpTransportOptions;
  /** Each node's own credentials, when the agent joined with a token (absent with --kubeconfig: it serves them all). */
  nodes?: Map<string, HttpTransportOptions>;
  /** The cluster CA (what kubelets trust as --client-ca-file; the API server's certificate chains to it). */
  ca?: string;
}

const NODE_CLIENT_USAGES = ['digital signature', 'client auth'];

/** `<dataDir>/nodes/<name>.conf` for every node that has one. */
function loadNodeConfs(dataDir: string, names: string[]): Map<string, HttpTransportOptions> | undefined {
  const out = new Map<string, HttpTransportOptions>();
  for (const n of names) {
    const f = join(dataDir, 'nodes', `${n}.conf`);
    if (existsSync(f)) out.set(n, optionsFromKubeconfig(loadKubeconfig(f)));
  }
  return out.size ? out : undefined;
}

export async function nodeCredentials(o: NodeCredentialsOptions): Promise<NodeCredentials> {
  if (o.kubeconfig) {
    const t = optionsFromKubeconfig(loadKubeconfig(o.kubeconfig));
    return { transport: t, ca: t.ca };
  }
  const kubeletConf = join(o.dataDir, 'kubelet.conf');
  if (existsSync(kubeletConf)) {
    const t = optionsFromKubeconfig(loadKubeconfig(kubeletConf));
    return { transport: t, ca: t.ca, nodes: loadNodeConfs(o.dataDir, o.nodeNames ?? []) };
  }
  if (!o.join) throw new Error('no credentials: pass --kubeconfig, or --server with --token and --discovery-token-ca-cert-hash');
  const token = parseToken(o.join.token);
  const cluster = await discoverCluster({ server: o.join.server, token, caCertHashes: o.join.caCertHashes, unsafeSkipCAVerification: o.join.unsafeSkipCAVerification, clock: o.clock });
  o.logger.info('cluster-info verified', { server: o.join.server });
  // The bootstrap credential: the token as a bearer token, trusted only for asking for the real one.
  const bootstrap = createHttpClient({ server: o.join.server, ca: cluster.ca, token: `${token.id}.${token.secret}` });
  const stamp = Date.now().toString(36);
  const ask = (name: string, signerName: string, cn: string, orgs: string[]) => requestCertificate({ client: bootstrap, clock: o.clock, name, signerName, usages: NODE_CLIENT_USAGES, subject: { cn, orgs } });
  mkdirSync(join(o.dataDir, 'nodes'), { recursive: true, mode: 0o700 });
  const save = (file: string, pair: { cert: string; key: string }) => writeKubeconfig(file, o.join!.server, { ca: { cert: cluster.ca, key: '' }, admin: pair });
  // One certificate per kubelet, as each kubelet's TLS bootstrap asks for its own (a few at a time).
  const names = o.nodeNames?.length ? o.nodeNames : [o.nodeName];
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(8, names.length) }, async () => {
    while (next < names.length) {
      const n = names[next++];
      const csr = `node-csr-${n}-${stamp}`;
      save(join(o.dataDir, 'nodes', `${n}.conf`), await ask(csr, 'kubernetes.io/kube-apiserver-client-kubelet', `system:node:${n}`, ['system:nodes']));
      o.logger.info('node client certificate issued', { user: `system:node:${n}`, csr });
    }
  }));
  const agent = await ask(`csr-node-agent-${o.nodeName}-${stamp}`, 'kubernetes.io/kube-apiserver-client', `${AGENT_CN_PREFIX}${o.nodeName}`, [NODE_AGENTS_ORG]);
  save(kubeletConf, agent);
  o.logger.info('node agent client certificate issued', { user: `${AGENT_CN_PREFIX}${o.nodeName}` });
  return { transport: { server: o.join.server, ca: cluster.ca, cert: agent.cert, key: agent.key }, ca: cluster.ca, nodes: loadNodeConfs(o.dataDir, names) };
}

/** The kubelet server's certificate (serverTLSBootstrap): loopback names, signed by kubernetes.io/kubelet-serving. */
export async function servingCertificate(client: Client, o: Pick<NodeCredentialsOptions, 'dataDir' | 'nodeName' | 'clock'>): Promise<{ cert: string; key: string }> {
  const dir = join(o.dataDir, 'pki');
  const certPath = join(dir, 'kubelet-server.crt');
  const keyPath = join(dir, 'kubelet-server.key');
  if (existsSync(certPath) && existsSync(keyPath)) return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
  const pair = await requestCertificate({
    client, clock: o.clock, name: `csr-kubelet-serving-${o.nodeName}-${Date.now().toString(36)}`, signerName: 'kubernetes.io/kubelet-serving',
    usages: ['digital signature', 'server auth'],
    subject: { cn: `system:node:${o.nodeName}`, orgs: ['system:nodes'], dns: ['localhost'], ips: ['127.0.0.1', '::1'] },
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, pair.key, { mode: 0o600 });
  writeFileSync(certPath, pair.cert);
  return pair;
}
