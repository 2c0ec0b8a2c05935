// The service CIDR list (`--service-cluster-ip-range=PRIMARY[,SECONDARY]`): parsed and checked with kube-apiserver's
// messages (cmd/kube-apiserver/app/options/validation.go validateClusterIPFlags, options.go getServiceIPAndRanges,
// pkg/controlplane/apiserver/options ServiceIPRange).

import { aggregateMessage } from '../../api/errors.js';
import { formatIp, parseIpCidr, type IpCidr } from './ip-range.js';

/** maxCIDRBits: the bitmap allocator keeps at most 2^20 addresses' worth of range (/12 for IPv4, /108 for IPv6). */
export const MAX_SERVICE_CIDR_HOST_BITS = 20;

/** Thrown for a service CIDR list kube-apiserver would refuse at start-up; the message is kube's. */
export class ServiceCidrError extends Error {}

/**
 * The configured ranges, primary first: a comma-separated string or a list, one or two CIDRs of different families.
 * The primary range's family is the cluster's default IP family; a second range makes the cluster dual-stack.
 */
export function parseServiceCidrs(input: string | readonly string[]): IpCidr[] {
  const list = typeof input === 'string' ? (input === '' ? [] : input.split(',')) : [...input];
  if (list.length === 0) throw new ServiceCidrError('--service-cluster-ip-range must contain at least one valid cidr');
  // getServiceIPAndRanges (options Complete) fails first, on the first two entries only.
  const parsed: IpCidr[] = [];
  for (const [i, text] of list.slice(0, 2).entries()) {
    try {
      parsed.push(parseIpCidr(text));
    } catch {
      throw new ServiceCidrError(`service-cluster-ip-range[${i}] is not a valid cidr`);
    }
  }
  const primary = parsed[0];
  // ServiceIPRange: min(RangeSize, 2^16) must be at least 8 (a /31 or /32 counts as 0).
  const hostBits = primary.bits - primary.prefix;
  const usable = hostBits < 2 ? 0n : primary.size < 65536n ? primary.size : 65536n;
  if (usable < 8n) {
    throw new ServiceCidrError('error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses');
  }
  const errs: string[] = [];
  if (list.length > 2) errs.push('--service-cluster-ip-range must not contain more than two entries');
  const tooLarge = (c: IpCidr, flag: string) => {
    if (c.bits - c.prefix > MAX_SERVICE_CIDR_HOST_BITS) {
      errs.push(`specified ${flag} is too large; for ${c.bits}-bit addresses, the mask must be >= ${c.bits - MAX_SERVICE_CIDR_HOST_BITS}`);
    }
  };
  tooLarge(primary, '--service-cluster-ip-range');
  const secondary = parsed[1];
  if (secondary) {
    if (secondary.family === primary.family) errs.push('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
    tooLarge(secondary, '--service-cluster-ip-range[1]');
  }
  if (errs.length) throw new ServiceCidrError(aggregateMessage(errs));
  return parsed;
}

/**
 * The n-th address of a service CIDR (utils/net GetIndexedIP): 1 is the `kubernetes` Service's ClusterIP, 10 is
 * kube-dns's (kubeadm GetDNSIP).
 */
export function serviceCidrHost(cidr: IpCidr, n: number): string {
  return formatIp(cidr.family, cidr.base + BigInt(n));
}
