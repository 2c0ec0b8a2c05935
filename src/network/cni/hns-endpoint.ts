// The endpoint half shared by the Windows plugins (containernetworking/plugins pkg/hns/endpoint_windows.go):
// find-or-create the `<sandbox>_<network>` endpoint, attach it, build the CNI result from it; and removal on DEL.

import { createHash } from 'node:crypto';
import type { HnsEndpoint, HnsNetwork } from '../hns/types.js';
import { parseIPNet } from '../ipam/cidr.js';
import { CniError, type CniContext, type CniResult } from './interfaces.js';
import { applyLoopbackDsr, effectiveDns, endpointName, type HnsNetConf } from './netconf.js';

/** HNS's own MAC pool for endpoints without a MAC: Hyper-V's 00-15-5D prefix. */
export function hnsPoolMac(seed: string): string {
  const h = createHash('sha256').update(seed).digest();
  return ['00', '15', '5D', ...[...h.subarray(0, 3)].map((b) => b.toString(16).padStart(2, '0').toUpperCase())].join('-');
}

/** The words hcsshim uses per API version: v1 HNSEndpoint, v2 HostComputeEndpoint. */
export const endpointNoun = (api: 1 | 2) => (api === 2 ? 'HostComputeEndpoint' : 'HNSEndpoint');

export interface EndpointSpec {
  ip: string;
  gateway: string;
  mac: string;
}

/**
 * AddHnsEndpoint / AddHcnEndpoint: an endpoint of that name on this network is reused (a retried ADD); one on
 * another network is "corrupted" and replaced; otherwise `make` builds the new one's addresses (IPAM runs there).
 */
export function addEndpoint(ctx: CniContext, n: HnsNetConf, network: HnsNetwork, make: () => EndpointSpec | CniError, owner?: string): HnsEndpoint | CniError {
  const hns = ctx.hns!;
  const name = endpointName(ctx.containerID, n.name);
  const existing = hns.endpointByName(name);
  if (existing && existing.networkId === network.id) return existing;
  if (existing) hns.deleteEndpoint(existing.id);
  const spec = make();
  if (spec instanceof CniError) {
    return spec.annotate('error while processing endpoint args').annotate(`failed to make a new ${endpointNoun(n.apiVersion)}`).annotate(`error while adding ${endpointNoun(n.apiVersion)}`);
  }
  if (n.loopbackDSR) applyLoopbackDsr(n, spec.ip, ctx);
  const prefixLength = network.subnets[0] ? parseIPNet(network.subnets[0].ipAddressPrefix).network.prefix : 32;
  return hns.addEndpoint({
    id: hns.newId('endpoint', name), name, networkId: network.id, ipAddress: spec.ip, prefixLength, macAddress: spec.mac,
    gatewayAddress: spec.gateway, dns: { servers: effectiveDns(n).nameservers, search: effectiveDns(n).search },
    policies: n.policies, isRemoteEndpoint: false, owner, compartmentId: compartmentOf(ctx.netns), namespaceId: ctx.netns,
  });
}

/** A pod's network compartment number, stable per namespace (1 is the host's). */
function compartmentOf(netns: string): number {
  const h = createHash('sha1').update(netns).digest();
  return 2 + (h.readUInt16BE(0) % 4000);
}

/** ConstructHnsResult / ConstructHcnResult: the interface is named after the endpoint, the mask is the network's. */
export function hnsResult(n: HnsNetConf, network: HnsNetwork, ep: HnsEndpoint): CniResult {
  return {
    cniVersion: n.cniVersion, interfaceName: ep.name, adapterName: `vEthernet (${ep.name})`, ip: ep.ipAddress,
    prefixLength: ep.prefixLength, gateway: ep.gatewayAddress, mac: ep.macAddress,
    dns: { nameservers: ep.dns.servers, search: ep.dns.search }, networkName: network.name, endpointId: ep.id,
  };
}

/** RemoveHnsEndpoint / RemoveHcnEndpoint: a missing endpoint is not an error. */
export function removeEndpoint(ctx: CniContext, network: string): void {
  const ep = ctx.hns?.endpointByName(endpointName(ctx.containerID, network));
  if (ep) ctx.hns!.deleteEndpoint(ep.id);
}
