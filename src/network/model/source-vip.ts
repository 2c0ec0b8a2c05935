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

import { canonicalIp } from '../ipam/cidr6.js';
import type { NodeNet } from './types.js';

/** What the source VIP `ip` of a load balancer on `node` is, for hop texts. */
export function sourceVipKind(node: NodeNet, ip: string): string {
  if (ip === node.ip || (node.ipv6 !== undefined && ip === canonicalIp(node.ipv6))) return `the source VIP is ${node.name}'s node address`;
  return `the source VIP is ${node.name}'s --source-vip endpoint`;
}

/** Appended to a policy drop whose source was rewritten by a load balancer: why the client's own address did not count. */
export function snatNote(snat: { by: string; from: string }, seen: string): string {
  return `the policy saw ${seen}, not the client ${snat.from}: kube-proxy on ${snat.by} SNATs Service traffic to its source VIP without DSR (--enable-dsr with the WinDSR feature gate keeps the pod address)`;
}
