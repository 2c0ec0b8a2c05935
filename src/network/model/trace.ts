// The flow evaluator: one flow walked through the model — the source's kube-proxy (HNS load balancers on Windows,
// iptables on Linux), the node that receives a NodePort or external address, the route between nodes (flannel
// host-gw or VXLAN), SNAT on the way out, and the listener at the end. Each step records the rule that decided it.

import { canonicalIp, inCidr, isIPv6 } from '../ipam/cidr6.js';
import { LB_FLAGS, PORT_MAPPING_FLAGS, type HnsEndpoint, type HnsLoadBalancer } from '../hns/types.js';
import { checkPolicy } from '../policy/flow-check.js';
import { frontendKind, loopbackDsrSnat, snatNote, sourceVipKind, type SnatBy } from './source-vip.js';
import type { ClusterNetwork } from './cluster-network.js';
import type { Fate, Flow, Hop, NodeNet, PodNet, Trace } from './types.js';

const PROTOCOL_NUMBER: Record<string, number> = { TCP: 6, UDP: 17 };

/** Seed 000 "Getting Started" note; seed 001 "Network limitations" (l.258). */
export const WINDOWS_HOST_TO_VIP = 'Windows container hosts are not able to access the IP of services scheduled on them due to current platform limitations of the Windows networking stack; only Windows pods are able to access service IPs';
/** Seeds 001/002 "Network limitations" and troubleshooting FAQ. */
export const WINDOWS_LOCAL_NODEPORT = 'Local NodePort access from the node itself fails on Windows (works from other nodes or external clients)';
/** Seeds 001/002 "Network limitations": VFP does not transpose ICMP. */
export const WINDOWS_ICMP_OUT = 'the Windows data plane (VFP) does not transpose ICMP packets, so pings to destinations outside the pod network are not routed back (use curl/Test-NetConnection for TCP)';

/**
 * `hnsSnat`: an HNS load balancer rewrote the source (to its source VIP), so the destination's policy sees that
 * address; `hnsDsr`: an HNS load balancer passed the client's address through (DSR), so a pod that reaches itself
 * needs its loopback DSR policy.
 */
interface Step { ip: string; port?: number; seenSource: string; seenDestination?: string; hnsSnat?: SnatBy; hnsDsr?: boolean }
type HopResult = { done: Trace } | { next: Step } | undefined;

