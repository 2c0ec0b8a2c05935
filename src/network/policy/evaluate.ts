// The NetworkPolicy decision for one direction of one connection (kubernetes.io/docs/concepts/services-networking/
// network-policies): a pod selected by a policy of that direction is isolated, and then only connections some rule of
// some such policy allows get through (policies add up; none denies). Replies of an allowed connection are part of it.

import type { Labels } from '../../api/labels.js';
import { inCidr } from '../ipam/cidr6.js';
import type { NetworkPolicyEnforcement } from '../profile.js';
import type { CompiledPeer, CompiledPolicy, CompiledPort, CompiledRule, Direction } from './compile.js';
import type { PolicyIndex } from './policy-index.js';

export interface NamedPort { name?: string; containerPort: number; protocol?: string }

/** A pod as policies see it: where it is, its labels and its containers' ports (for named ports). */
export interface PolicyPod {
  namespace: string;
  name: string;
  labels: Labels;
  ports?: readonly NamedPort[];
}

/** The other end: an address, and the pod-network pod at it if there is one. */
export interface PolicyPeer {
  ip: string;
  pod?: PolicyPod;
}

export interface PolicyConnection {
  protocol: 'TCP' | 'UDP' | 'ICMP';
  /** The destination port (after any Service DNAT). */
  port?: number;
}

export interface PolicyContext {
  index: PolicyIndex;
  namespaceLabels(namespace: string): Labels;
  /** What the enforcing data plane cannot express (Calico on Windows). */
  skips?: NetworkPolicyEnforcement['skips'];
}

export type PolicyVerdict =
  | { isolated: false }
  | { isolated: true; allowed: true; policy: string; rule: number }
  /** `skipped`: a rule part that would have matched was dropped by the data plane (why it is in the reason). */
  | { isolated: true; allowed: false; policies: string[]; skipped?: string };

/** Whether the connection's destination port is one of the rule's ports; `skipped` when only a skipped entry matched. */
function portMatches(ports: CompiledPort[] | undefined, conn: PolicyConnection, dest: PolicyPod | undefined, ctx: PolicyContext): boolean | 'skipped' {
  if (!ports) return true;
  let skipped = false;
  for (const p of ports) {
    if (p.protocol !== conn.protocol) continue;
    if (p.port === undefined) return true;
    if (typeof p.port === 'number') {
      if (conn.port === p.port || (p.endPort !== undefined && conn.port !== undefined && conn.port >= p.port && conn.port <= p.endPort)) return true;
      continue;
    }
    // A named port is the destination pod's container port of that name and protocol.
    const resolved = dest?.ports?.some((c) => c.name === p.port && (c.protocol ?? 'TCP') === p.protocol && c.containerPort === conn.port);
    if (resolved && ctx.skips?.namedPorts) skipped = true;
    else if (resolved) return true;
  }
  return skipped ? 'skipped' : false;
}

function peerMatches(peers: CompiledPeer[] | undefined, peer: PolicyPeer, policy: CompiledPolicy, ctx: PolicyContext): boolean | 'skipped' {
  if (!peers) return true;
  let skipped = false;
  for (const p of peers) {
    if (p.ipBlock) {
      if (!inCidr(p.ipBlock.cidr, peer.ip) || p.ipBlock.except.some((c) => inCidr(c, peer.ip))) continue;
      if (p.ipBlock.except.length && ctx.skips?.ipBlockExcept) skipped = true;
      else return true;
      continue;
    }
    const pod = peer.pod;
    if (!pod) continue;
    const nsOk = p.namespaces ? p.namespaces.matches(ctx.namespaceLabels(pod.namespace)) : pod.namespace === policy.namespace;
    if (nsOk && (p.pods?.matches(pod.labels) ?? true)) return true;
  }
  return skipped ? 'skipped' : false;
}

/**
 * The verdict for `subject` (the pod whose policies apply: the destination for Ingress, the source for Egress)
 * talking with `peer`. Named ports resolve on the destination pod.
 */
export function evaluatePolicies(ctx: PolicyContext, direction: Direction, subject: PolicyPod, peer: PolicyPeer, conn: PolicyConnection): PolicyVerdict {
  if (!ctx.index.hasAny(subject.namespace)) return { isolated: false };
  const applying = ctx.index.selecting(subject.namespace, subject.labels).filter((p) => (direction === 'Ingress' ? p.ingress : p.egress));
  if (applying.length === 0) return { isolated: false };
  const dest = direction === 'Ingress' ? subject : peer.pod;
  let skipped: string | undefined;
  for (const policy of applying) {
    const rules: CompiledRule[] = (direction === 'Ingress' ? policy.ingress : policy.egress) ?? [];
    for (let i = 0; i < rules.length; i++) {
      const ports = portMatches(rules[i].ports, conn, dest, ctx);
      if (!ports) continue;
      const peers = peerMatches(rules[i].peers, peer, policy, ctx);
      if (!peers) continue;
      if (ports === true && peers === true) return { isolated: true, allowed: true, policy: policy.key, rule: i + 1 };
      skipped ??= `${policy.key} ${direction.toLowerCase()} rule ${i + 1} would allow it, but ${ctx.skips?.why ?? 'the data plane skips it'}`;
    }
  }
  return { isolated: true, allowed: false, policies: applying.map((p) => p.key), skipped };
}
