// NetworkPolicy at a flow's two ends, as the flow model meets them: egress where the source pod's node sends it,
// ingress where the destination pod's node delivers it (after Service DNAT, so a ClusterIP flow meets the backend's
// policies). Each node's CNI decides whether anything enforces (profile.ts networkPolicyEnforcement); a drop is a
// silent one, so the client's connect times out, as with Calico's DROP.

import type { ClusterNetwork } from '../model/cluster-network.js';
import type { FlowProtocol, Hop, NodeNet, PodNet } from '../model/types.js';
import { networkPolicyEnforcement } from '../profile.js';
import type { Direction } from './compile.js';
import { evaluatePolicies, type PolicyPeer, type PolicyPod } from './evaluate.js';

export interface PolicyCheck {
  /** The hop to record (none when no policy selects the pod). */
  hop?: Hop;
  /** Set when the packet is dropped: the trace's reason. */
  denied?: string;
}

export function policyPod(pod: PodNet): PolicyPod {
  return { namespace: pod.namespace, name: pod.name, labels: pod.labels?.(), ports: pod.containerPorts };
}

function peerAt(net: ClusterNetwork, ip: string): PolicyPeer {
  const pod = net.podByIP(ip);
  return { ip, pod: pod && !pod.hostNetwork ? policyPod(pod) : undefined };
}

function describeConn(protocol: FlowProtocol, port: number | undefined): string {
  return protocol === 'ICMP' ? 'ICMP' : `${protocol} port ${port}`;
}

/**
 * The policy decision for `pod` (a pod-network pod on `node`) in `direction` with the peer at `peerIP`; `port` is the
 * destination port after DNAT. `fromOwnNode`: the flow comes from the pod's node itself (the host, a host-network pod).
 */
export function checkPolicy(net: ClusterNetwork, direction: Direction, pod: PodNet, node: NodeNet | undefined, peerIP: string, protocol: FlowProtocol, port: number | undefined, fromOwnNode = false): PolicyCheck {
  const state = net.policies;
  if (!node || pod.hostNetwork || !state.index.hasAny(pod.namespace)) return {};
  const subject = policyPod(pod);
  const who = `pod ${pod.namespace}/${pod.name}`;
  const peerText = direction === 'Ingress' ? `from ${peerIP}` : `to ${peerIP}`;
  const enforcement = networkPolicyEnforcement(node.os, node.network, node.windowsBuild);
  // Pods cannot block traffic from their own node (network-policies "What you can't do"): kubelet probes get through.
  if (direction === 'Ingress' && fromOwnNode) {
    const v = evaluatePolicies({ index: state.index, namespaceLabels: (n) => state.namespaceLabels(n) }, direction, subject, { ip: peerIP }, { protocol, port });
    return v.isolated ? { hop: { at: `node ${node.name} ${enforcement.engine ?? node.network.plugin}`, rule: `NetworkPolicy ingress of ${who}: ${peerIP} is the pod's own node, always allowed` } } : {};
  }
  const v = evaluatePolicies({ index: state.index, namespaceLabels: (n) => state.namespaceLabels(n), skips: enforcement.skips }, direction, subject, peerAt(net, peerIP), { protocol, port });
  if (!v.isolated) return {};
  const at = `node ${node.name} ${enforcement.engine ?? node.network.plugin}`;
  const dir = direction.toLowerCase();
  if (!enforcement.engine) {
    // The API server took the policy; nothing on this node acts on it (a flannel cluster silently ignores policies).
    const policies = v.allowed ? v.policy : v.policies.join(', ');
    return { hop: { at, rule: `NetworkPolicy ${dir} of ${who} (${policies}) not enforced: ${enforcement.source}` } };
  }
  if (v.allowed) return { hop: { at, rule: `NetworkPolicy ${dir} of ${who}: ${describeConn(protocol, port)} ${peerText} allowed by ${v.policy} (${dir} rule ${v.rule})` } };
  const denied = `NetworkPolicy ${v.policies.join(', ')} isolates ${who} for ${dir} and no rule allows ${describeConn(protocol, port)} ${peerText}${v.skipped ? ` (${v.skipped})` : ''}: ${enforcement.engine} drops the packet`;
  return { hop: { at, rule: `NetworkPolicy ${dir} of ${who}: ${describeConn(protocol, port)} ${peerText} denied (selected by ${v.policies.join(', ')}) → drop` }, denied };
}