export function traceFlow(net: ClusterNetwork, given: Flow, peek = false): Trace {
  const hops: Hop[] = [];
  // Addresses in one spelling (IPv6 as RFC 5952) so that comparisons hold; a flow stays in its family.
  const flow: Flow = { ...given, to: canonicalIp(given.to) };
  const v6 = isIPv6(flow.to);
  const end = (fate: Fate, reason?: string, extra: Partial<Trace> = {}): Trace => ({ flow, fate, reason, hops, ...extra });

  // The source: a pod (host-network pods act as their node), a node, or a client outside the cluster.
  let srcIP: string;
  let srcNode: NodeNet | undefined;
  let fromHost = false;
  let srcPod: PodNet | undefined;
  if (flow.from.kind === 'pod') {
    srcPod = net.podByIP(flow.from.ip);
    if (!srcPod) return end('unreachable', `no running pod has address ${flow.from.ip}`);
    srcNode = net.nodes.get(srcPod.node);
    fromHost = srcPod.hostNetwork;
    const own = v6 ? (fromHost ? srcNode?.ipv6 : srcPod.ipv6) : srcPod.ip;
    if (!own) return end('unreachable', `pod ${srcPod.namespace}/${srcPod.name} has no IPv6 address (its node's network gives it IPv4 only)`);
    srcIP = canonicalIp(own);
    hops.push({ at: `pod ${srcPod.namespace}/${srcPod.name}`, rule: `${describe(flow)} from ${srcIP}${fromHost ? ' (host network)' : ''}` });
  } else if (flow.from.kind === 'node') {
    srcNode = net.nodes.get(flow.from.node);
    if (!srcNode) return end('unreachable', `no node ${flow.from.node}`);
    const own = v6 ? srcNode.ipv6 : srcNode.ip;
    if (!own) return end('unreachable', `node ${srcNode.name} has no IPv6 address`);
    srcIP = canonicalIp(own);
    fromHost = true;
    hops.push({ at: `node ${srcNode.name}`, rule: `${describe(flow)} from ${srcIP}` });
  } else {
    srcIP = canonicalIp(flow.from.ip ?? (v6 ? net.outsideIPv6 : net.outsideIP));
    hops.push({ at: 'outside', rule: `${describe(flow)} from ${srcIP} (a client outside the cluster)` });
  }

  let step: Step = { ip: flow.to, port: flow.port, seenSource: srcIP };
  // The node the flow starts on, before a NodePort or external address hands it to another node.
  const originNode = srcNode;
  // NetworkPolicy egress of the source pod, decided by its node's CNI, toward where the flow now goes (after DNAT).
  const policyEgress = (): Trace | undefined => {
    if (!srcPod || fromHost) return undefined;
    const c = checkPolicy(net, 'Egress', srcPod, net.nodes.get(srcPod.node), step.ip, flow.protocol, step.port);
    if (c.hop) hops.push(c.hop);
    return c.denied ? end('timeout', c.denied) : undefined;
  };

  // Service addresses answer no ICMP: kube-proxy programs only the Service's ports (windows-facts §4.4; iptables alike).
  if (flow.protocol === 'ICMP' && net.serviceOfVIP(flow.to)) {
    hops.push({ at: srcNode ? `node ${srcNode.name}` : 'outside', rule: `${flow.to} is the ClusterIP of ${net.serviceOfVIP(flow.to)}` });
    return end('timeout', 'Service IPs answer no ICMP: kube-proxy programs only the Service ports');
  }

  // 1. The source node's kube-proxy translates Service frontends.
  if (srcNode && flow.protocol !== 'ICMP') {
    const r = serviceHop(net, srcNode, flow, step, fromHost, hops, end, peek);
    if (r && 'done' in r) return r.done;
    if (r) step = r.next;
  }

  // To itself (its own NodePort was handled above; back to itself through a Service VIP is hairpin, in step 3).
  if (step.ip === srcIP && flow.to === srcIP) return deliver(net, flow, step, srcPod ?? (srcNode ? { node: srcNode } : undefined), end, hops);

  // 2. Traffic to another node's address (NodePort) or to an external/load balancer address lands on a node whose
  // kube-proxy translates it.
  if (flow.protocol !== 'ICMP' && step.ip === flow.to) {
    // A pod address is never an external or load balancer one: no need to ask every node's kube-proxy about it.
    const external = !net.podByIP(step.ip) && (!srcNode || !net.serviceOfVIP(step.ip));
    const receiver = net.nodeByIP(step.ip) ?? (external ? externalReceiver(net, step, flow) : undefined);
    const hostPort = receiver && (receiver !== srcNode || receiver.os === 'linux') ? hostPortOn(net, receiver, step, flow, hops) : undefined;
    if (hostPort) {
      step = hostPort;
      if (srcNode !== receiver) srcNode = receiver;
    } else if (receiver && receiver !== srcNode) {
      // Node addresses are on the node network: no pod-network route is involved in getting there.
      if (srcNode) hops.push({ at: `node ${srcNode.name}`, rule: `${step.ip} is reached on the node network through ${receiver.name}` });
      const r = serviceHop(net, receiver, flow, step, false, hops, end, peek);
      if (r && 'done' in r) return r.done;
      if (r) {
        step = r.next;
        srcNode = receiver;
      }
    }
  }

  // 3. Route to the final address.
  const pod = net.podByIP(step.ip);
  if (pod && !pod.hostNetwork) {
    if (!srcNode) return end('timeout', `pod address ${step.ip} is not routed outside the cluster`);
    const podNode = net.nodes.get(pod.node);
    for (const n of [srcPod && !fromHost ? net.nodes.get(srcPod.node) : undefined, podNode]) {
      if (n?.os === 'windows' && n.network.macSpoofing === false) {
        return end('timeout', `MAC address spoofing is off on the network adapter of ${n.name}'s VM, so its containers have no network connectivity (seed 001 troubleshooting Q3)`);
      }
    }
    if (srcPod && step.ip === srcPod.ip && srcNode.os === 'windows' && !fromHost && step.hnsDsr) {
      // Hairpin under DSR: the packet comes back with the pod's own address as source, which it drops, unless the
      // loopback DSR policy (win-bridge/win-overlay `loopbackDSR`) NATs it; without DSR the load balancer already
      // SNATed it to the source VIP (sig-windows-tools#119: the drop applies to DSR mode only).
      if (!hasLoopbackDsr(srcNode, srcPod.ip)) {
        return end('timeout', `${srcPod.namespace}/${srcPod.name} reaches itself through a DSR load balancer only with loopbackDSR in its CNI config (an OutBoundNAT policy with Destinations [${srcPod.ip}])`);
      }
      const seen = canonicalIp(v6 && srcNode.ipv6 ? srcNode.ipv6 : srcNode.ip);
      hops.push({ at: `node ${srcNode.name} HNS`, rule: loopbackDsrSnat(srcPod.ip, seen) });
      step = { ...step, seenSource: seen, hnsSnat: { by: srcNode.name, from: srcPod.ip, kind: 'loopback' } };
    }
    if (fromHost && srcNode.os === 'windows' && podNode && podNode !== srcNode && (srcNode.network.backend ?? 'host-gw') === 'vxlan' && srcNode.network.plugin === 'flannel') {
      return end('timeout', `node to pod connectivity over flannel VXLAN is not possible on Windows by design: only pods local to ${srcNode.name} are reachable from it (seed 001 "CNI Plugins", seed 002 "CNI plugin limitations")`);
    }
    const egressDenied = policyEgress();
    if (egressDenied) return egressDenied;
    if (podNode && podNode !== srcNode) {
      const routed = routeBetween(net, srcNode, podNode, hops, v6);
      if (routed) return end('timeout', routed);
    } else hops.push({ at: `node ${srcNode.name}`, rule: `${step.ip} is a local endpoint (same node bridge)` });
    if (podNode?.hns && !podNode.hns.endpointByIP(pod.ip)) {
      // The pod's vNIC is gone with its HNS endpoint (seed 001 troubleshooting Q6: kube-proxy without
      // --hostname-override deletes them).
      return end('timeout', `the HNS endpoint of pod ${pod.namespace}/${pod.name} on ${podNode.name} was deleted, so its vNIC is gone`);
    }
    // NetworkPolicy ingress of the destination pod, decided by its node's CNI. A source NATed to this very node on
    // the way in is seen by the policy as the client before SNAT (the filter runs before POSTROUTING's masquerade).
    // An HNS load balancer's SNAT happened at the client's vSwitch port, before the packet reached the destination: its
    // policy sees the source VIP (Calico for Windows limitations, "Service ClusterIPs incompatible with selectors").
    const fromOwnNode = fromHost && originNode === podNode;
    const natedHere = !fromOwnNode && !step.hnsSnat && !!podNode && (step.seenSource === podNode.ip || (!!podNode.ipv6 && step.seenSource === canonicalIp(podNode.ipv6)));
    const ingress = checkPolicy(net, 'Ingress', pod, podNode, natedHere ? srcIP : step.seenSource, flow.protocol, step.port, fromOwnNode);
    if (ingress.hop) hops.push(ingress.hop);
    if (ingress.denied) return end('timeout', step.hnsSnat ? `${ingress.denied}; ${snatNote(step.hnsSnat, step.seenSource)}` : ingress.denied);
    return deliver(net, flow, step, pod, end, hops);
  }
  const node = pod ? net.nodes.get(pod.node) : net.nodeByIP(step.ip);
  if (node) {
    const egressDenied = policyEgress();
    if (egressDenied) return egressDenied;
    if (srcNode && srcNode !== node) {
      hops.push({ at: `node ${srcNode.name}`, rule: `${step.ip} is node ${node.name} on the node network` });
    }
    return deliver(net, flow, step, pod ?? { node }, end, hops);
  }
  if (net.inClusterCIDR(step.ip)) return end('timeout', `no running pod has address ${step.ip}`);
  if (net.inServiceCIDR(step.ip)) return end('timeout', `no Service has ClusterIP ${step.ip}`);
  const egressDenied = policyEgress();
  if (egressDenied) return egressDenied;
  return egress(net, flow, srcNode, srcIP, srcPod, step, end, hops);
}

