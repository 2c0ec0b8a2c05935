// Reads a kubeconfig file into what an HTTP client needs for one context: server URL, trust, client identity.
// Semantics follow client-go tools/clientcmd (loader.go, client_config.go, validation.go) for the fields we support.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';

/** Connection settings for one context, with every file and base64 field already read. */
export interface KubeconfigTarget {
  contextName: string;
  clusterName: string;
  userName: string;
  /** The context's namespace, if it names one. */
  namespace?: string;
  /** Absolute server URL with a scheme (client-go rest/url_utils.go DefaultServerURL). */
  server: string;
  /** PEM of the CA bundle that signs the server certificate. */
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  username?: string;
  password?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
}

/** A kubeconfig that cannot be used; the message is client-go's wording. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

interface RawCluster {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
}

interface RawUser {
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  token?: string;
  tokenFile?: string;
  username?: string;
  password?: string;
  exec?: unknown;
  'auth-provider'?: unknown;
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

function validateCluster(name: string, c: RawCluster, baseDir: string): string[] {
  // validation.go validateClusterInfo.
  if (Object.keys(c).length === 0) return ['cluster has no server defined'];
  const errs: string[] = [];
  if (!c.server) errs.push(name ? `no server found for cluster "${name}"` : 'default cluster has no server defined');
  if (c['certificate-authority'] && c['certificate-authority-data']) {
    errs.push(`certificate-authority-data and certificate-authority are both specified for ${name}. certificate-authority-data will override.`);
  }
  if (c['certificate-authority']) errs.push(...canRead(at(baseDir, c['certificate-authority']), `unable to read certificate-authority %s for ${name} due to %e`));
  return errs;
}

function validateUser(name: string, u: RawUser, baseDir: string): string[] {
  // validation.go validateAuthInfo.
  const errs: string[] = [];
  const methods: string[] = [];
  if (u.token) methods.push('token');
  if (u.username || u.password) methods.push('basicAuth');
  if (u['client-certificate'] || u['client-certificate-data']) {
    if (u['client-certificate'] && u['client-certificate-data']) {
      errs.push(`client-cert-data and client-cert are both specified for ${name}. client-cert-data will override.`);
    }
    if (u['client-key'] && u['client-key-data']) errs.push(`client-key-data and client-key are both specified for ${name}; client-key-data will override`);
    if (!u['client-key'] && !u['client-key-data']) {
      errs.push(`client-key-data or client-key must be specified for ${name} to use the clientCert authentication method.`);
    }
    if (u['client-certificate']) errs.push(...canRead(at(baseDir, u['client-certificate']), `unable to read client-cert %s for ${name} due to %e`));
    if (u['client-key']) errs.push(...canRead(at(baseDir, u['client-key']), `unable to read client-key %s for ${name} due to %e`));
  }
  if (methods.length > 1) errs.push(`more than one authentication method found for ${name}; found [${methods.join(' ')}], only one is allowed`);
  return errs;
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

function invalid(errs: string[]): KubeconfigError {
  // validation.go errConfigurationInvalid + utilerrors.NewAggregate: one error bare, several in brackets.
  return new KubeconfigError(`invalid configuration: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
}

function canRead(path: string, template: string): string[] {
  try {
    readFileSync(path);
    return [];
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? `open ${path}: no such file or directory` : `open ${path}: ${e.message}`;
    return [template.replace('%s', path).replace('%e', why)];
  }
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

const at = (baseDir: string, p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
