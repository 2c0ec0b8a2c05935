// Who a Service backend sees as the client on Windows: the rule the flow model applies after an HNS load balancer.
//
// kube-proxy winkernel gives every load balancer a source VIP (pkg/proxy/winkernel/proxier.go syncProxyRules: the
// `--source-vip` endpoint on an overlay network, the node IP on l2bridge or when a backend is a node or public
// address). Without DSR the load balancer SNATs to it at the client's vSwitch port, for a backend on the same node as
// for one across nodes: "kube-proxy unconditionally applies source NAT to traffic from local pods to service
// ClusterIPs", so a policy's pod selector for the client does not match (Calico for Windows docs, limitations,
// "Service ClusterIPs incompatible with selectors/pod IPs in network policy"). With DSR — kube-proxy `--enable-dsr`
// with the WinDSR feature gate, on an HNS that supports it — the rewrite happens at the backend's port and "service
// traffic arrives with the source IP set as the originating pod IP" (seeds 001/002 "Load balancing and Services",
// Direct Server Return), on l2bridge and overlay, same node or not (website virtual-ips.md, kernelspace DSR).
// Calico's own kube-proxy start-up turns DSR on where the platform has it, for this reason.
//
// NodePort, externalIP and LoadBalancer-ingress load balancers get the same source VIP, but --enable-dsr does not
// make them DSR: kube-proxy sets isDSR on them from `localTrafficDSR` alone, which is externalTrafficPolicy: Local on
// an HNS with DSR (proxier.go newServiceInfo, syncProxyRules; LoadBalancer ingress also with preserve-destination).
// So a client outside the cluster (or a pod through a NodePort) is seen as the source VIP unless the Service keeps
// traffic local — the "client IP preservation" row of seed 002's Windows Service settings.
//
// Hairpin (a pod reaching itself through its Service): without DSR the load balancer's SNAT makes the packet come
// back from the source VIP, which works; with DSR it would come back with the pod's own address, so it needs the
// loopback DSR OutBoundNAT (CNI `loopbackDSR`, containernetworking/plugins pkg/hns), which NATs it to the node's
// address (kubernetes-sigs/sig-windows-tools#119: the drop applies to DSR mode only).

import { canonicalIp } from '../ipam/cidr6.js';
import type { HnsLoadBalancer } from '../hns/types.js';
import type { NodeNet } from './types.js';

/** Which frontend of a Service an HNS load balancer is (from kube-proxy's description), or the loopback DSR NAT. */
export type FrontendKind = 'ClusterIP' | 'NodePort' | 'externalIP' | 'LoadBalancer' | 'loopback';

/** Who rewrote a flow's source on the way to its destination, from which address, at which frontend. */
export interface SnatBy { by: string; from: string; kind: FrontendKind }

export function frontendKind(lb: HnsLoadBalancer, isClusterIP: boolean): FrontendKind {
  if (lb.frontendVIPs.length === 0) return 'NodePort';
  if (isClusterIP) return 'ClusterIP';
  return /\(LoadBalancer\)$/.test(lb.description ?? '') ? 'LoadBalancer' : 'externalIP';
}

/** The hop text of the loopback DSR NAT. */
export function loopbackDsrSnat(podIP: string, seen: string): string {
  return `loopback DSR: OutBoundNAT (Destinations [${podIP}]) SNATs ${podIP} → ${seen}, so the pod reaches itself`;
}

/** What the source VIP `ip` of a load balancer on `node` is, for hop texts. */
export function sourceVipKind(node: NodeNet, ip: string): string {
  if (ip === node.ip || (node.ipv6 !== undefined && ip === canonicalIp(node.ipv6))) return `the source VIP is ${node.name}'s node address`;
  return `the source VIP is ${node.name}'s --source-vip endpoint`;
}

/** Appended to a policy drop whose source was rewritten on the way: why the client's own address did not count. */
export function snatNote(snat: SnatBy, seen: string): string {
  const saw = `the policy saw ${seen}, not the client ${snat.from}`;
  switch (snat.kind) {
    case 'ClusterIP':
      return `${saw}: kube-proxy on ${snat.by} SNATs Service traffic to its source VIP without DSR (--enable-dsr with the WinDSR feature gate keeps the pod address)`;
    case 'loopback':
      return `${saw}: the loopback DSR policy on ${snat.by} NATs a pod's traffic to itself to the node address`;
    default:
      return `${saw}: kube-proxy on ${snat.by} SNATs ${snat.kind} traffic to its source VIP; only externalTrafficPolicy: Local (on an HNS with DSR) makes that load balancer DSR and keeps the client address`;
  }
}