function describe(flow: Flow): string {
  return `${flow.protocol} to ${flow.to}${flow.port !== undefined ? `:${flow.port}` : ''}`;
}

type End = (fate: Fate, reason?: string, extra?: Partial<Trace>) => Trace;

/** The listener at the end: TCP accepted or reset, UDP answered or port unreachable, ICMP echoed. */
function deliver(net: ClusterNetwork, flow: Flow, step: Step, at: PodNet | { node: NodeNet } | undefined, end: End, hops: Hop[]): Trace {
  const pod = at && 'ip' in at ? at : undefined;
  const node = pod ? net.nodes.get(pod.node) : at && 'node' in at && typeof at.node !== 'string' ? at.node : undefined;
  const label = pod ? `pod ${pod.namespace}/${pod.name}` : node ? `node ${node.name}` : step.ip;
  const extra: Partial<Trace> = { seenSource: step.seenSource, seenDestination: step.seenDestination ?? step.ip, target: { ip: step.ip, port: step.port, pod, node } };
  if (flow.protocol === 'ICMP') {
    hops.push({ at: label, rule: 'ICMP echo reply' });
    return end('delivered', undefined, extra);
  }
  const listener = pod && !pod.hostNetwork ? pod.listenerAt(step.port ?? 0, flow.protocol) : (node?.listenerAt?.(step.port ?? 0, flow.protocol) ?? (pod?.listenerAt(step.port ?? 0, flow.protocol)));
  if (!listener) {
    hops.push({ at: label, rule: `nothing listens on ${step.ip}:${step.port}/${flow.protocol}` });
    return end('refused', flow.protocol === 'TCP' ? 'connection refused' : 'ICMP port unreachable', extra);
  }
  hops.push({ at: label, rule: `${listener.program} accepts on ${step.port}/${flow.protocol} (client address ${step.seenSource})` });
  return end('delivered', undefined, { ...extra, target: { ...extra.target!, listener } });
}

