// A pod's resolver configuration as the kubelet writes it (pkg/kubelet/network/dns/dns.go GetPodDNS): dnsPolicy,
// dnsConfig merging, and the Windows resolver's single suffix (windows-networking docs: Windows pods resolve with one
// DNS suffix, `<namespace>.svc.cluster.local`).

import type { Pod } from 'kubernetes-types/core/v1.js';

export interface PodDns {
  nameservers: string[];
  search: string[];
  ndots?: number;
}

export interface DnsSettings {
  /** kube-dns's ClusterIP (kubelet --cluster-dns). */
  clusterDNS: string;
  clusterDomain: string;
  /** The node's own resolver (what dnsPolicy Default copies). */
  hostNameservers: string[];
}

/** kubelet's limits on the merged config (validation.MaxDNSSearchPaths / MaxDNSNameservers). */
const MAX_SEARCH = 32;
const MAX_NAMESERVERS = 3;

export function podDns(pod: Pod, os: 'linux' | 'windows', s: DnsSettings): PodDns {
  let policy = pod.spec?.dnsPolicy ?? 'ClusterFirst';
  // ClusterFirst with host networking falls back to the node's resolver unless the pod asks for ClusterFirstWithHostNet.
  if (policy === 'ClusterFirst' && pod.spec?.hostNetwork) policy = 'Default';
  const ns = pod.metadata?.namespace ?? 'default';
  let out: PodDns;
  if (policy === 'None') out = { nameservers: [], search: [] };
  else if (policy === 'Default') out = { nameservers: [...s.hostNameservers], search: [] };
  else {
    const search = os === 'windows'
      ? [`${ns}.svc.${s.clusterDomain}`]
      : [`${ns}.svc.${s.clusterDomain}`, `svc.${s.clusterDomain}`, s.clusterDomain];
    out = { nameservers: [s.clusterDNS], search, ndots: os === 'windows' ? undefined : 5 };
  }
  const cfg = pod.spec?.dnsConfig;
  if (cfg) {
    out.nameservers = [...new Set([...out.nameservers, ...(cfg.nameservers ?? [])])].slice(0, MAX_NAMESERVERS);
    out.search = [...new Set([...out.search, ...(cfg.searches ?? [])])].slice(0, MAX_SEARCH);
    const ndots = cfg.options?.find((o) => o.name === 'ndots')?.value;
    if (ndots !== undefined && /^\d+$/.test(ndots)) out.ndots = Number(ndots);
  }
  return out;
}
