// Calico for Windows' rendering of NetworkPolicy into HNS: per endpoint of an isolated pod, one Allow ACL per rule it
// can express (remote addresses resolved from the peers, ports), then a Block for the direction, so that
// `winkube hns <node> endpoints` (Get-HnsEndpoint) shows what the flow model enforces. The model decides flows from
// the policies themselves (evaluate.ts); these ACLs are the view of it a Windows admin gets.
// Priorities as Felix gives them: rules from 1000, the default block one higher (felix/dataplane/windows/policysets).

import type { HnsEndpoint, HnsEndpointPolicy } from '../hns/types.js';
import type { ClusterNetwork } from '../model/cluster-network.js';
import type { NodeNet, PodNet } from '../model/types.js';
import { networkPolicyEnforcement } from '../profile.js';
import type { CompiledPeer, CompiledPolicy, CompiledRule, Direction } from './compile.js';
import { policyPod } from './flow-check.js';

type Acl = Extract<HnsEndpointPolicy, { type: 'ACL' }>;

const RULE_BASE_PRIORITY = 1000;
const PROTOCOL: Record<string, string> = { TCP: '6', UDP: '17', SCTP: '132' };

/** The ACLs this renderer put on each endpoint, so a re-render replaces exactly them (CNI-config ACLs stay). */
const rendered = new WeakMap<HnsEndpoint, Acl[]>();

/**
 * What one render pass resolves once and every endpoint shares: peer address sets (Felix's IP sets), each rule's
 * ACLs, and the pod-network pods by namespace (a peer only looks at the namespaces it can select).
 */
interface PeerCache {
  peers: Map<CompiledPeer, string[] | undefined>;
  rules: Map<CompiledRule, Acl[]>;
  byNamespace?: Map<string, PodNet[]>;
}

const newCache = (): PeerCache => ({ peers: new Map(), rules: new Map() });

/** Pod addresses a peer selects (what Felix puts in its IP sets), or its CIDR; undefined when Windows skips it. */
function peerAddresses(net: ClusterNetwork, policy: CompiledPolicy, p: CompiledPeer, cache: PeerCache): string[] | undefined {
  if (cache.peers.has(p)) return cache.peers.get(p);
  const found = resolvePeer(net, policy, p, cache);
  cache.peers.set(p, found);
  return found;
}

function resolvePeer(net: ClusterNetwork, policy: CompiledPolicy, p: CompiledPeer, cache: PeerCache): string[] | undefined {
  if (p.ipBlock) return p.ipBlock.except.length ? undefined : [p.ipBlock.cidr];
  if (!cache.byNamespace) {
    cache.byNamespace = new Map();
    for (const pod of net.allPods()) {
      if (pod.hostNetwork) continue;
      let list = cache.byNamespace.get(pod.namespace);
      if (!list) cache.byNamespace.set(pod.namespace, (list = []));
      list.push(pod);
    }
  }
  const out: string[] = [];
  for (const [ns, pods] of cache.byNamespace) {
    const nsOk = p.namespaces ? p.namespaces.matches(net.policies.namespaceLabels(ns)) : ns === policy.namespace;
    if (!nsOk) continue;
    for (const pod of pods) if (p.pods?.matches(pod.labels?.()) ?? true) out.push(pod.ip);
  }
  return out;
}

/** A rule's ACLs are the same for every endpoint its policy selects: built once per pass. */
function ruleAcls(net: ClusterNetwork, policy: CompiledPolicy, rule: CompiledRule, direction: Direction, cache: PeerCache): Acl[] {
  let acls = cache.rules.get(rule);
  if (!acls) cache.rules.set(rule, (acls = buildRuleAcls(net, policy, rule, direction, cache)));
  return acls;
}

function buildRuleAcls(net: ClusterNetwork, policy: CompiledPolicy, rule: CompiledRule, direction: Direction, cache: PeerCache): Acl[] {
  const dir = direction === 'Ingress' ? 'In' : 'Out';
  let remote: string | undefined;
  if (rule.peers) {
    const addrs = rule.peers.map((p) => peerAddresses(net, policy, p, cache)).filter((a): a is string[] => !!a).flat();
    // Every peer skipped or none selected: the rule matches nothing, so it programs nothing.
    if (addrs.length === 0) return [];
    remote = [...new Set(addrs)].sort().join(',');
  }
  const base = { type: 'ACL' as const, action: 'Allow' as const, direction: dir as Acl['direction'], priority: RULE_BASE_PRIORITY, ...(remote ? { remoteAddresses: remote } : {}) };
  if (!rule.ports) return [base];
  const out: Acl[] = [];
  for (const port of rule.ports) {
    if (typeof port.port === 'string') continue; // named ports: skipped on Windows
    const ports = port.port === undefined ? undefined : port.endPort !== undefined ? `${port.port}-${port.endPort}` : String(port.port);
    const acl: Acl = { ...base, protocols: PROTOCOL[port.protocol] ?? port.protocol };
    if (ports) Object.assign(acl, direction === 'Ingress' ? { localPorts: ports } : { remotePorts: ports });
    out.push(acl);
  }
  return out;
}

/** The ACLs of one pod's endpoint: per isolated direction its allow rules and the closing block. */
export function podAcls(net: ClusterNetwork, pod: PodNet, node: NodeNet, cache: PeerCache = newCache()): Acl[] {
  const subject = policyPod(pod);
  const selecting = net.policies.index.selecting(subject.namespace, subject.labels);
  const out: Acl[] = [];
  for (const direction of ['Ingress', 'Egress'] as const) {
    const applying = selecting.filter((p) => (direction === 'Ingress' ? p.ingress : p.egress));
    if (!applying.length) continue;
    const dir = direction === 'Ingress' ? 'In' : 'Out';
    // The resident node is always let in (network-policies "What you can't do"), as Calico's host rules do.
    if (direction === 'Ingress') out.push({ type: 'ACL', action: 'Allow', direction: 'In', remoteAddresses: node.ip, priority: RULE_BASE_PRIORITY });
    for (const p of applying) for (const r of (direction === 'Ingress' ? p.ingress : p.egress) ?? []) out.push(...ruleAcls(net, p, r, direction, cache));
    out.push({ type: 'ACL', action: 'Block', direction: dir, priority: RULE_BASE_PRIORITY + 1 });
  }
  return out;
}

/** Re-renders the ACLs of every pod endpoint on the Windows nodes whose Calico enforces policy. */
export function renderHnsAcls(net: ClusterNetwork): void {
  const cache = newCache();
  for (const node of net.nodes.values()) {
    if (!node.hns || node.os !== 'windows' || networkPolicyEnforcement(node.os, node.network, node.windowsBuild).engine !== 'Calico') continue;
    for (const ep of node.hns.endpoints.values()) {
      if (ep.isRemoteEndpoint || ep.isHostEndpoint) continue;
      const pod = net.podByIP(ep.ipAddress);
      const acls = pod && pod.node === node.name && !pod.hostNetwork ? podAcls(net, pod, node, cache) : [];
      const old = rendered.get(ep) ?? [];
      if (!old.length && !acls.length) continue;
      ep.policies = [...ep.policies.filter((p) => !old.includes(p as Acl)), ...acls];
      rendered.set(ep, acls);
    }
  }
}

/** Keeps the ACLs in step with policies, namespaces and pods; changes within one turn render once. */
export function followPoliciesInHns(net: ClusterNetwork): () => void {
  let queued = false;
  return net.policies.onChange(() => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      renderHnsAcls(net);
    });
  });
}