/** The node's Service translation: HNS load balancers where kube-proxy winkernel runs, else the iptables/OVN rules. */
function serviceHop(net: ClusterNetwork, node: NodeNet, flow: Flow, step: Step, fromHost: boolean, hops: Hop[], end: End, peek: boolean): HopResult {
  return node.winkernel
    ? windowsServiceHop(net, node, flow, step, fromHost, hops, end, peek)
    : linuxServiceHop(net, node, flow, step, fromHost, hops, end, peek);
}

/** kube-proxy winkernel: an HNS load balancer on the node catches the frontend (or nothing does). */
function windowsServiceHop(net: ClusterNetwork, node: NodeNet, flow: Flow, step: Step, fromHost: boolean, hops: Hop[], end: End, peek: boolean): HopResult {
  const hns = node.hns;
  const proto = PROTOCOL_NUMBER[flow.protocol];
  const lbs = hns ? [...hns.loadBalancers.values()] : [];
  const matches = (lb: HnsLoadBalancer) => {
    const pm = lb.portMappings[0];
    if (!pm || pm.protocol !== proto || pm.externalPort !== step.port) return false;
    return lb.frontendVIPs.length ? lb.frontendVIPs.some((v) => canonicalIp(v) === step.ip) : step.ip === node.ip;
  };
  const lb = lbs.find(matches);
  const vipOf = net.serviceOfVIP(step.ip);
  if (fromHost) {
    if (vipOf) {
      hops.push({ at: `node ${node.name} HNS`, rule: `${step.ip} is the ClusterIP of ${vipOf}` });
      return { done: end('timeout', WINDOWS_HOST_TO_VIP) };
    }
    if (lb && lb.frontendVIPs.length === 0) {
      hops.push({ at: `node ${node.name} HNS`, rule: `${step.ip}:${step.port} is a NodePort of this node` });
      return { done: end('timeout', WINDOWS_LOCAL_NODEPORT) };
    }
    return undefined;
  }
  if (!lb) {
    const nodePortOf = step.ip === node.ip && step.port !== undefined ? net.serviceOfNodePort(step.port) : undefined;
    const state = node.winkernel?.state();
    if (nodePortOf && state && state.phase !== 'running') {
      // Nothing programmed the NodePort on this node, and nothing on the host listens there: the host resets.
      hops.push({ at: `node ${node.name} HNS`, rule: `no load balancer for NodePort ${step.port} of ${nodePortOf}` });
      return { done: end('refused', `kube-proxy on ${node.name} is not programming Services: ${state.reason}`) };
    }
    if (!vipOf) return undefined;
    const why = state && state.phase !== 'running'
      ? `kube-proxy on ${node.name} is not programming Services: ${state.reason}`
      : `no HNS load balancer for ${step.ip}:${step.port}/${flow.protocol} on ${node.name} (winkube net proxy ${node.name} shows kube-proxy's log)`;
    hops.push({ at: `node ${node.name} HNS`, rule: `${step.ip} is the ClusterIP of ${vipOf}, but no load balancer matches` });
    return { done: end('timeout', why) };
  }
  const eps = lb.hostComputeEndpoints.map((id) => hns!.endpoints.get(id)).filter((e): e is HnsEndpoint => !!e);
  if (eps.length === 0) return { done: end('timeout', `HNS load balancer ${lb.id} has no endpoints`) };
  const pm = lb.portMappings[0];
  const backend = net.pick(lb.id, eps, pm.distributionType === 'SourceIP' ? step.seenSource : undefined, peek);
  // An IPv6 load balancer reaches a dual-stack local endpoint at its IPv6 address.
  const backendIP = canonicalIp((lb.flags & LB_FLAGS.IPv6) !== 0 ? backend.ipv6Address ?? backend.ipAddress : backend.ipAddress);
  const dsr = (lb.flags & LB_FLAGS.DSR) !== 0;
  // Who the backend sees (source-vip.ts): DSR keeps the client; otherwise the load balancer SNATs to its source VIP.
  // An IPv6 load balancer SNATs within its family: to the node's IPv6 address, as the IPv6 proxier of
  // NewDualStackProxier has it for its node IP.
  const sourceVIP = (lb.flags & LB_FLAGS.IPv6) !== 0 && !isIPv6(lb.sourceVIP) && node.ipv6 ? canonicalIp(node.ipv6) : lb.sourceVIP;
  const seenSource = dsr ? step.seenSource : sourceVIP;
  const preserve = (pm.flags & PORT_MAPPING_FLAGS.PreserveDIP) !== 0;
  const snat = seenSource !== step.seenSource ? `, SNAT ${step.seenSource} → ${seenSource} (${sourceVipKind(node, sourceVIP)})` : '';
  hops.push({
    at: `node ${node.name} HNS`,
    rule: `load balancer ${lb.frontendVIPs[0] ?? node.ip}:${pm.externalPort} → ${backendIP}:${pm.internalPort} (${lb.description ?? lb.id}${dsr ? ', DSR' : ''}${pm.distributionType === 'SourceIP' ? ', session affinity' : ''}${preserve ? ', preserve-destination' : ''}${snat})`,
  });
  // Every HNS load balancer (ClusterIP, NodePort, externalIP, LoadBalancer ingress) SNATs to the same source VIP
  // unless it is DSR (proxier.go syncProxyRules passes `sourceVip` to each): the backend's policy sees that address.
  const kind = frontendKind(lb, !!net.serviceOfVIP(step.ip));
  return { next: { ip: backendIP, port: pm.internalPort, seenSource, seenDestination: preserve ? step.ip : undefined, hnsSnat: snat ? { by: node.name, from: step.seenSource, kind } : undefined, hnsDsr: dsr } };
}

