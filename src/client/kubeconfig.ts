// Reads a kubeconfig file into what an HTTP client needs for one context: server URL, trust, client identity.
// Semantics follow client-go tools/clientcmd (loader.go, client_config.go, validation.go) for the fields we support.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { at, invalid, KubeconfigError, validateCluster, validateUser, type RawCluster, type RawUser } from './kubeconfig-validation.js';

export { KubeconfigError } from './kubeconfig-validation.js';

/** Connection settings for one context, with every file and base64 field already read. */
/** Where a server is and how to authenticate to it: what a kubeconfig context resolves to, and what HTTP needs. */
export interface ServerCredentials {
  /** Absolute server URL with a scheme (client-go rest/url_utils.go DefaultServerURL). */
  server: string;
  /** PEM of the CA bundle that signs the server certificate; without it Node's default roots apply. */
  ca?: string;
  /** PEM client certificate and key (x509 authentication). */
  cert?: string;
  key?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  username?: string;
  password?: string;
  insecureSkipTlsVerify?: boolean;
  /** SNI and certificate name to expect instead of the URL's host (kubeconfig tls-server-name). */
  tlsServerName?: string;
}

export interface KubeconfigTarget extends ServerCredentials {
  contextName: string;
  clusterName: string;
  userName: string;
  /** The context's namespace, if it names one. */
  namespace?: string;
  insecureSkipTlsVerify: boolean;
}

interface RawContext {
  cluster?: string;
  user?: string;
  namespace?: string;
}

interface RawConfig {
  clusters?: { name?: string; cluster?: RawCluster }[];
  users?: { name?: string; user?: RawUser }[];
  contexts?: { name?: string; context?: RawContext }[];
  'current-context'?: string;
}

export interface LoadOptions {
  /** Use this context instead of current-context (kubectl --context). */
  context?: string;
}

/** Reads and resolves a kubeconfig file; relative paths inside it are relative to its folder (clientcmd ResolvePaths). */
export function loadKubeconfig(path: string, opts: LoadOptions = {}): KubeconfigTarget {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new KubeconfigError(`stat ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : String(err)}`);
  }
  return parseKubeconfig(text, { ...opts, baseDir: dirname(resolve(path)) });
}

/** Resolves one context of a kubeconfig document. */
export function parseKubeconfig(text: string, opts: LoadOptions & { baseDir?: string } = {}): KubeconfigTarget {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new KubeconfigError(`error loading config: ${(err as Error).message}`);
  }
  const cfg = (doc && typeof doc === 'object' ? doc : {}) as RawConfig;
  const baseDir = opts.baseDir ?? process.cwd();
  const clusters = byName<RawCluster>(cfg.clusters, 'cluster');
  const users = byName<RawUser>(cfg.users, 'user');
  const contexts = byName<RawContext>(cfg.contexts, 'context');

  // clientcmd validation.go ConfirmUsable.
  if (clusters.size === 0 && users.size === 0 && contexts.size === 0) {
    throw new KubeconfigError('invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable');
  }
  const contextName = opts.context || cfg['current-context'] || '';
  if (!contextName) throw new KubeconfigError('no context chosen');
  const context = contexts.get(contextName);
  if (!context) throw invalid([`context was not found for specified context: ${contextName}`]);

  const errs: string[] = [];
  const clusterName = context.cluster ?? '';
  const userName = context.user ?? '';
  if (!userName) errs.push(`user was not specified for context "${contextName}"`);
  else if (!users.has(userName)) errs.push(`user "${userName}" was not found for context "${contextName}"`);
  if (!clusterName) errs.push(`cluster was not specified for context "${contextName}"`);
  else if (!clusters.has(clusterName)) errs.push(`cluster "${clusterName}" was not found for context "${contextName}"`);
  const cluster = clusters.get(clusterName) ?? {};
  const user = users.get(userName) ?? {};
  errs.push(...validateUser(userName, user, baseDir), ...validateCluster(clusterName, cluster, baseDir));
  if (errs.length) throw invalid(errs);

  const target: KubeconfigTarget = {
    contextName, clusterName, userName,
    namespace: context.namespace || undefined,
    server: '',
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: cluster['tls-server-name'] || undefined,
  };
  // The -data fields win over the file fields (the validation messages above say so).
  target.ca = cluster['certificate-authority-data'] ? b64(cluster['certificate-authority-data'])
    : cluster['certificate-authority'] ? readFileSync(at(baseDir, cluster['certificate-authority']), 'utf8') : undefined;
  target.cert = user['client-certificate-data'] ? b64(user['client-certificate-data'])
    : user['client-certificate'] ? readFileSync(at(baseDir, user['client-certificate']), 'utf8') : undefined;
  target.key = user['client-key-data'] ? b64(user['client-key-data'])
    : user['client-key'] ? readFileSync(at(baseDir, user['client-key']), 'utf8') : undefined;
  // client_config.go getUserIdentificationPartialConfig: an inline token wins over tokenFile; the file is trimmed
  // (transport/token_source.go fileTokenSource).
  if (user.token) target.token = user.token;
  else if (user.tokenFile) target.token = readFileSync(at(baseDir, user.tokenFile), 'utf8').trim();
  if (user.username || user.password) {
    target.username = user.username ?? '';
    target.password = user.password ?? '';
  }
  if (user.exec || user['auth-provider']) {
    throw new KubeconfigError(`user "${userName}": exec and auth-provider credentials are not supported by winkube's client`);
  }
  // transport/transport.go TLSConfigFor.
  if (target.insecureSkipTlsVerify && target.ca) {
    throw new KubeconfigError('specifying a root certificates file with the insecure flag is not allowed');
  }
  target.server = defaultServerUrl(cluster.server!, !!(target.ca || target.cert || target.insecureSkipTlsVerify));
  return target;
}

/** client-go rest/url_utils.go DefaultServerURL: a bare host gets https when TLS is configured, else http. */
export function defaultServerUrl(server: string, tls: boolean): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `${tls ? 'https' : 'http'}://${server}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new KubeconfigError(`host must be a URL or a host:port pair: "${server}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new KubeconfigError(`host must be a URL or a host:port pair: "${server}"`);
  return url.toString().replace(/\/$/, '');
}

/** kubeconfig's named lists (`- name: x\n  cluster: {...}`) as maps; clientcmd api/v1/conversion.go refuses duplicates. */
function byName<T>(list: unknown, key: string): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of Array.isArray(list) ? (list as Record<string, unknown>[]) : []) {
    if (!item || typeof item.name !== 'string' || !item.name) continue;
    if (out.has(item.name)) throw new KubeconfigError(`error loading config: duplicate name "${item.name}" in ${key}s`);
    out.set(item.name, (item[key] ?? {}) as T);
  }
  return out;
}

const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
