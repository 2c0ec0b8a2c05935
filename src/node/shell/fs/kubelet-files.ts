// Files the kubelet puts into Linux containers: the managed /etc/hosts (pkg/kubelet/kubelet_pods.go
// managedHostsFileContent), /etc/resolv.conf from the pod's DNS config, and /etc/hostname; bind-mounted, so they
// sit over what the image has.

import type { VirtualFs } from './vfs.js';

export interface HostsFileOptions {
  podIPs: string[];
  hostname: string;
  /** `<hostname>.<subdomain>.<namespace>.svc.<domain>` when the pod sets a subdomain. */
  fqdn?: string;
  hostAliases?: { ip: string; hostnames: string[] }[];
  /** hostNetwork pods get the node's file with this header instead. */
  hostNetwork?: boolean;
}

export function kubeletHostsFile(o: HostsFileOptions): string {
  const lines = [
    o.hostNetwork ? '# Kubernetes-managed hosts file (host network).' : '# Kubernetes-managed hosts file.',
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix',
    'fe00::1\tip6-allnodes',
    'fe00::2\tip6-allrouters',
  ];
  if (!o.hostNetwork) for (const ip of o.podIPs) lines.push(o.fqdn ? `${ip}\t${o.fqdn}\t${o.hostname}` : `${ip}\t${o.hostname}`);
  if (o.hostAliases?.length) {
    lines.push('', '# Entries added by HostAliases.');
    for (const a of o.hostAliases) lines.push(`${a.ip}\t${a.hostnames.join('\t')}`);
  }
  return `${lines.join('\n')}\n`;
}

export function resolvConf(dns: { nameservers: string[]; search: string[]; options?: string[]; ndots?: number }): string {
  const lines: string[] = [];
  if (dns.search.length) lines.push(`search ${dns.search.join(' ')}`);
  for (const n of dns.nameservers) lines.push(`nameserver ${n}`);
  const opts = dns.options ?? (dns.ndots !== undefined ? [`ndots:${dns.ndots}`] : []);
  if (opts.length) lines.push(`options ${opts.join(' ')}`);
  return `${lines.join('\n')}\n`;
}

/** Bind-mounts the kubelet's files into a Linux container (Windows containers get DNS from HNS, not files). */
export function mountKubeletFiles(fs: VirtualFs, files: { hosts: string; resolvConf: string; hostname: string }): void {
  if (fs.os !== 'linux') return;
  fs.mountFile('/etc/hosts', files.hosts, { source: 'kubelet' });
  fs.mountFile('/etc/resolv.conf', files.resolvConf, { source: 'kubelet' });
  fs.mountFile('/etc/hostname', `${files.hostname}\n`, { source: 'kubelet' });
}
