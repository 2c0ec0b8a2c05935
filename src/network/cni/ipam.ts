// The IPAM step of a plugin (pkg/ipam ExecAdd/ExecDel): host-local over the node's allocators, with host-local's own
// config checks and error texts (plugins/ipam/host-local/backend/allocator/config.go, main.go).

import { formatCidr, parseIPNet } from '../ipam/cidr.js';
import { IpamExhaustedError } from '../ipam/host-local.js';
import { CniError, type CniContext } from './interfaces.js';
import { field, isObj } from './netconf.js';

export interface IpamResult {
  ip: string;
  prefixLength: number;
  /** The network the address is in, `a.b.c.0/n`. */
  subnet: string;
}

/** The IPAM plugins a node has besides host-local, and the CNI plugin each belongs to (seed 002 "IPAM"). */
const IPAM_OF_PLUGIN: Record<string, string> = { 'azure-vnet-ipam': 'azure-vnet', 'calico-ipam': 'calico' };

/** The subnet a host-local config names: `subnet` (old form) or the first range of `ranges`. */
function hostLocalSubnet(ipam: Record<string, unknown>): string | CniError {
  const ranges = field(ipam, 'ranges');
  let subnet = field(ipam, 'subnet');
  if (Array.isArray(ranges) && Array.isArray(ranges[0]) && isObj(ranges[0][0])) subnet = field(ranges[0][0], 'subnet');
  if (typeof subnet !== 'string' || !subnet) return new CniError('no IP ranges specified');
  try {
    return formatCidr(parseIPNet(subnet).network);
  } catch {
    return new CniError(`invalid range set 0: invalid CIDR address: ${subnet}`);
  }
}

/** Runs the config's IPAM plugin for ADD. `plugin` is the calling plugin's type (azure-vnet-ipam needs azure-vnet). */
export function ipamAdd(ctx: CniContext, ipam: Record<string, unknown>, plugin: string, binDir: string): IpamResult | CniError {
  const type = String(field(ipam, 'type') ?? '');
  const owner = IPAM_OF_PLUGIN[type];
  if (type !== 'host-local' && (!owner || owner !== plugin)) return new CniError(`failed to find plugin "${type}" in path [${binDir}]`);
  const subnet = type === 'host-local' ? hostLocalSubnet(ipam) : ctx.ipam.allocator('').cidr;
  if (subnet instanceof CniError) return subnet;
  const a = ctx.ipam.allocator(subnet);
  try {
    return { ip: a.allocate(ctx.owner), prefixLength: a.prefixLength, subnet: a.cidr };
  } catch (err) {
    if (err instanceof IpamExhaustedError) return new CniError(err.message);
    throw err;
  }
}

/** IPAM DEL: releases the owner's address (a missing one is fine). */
export function ipamDel(ctx: CniContext, ipam: Record<string, unknown>): void {
  const type = String(field(ipam, 'type') ?? '');
  if (!type) return;
  const subnet = type === 'host-local' ? hostLocalSubnet(ipam) : ctx.ipam.allocator('').cidr;
  if (subnet instanceof CniError) return;
  ctx.ipam.allocator(subnet).release(ctx.owner);
}
