// The GMSA identity a Windows container gets: the credential spec (container-level over pod-level, as the kubelet
// passes WindowsContainerSecurityContext.CredentialSpec; windows-facts §6.7), read for the domain it joins.

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import type { GatedProfile } from '../../feature-gates.js';
import { honoursGmsa } from './versions.js';

export interface GmsaDomain {
  /** DomainJoinConfig.DnsName, what `nltest /PARENTDOMAIN` names. */
  domain: string;
  netbiosName?: string;
}

/**
 * The credential spec the runtime gets; none when the node's kubelet predates GMSA (before v1.14, or v1.14–1.15
 * without WindowsGMSA: versions.ts honoursGmsa), since that kubelet never passes the field on.
 */
export function credentialSpecOf(pod: Pod, c: Container, node?: GatedProfile & { os: 'linux' | 'windows' }): string | undefined {
  if (node && !honoursGmsa(node)) return undefined;
  return c.securityContext?.windowsOptions?.gmsaCredentialSpec ?? pod.spec?.securityContext?.windowsOptions?.gmsaCredentialSpec ?? undefined;
}

/** The domain of a credential spec (windows-gmsa's GMSACredentialSpec `credspec` JSON); undefined without one. */
export function gmsaDomain(spec: string | undefined): GmsaDomain | undefined {
  if (!spec) return undefined;
  try {
    const cfg = (JSON.parse(spec) as { DomainJoinConfig?: { DnsName?: string; NetBiosName?: string } }).DomainJoinConfig;
    return cfg?.DnsName ? { domain: cfg.DnsName, netbiosName: cfg.NetBiosName } : undefined;
  } catch {
    return undefined;
  }
}