/** kube-proxy iptables: KUBE-SERVICES / KUBE-NODEPORTS → KUBE-SVC → KUBE-SEP DNAT, or REJECT/DROP. */
function linuxServiceHop(net: ClusterNetwork, node: NodeNet, flow: Flow, step: Step, fromHost: boolean, hops: Hop[], end: End, peek: boolean): HopResult {
  const v = node.iptables?.evaluate(step.ip, step.port ?? 0, flow.protocol, { external: fromHost, toNodeIP: step.ip === node.ip });
  if (!v) {
    const vipOf = net.serviceOfVIP(step.ip);
    if (!vipOf) return undefined;
    hops.push({ at: `node ${node.name} ${node.iptables?.label ?? 'iptables'}`, rule: `${step.ip} is the ClusterIP of ${vipOf}, but no rule matches port ${step.port}/${flow.protocol}` });
    return { done: end('timeout', `no kube-proxy rule for ${step.ip}:${step.port}/${flow.protocol} on ${node.name}`) };
  }
  const at = `node ${node.name} ${node.iptables?.label ?? 'iptables'}`;
  hops.push({ at, rule: v.rule });
  if (v.action === 'reject') return { done: end('refused', `${v.service.key} has no endpoints`) };
  if (v.action === 'drop') return { done: end('timeout', `${v.service.key} has no local endpoints on ${node.name} (externalTrafficPolicy: Local)`) };
  const ep = net.pick(v.service.svcChain, v.endpoints, v.service.sp.sessionAffinityClientIP ? step.seenSource : undefined, peek);
  const chain = v.service.endpoints.find((e) => e.ep === ep)?.chain ?? '';
  hops.push({ at, rule: `-A ${chain} -j DNAT --to-destination ${ep.ip}:${ep.port}${v.masquerade ? ' (KUBE-MARK-MASQ: SNAT to the node)' : ''}` });
  return { next: { ip: canonicalIp(ep.ip), port: ep.port, seenSource: v.masquerade ? (isIPv6(step.ip) ? node.ipv6 ?? node.ip : node.ip) : step.seenSource } };
}

