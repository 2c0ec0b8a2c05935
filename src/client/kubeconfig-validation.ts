// client-go's kubeconfig validation (tools/clientcmd/validation.go) for the fields winkube's client supports, with
// its messages word for word: kubectl users recognise them.

import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** A kubeconfig that cannot be used; the message is client-go's wording. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** A kubeconfig cluster entry, as written in the file. */
export interface RawCluster {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
}

/** A kubeconfig user entry, as written in the file. */
export interface RawUser {
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

export function validateCluster(name: string, c: RawCluster, baseDir: string): string[] {
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

export function validateUser(name: string, u: RawUser, baseDir: string): string[] {
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

export function invalid(errs: string[]): KubeconfigError {
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

export const at = (baseDir: string, p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
