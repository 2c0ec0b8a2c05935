// securityContext.windowsOptions on the pod and on each container: GMSA credential spec name and contents,
// runAsUserName (kubernetes pkg/apis/core/validation/validation.go validateWindowsSecurityContextOptions).

import type { WindowsSecurityContextOptions } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../../errors.js';
import { isDNS1123Subdomain } from '../names.js';
import { goString } from './go-quote.js';

export const MAX_GMSA_CREDENTIAL_SPEC_KIB = 64;
export const MAX_GMSA_CREDENTIAL_SPEC_LENGTH = MAX_GMSA_CREDENTIAL_SPEC_KIB * 1024;
export const MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH = 256;
export const MAX_RUN_AS_USER_NAME_USER_LENGTH = 104;

// Go regexes, transcribed. Go's [[:cntrl:]] is ASCII only; the `u` flag makes classes count code points, as
// Go's count runes.
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;
/** A NetBIOS domain: 1 to 15 characters, not starting with a dot, none of \ / : * ? " < > | */
const NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
const DNS_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const DNS_DOMAIN = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);
const INVALID_USER_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const ONLY_DOTS_OR_SPACES = /^[. ]+$/;

/** Go's len(): UTF-8 bytes, not UTF-16 units. */
const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * The rules for a `DOMAIN\user` or `user` name. The first three are exclusive (kube's if / else-if chain);
 * after the split every domain and user rule that applies is reported.
 */
export function runAsUserNameProblems(name: string): string[] {
  if (name.length === 0) return ['runAsUserName cannot be an empty string'];
  if (CONTROL_CHARS.test(name)) return ['runAsUserName cannot contain control characters'];
  const parts = name.split('\\');
  if (parts.length > 2) return ['runAsUserName cannot contain more than one backslash'];
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? parts[0] : '';
  const user = hasDomain ? parts[1] : parts[0];
  const out: string[] = [];
  if (byteLength(domain) >= MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH) {
    out.push(`runAsUserName's Domain length must be under ${MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH} characters`);
  }
  // `NT AUTHORITY` passes as a NetBIOS name (spaces are allowed), so NT AUTHORITY\SYSTEM is valid.
  if (hasDomain && !(NETBIOS_DOMAIN.test(domain) || DNS_DOMAIN.test(domain))) {
    out.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  }
  const userLength = byteLength(user);
  if (userLength === 0) out.push("runAsUserName's User cannot be empty");
  else if (userLength > MAX_RUN_AS_USER_NAME_USER_LENGTH) {
    out.push(`runAsUserName's User length must not be longer than ${MAX_RUN_AS_USER_NAME_USER_LENGTH} characters`);
  }
  if (ONLY_DOTS_OR_SPACES.test(user)) out.push("runAsUserName's User cannot contain only periods or spaces");
  if (INVALID_USER_CHARS.test(user)) out.push(`runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`);
  return out;
}

/** validateWindowsSecurityContextOptions; `path` ends in `.windowsOptions`. hostProcess is checked pod-wide. */
export function validateWindowsOptions(opts: WindowsSecurityContextOptions | undefined | null, path: string): FieldError[] {
  if (!opts) return [];
  const errs: FieldError[] = [];
  const specName = opts.gmsaCredentialSpecName;
  if (specName !== undefined && specName !== null) {
    // It names a GMSACredentialSpec custom resource (seed 000 "GMSA").
    for (const m of isDNS1123Subdomain(specName)) errs.push(fieldErr.invalid(`${path}.gmsaCredentialSpecName`, goString(specName), m));
  }
  const spec = opts.gmsaCredentialSpec;
  if (spec !== undefined && spec !== null) {
    const len = byteLength(spec);
    if (len === 0) errs.push(fieldErr.invalid(`${path}.gmsaCredentialSpec`, goString(spec), 'gmsaCredentialSpec cannot be an empty string'));
    else if (len > MAX_GMSA_CREDENTIAL_SPEC_LENGTH) {
      errs.push(fieldErr.invalid(`${path}.gmsaCredentialSpec`, goString(spec),
        `gmsaCredentialSpec size must be under ${MAX_GMSA_CREDENTIAL_SPEC_KIB} KiB`));
    }
  }
  const user = opts.runAsUserName;
  if (user !== undefined && user !== null) {
    for (const m of runAsUserNameProblems(user)) errs.push(fieldErr.invalid(`${path}.runAsUserName`, goString(user), m));
  }
  return errs;
}