/**
 * A hostPort on the receiving node: HNS PortMapping policies on Windows (win-bridge makes them; win-overlay ignores
 * port mappings), the portmap plugin's DNAT on Linux.
 */
function hostPortOn(net: ClusterNetwork, node: NodeNet, step: Step, flow: Flow, hops: Hop[]): Step | undefined {
  if (step.ip !== node.ip || step.port === undefined) return undefined;
  if (node.hns) {
    const proto = PROTOCOL_NUMBER[flow.protocol];
    for (const ep of node.hns.endpoints.values()) {
      const pm = ep.policies.find((p) => p.type === 'PortMapping' && p.externalPort === step.port && p.protocol === proto);
      if (pm?.type === 'PortMapping') {
        hops.push({ at: `node ${node.name} HNS`, rule: `PortMapping ${node.ip}:${pm.externalPort} → ${ep.ipAddress}:${pm.internalPort} (hostPort of ${ep.owner ?? ep.name})` });
        return { ip: ep.ipAddress, port: pm.internalPort, seenSource: step.seenSource };
      }
    }
    return undefined;
  }
  for (const pod of net.allPods()) {
    if (pod.node !== node.name) continue;
    const hp = pod.hostPorts?.find((h) => h.hostPort === step.port && h.protocol === flow.protocol);
    if (hp) {
      hops.push({ at: `node ${node.name} iptables`, rule: `-A CNI-DN-${pod.name} -p ${flow.protocol.toLowerCase()} --dport ${hp.hostPort} -j DNAT --to-destination ${pod.ip}:${hp.containerPort} (portmap)` });
      return { ip: pod.ip, port: hp.containerPort, seenSource: step.seenSource };
    }
  }
  return undefined;
}

/** The node that takes traffic for an external IP or load balancer ingress address: the first one programmed for it. */
function externalReceiver(net: ClusterNetwork, step: Step, flow: Flow): NodeNet | undefined {
  const nodes = [...net.nodes.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const n of nodes) {
    if (n.winkernel) {
      const proto = PROTOCOL_NUMBER[flow.protocol];
      if ([...(n.hns?.loadBalancers.values() ?? [])].some((lb) => lb.frontendVIPs.some((v) => canonicalIp(v) === step.ip) && lb.portMappings[0]?.externalPort === step.port && lb.portMappings[0]?.protocol === proto)) return n;
    } else {
      const v = n.iptables?.evaluate(step.ip, step.port ?? 0, flow.protocol, { external: true, toNodeIP: false });
      if (v && v.action !== 'drop') return n;
    }
  }
  return undefined;
}

/** Whether the pod networks of two nodes reach each other; a reason when they do not. */
function routeBetween(net: ClusterNetwork, from: NodeNet, to: NodeNet, hops: Hop[], v6 = false): string | undefined {
  const a = from.network;
  const b = to.network;
  const backendA = a.plugin === 'flannel' ? a.backend ?? 'host-gw' : undefined;
  const backendB = b.plugin === 'flannel' ? b.backend ?? 'host-gw' : undefined;
  if (backendA && backendB && backendA !== backendB) {
    return `flannel backends differ: ${from.name} uses ${backendA}, ${to.name} uses ${backendB} (one net-conf.json serves the whole cluster)`;
  }
  if (backendA === 'vxlan' && backendB === 'vxlan') {
    for (const n of [from, to]) {
      if (n.os === 'windows' && n.windowsBuild === '10.0.17763' && (n.windowsUBR ?? Infinity) < OVERLAY_HOTFIX_UBR) {
        return `overlay networking on Windows Server 2019 needs KB4482887 (10.0.17763.${OVERLAY_HOTFIX_UBR}) or later; ${n.name} runs 10.0.17763.${n.windowsUBR} (seed 001 and 002 network limitations)`;
      }
    }
    const [vniA, vniB, portA, portB] = [a.vni ?? 4096, b.vni ?? 4096, a.port ?? 4789, b.port ?? 4789];
    if (vniA !== vniB || portA !== portB) {
      // docs "Flannel is restricted to using VNI 4096 and UDP port 4789"; Linux nodes must use the same values.
      return `VXLAN mismatch: ${from.name} uses VNI ${vniA} port ${portA}, ${to.name} uses VNI ${vniB} port ${portB}`;
    }
    if (from.os === 'windows' && !hasRemoteSubnetRoute(from, to.podCIDR)) {
      return `no RemoteSubnetRoute for ${to.podCIDR} in the overlay network of ${from.name} (flanneld has not programmed node ${to.name})`;
    }
    hops.push({ at: `node ${from.name}`, rule: `VXLAN (VNI ${vniA}, UDP ${portA}) to ${to.ip} for ${to.podCIDR}` });
    return undefined;
  }
  if (a.plugin === 'wincni' || b.plugin === 'wincni') {
    // seed 004: l2bridge "requires user-defined routes"; the v1.9 topologies put them in the ToR or on every node.
    const routed = [a, b].filter((n) => n.plugin === 'wincni').every((n) => n.routes === 'upstream-l3' || n.routes === 'host-gateway');
    if (!routed) return `no route between the pod subnets of ${from.name} and ${to.name}: wincni's l2bridge needs user-defined routes (seed 004 "Upstream L3 Routing Topology" or "Host-Gateway Topology" with AddRoutes.ps1)`;
    hops.push({ at: `node ${from.name}`, rule: `route ${to.podCIDR} via ${to.ip} (${a.routes === 'upstream-l3' || b.routes === 'upstream-l3' ? 'upstream L3: the top-of-rack switch' : 'host gateway: AddRoutes.ps1'})` });
    return undefined;
  }
  hops.push({ at: `node ${from.name}`, rule: v6 && to.podCIDRv6 && to.ipv6 ? `route ${to.podCIDRv6} via ${to.ipv6} (${backendA ?? a.plugin})` : `route ${to.podCIDR} via ${to.ip} (${backendA ?? a.plugin})` });
  return undefined;
}

/**
 * The WS2019 update overlay networking needs: KB4482887 (build 17763.348) in the limitations of seeds 001 and 002;
 * seed 001's network-mode table names the later KB4489899 (17763.379), which includes it.
 */
const OVERLAY_HOTFIX_UBR = 348;

/** Whether the pod's HNS endpoint has win-bridge's loopback DSR policy (OutBoundNAT with its own address). */
function hasLoopbackDsr(node: NodeNet, ip: string): boolean {
  const ep = node.hns?.endpointByIP(ip);
  return !!ep?.policies.some((p) => p.type === 'OutBoundNAT' && p.destinations?.includes(ip));
}

function hasRemoteSubnetRoute(node: NodeNet, cidr: string): boolean {
  for (const n of node.hns?.networks.values() ?? []) {
    if (n.type !== 'Overlay') continue;
    const all = [...n.policies, ...n.subnets.flatMap((s) => s.policies)];
    if (all.some((p) => p.type === 'RemoteSubnetRoute' && p.destinationPrefix === cidr)) return true;
  }
  return false;
}

/** Leaving the cluster: SNAT by the pod's OutBoundNAT policy (Windows) or flannel's masquerade (Linux). */
function egress(net: ClusterNetwork, flow: Flow, srcNode: NodeNet | undefined, srcIP: string, srcPod: PodNet | undefined, step: Step, end: End, hops: Hop[]): Trace {
  if (!srcNode) return end('timeout', `${step.ip} is outside the cluster`);
  if (srcPod && !srcPod.hostNetwork && srcNode.os === 'windows') {
    const ep = srcNode.hns?.endpointByIP(srcIP);
    const nat = ep?.policies.find((p) => p.type === 'OutBoundNAT' && !p.destinations);
    const exempt = nat?.type === 'OutBoundNAT' && nat.exceptions.some((c) => inCidr(c, step.ip));
    if (nat && !exempt) {
      if (flow.protocol === 'ICMP') {
        hops.push({ at: `node ${srcNode.name} HNS`, rule: `OutBoundNAT would SNAT ${srcIP} → ${srcNode.ip}` });
        return end('timeout', WINDOWS_ICMP_OUT);
      }
      hops.push({ at: `node ${srcNode.name} HNS`, rule: `OutBoundNAT: SNAT ${srcIP} → ${srcNode.ip} (${step.ip} is not in the ExceptionList)` });
    } else hops.push({ at: `node ${srcNode.name} HNS`, rule: `routed without NAT (${step.ip} is in the OutBoundNAT ExceptionList)` });
  } else if (srcPod && !srcPod.hostNetwork) {
    hops.push({ at: `node ${srcNode.name} iptables`, rule: `-A POSTROUTING -s ${srcNode.podCIDR} ! -d ${net.o.clusterCIDR} -j MASQUERADE (flannel ipMasq)` });
  }
  return end('egress', `${step.ip} is outside the cluster: the flow leaves through ${srcNode.name}, and winkube models no hosts outside the cluster`);
}

