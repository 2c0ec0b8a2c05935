// Calico for Windows' rendering of NetworkPolicy into HNS: per endpoint of an isolated pod, one Allow ACL per rule it
// can express (remote addresses resolved from the peers, ports), then a Block for the direction, so that
// `winkube hns <node> endpoints` (Get-HnsEndpoint) shows what the flow model enforces. The model decides flows from
// the policies themselves (evaluate.ts); these ACLs are the view of it a Windows admin gets.
// Priorities as Felix gives them: rules from 1000, the default block one higher (felix/dataplane/windows/policysets).
//
// Re-rendering is incremental, as Felix's calculation graph is: between passes the renderer diffs pods (labels,
// address, namespace), namespace labels and policies, recomputes only the peer address sets (Felix's IP sets) a
// change can touch, and re-renders only the endpoints whose selecting policies changed or whose rules' addresses
// did. A renderer with no history (renderHnsAcls) renders everything; both end in the same ACLs.

import type { Labels } from '../../api/labels.js';
import type { HnsEndpoint, HnsEndpointPolicy } from '../hns/types.js';
import type { ClusterNetwork } from '../model/cluster-network.js';
import type { NodeNet, PodNet } from '../model/types.js';
import { networkPolicyEnforcement } from '../profile.js';
import type { CompiledPeer, CompiledPolicy, CompiledRule, Direction } from './compile.js';
import { policyPod } from './flow-check.js';

type Acl = Extract<HnsEndpointPolicy, { type: 'ACL' }>;

const RULE_BASE_PRIORITY = 1000;
const PROTOCOL: Record<string, string> = { TCP: '6', UDP: '17', SCTP: '132' };

/** The ACLs a renderer put on each endpoint, so a re-render replaces exactly them (CNI-config ACLs stay). */
const rendered = new WeakMap<HnsEndpoint, Acl[]>();

/** What the renderer remembers of a pod from the last pass (`pass`: the last pass that found it). */
interface PodSeen { labels: Labels; labelsJson: string; namespace: string; ip: string; hostNetwork: boolean; pass: number }
/** A pod that came, went or changed since the last pass: its old and new state (undefined: absent). */
interface PodChange { pod: PodNet; before?: PodSeen; after?: PodSeen }
/** What an endpoint was last rendered from: its pod and the keys of the policies that selected it. */
interface EndpointSeen { pod: PodNet | undefined; policies: string[] }

const direction = (d: Direction) => (d === 'Ingress' ? 'In' : 'Out') as Acl['direction'];
const rulesOf = (p: CompiledPolicy, d: Direction) => (d === 'Ingress' ? p.ingress : p.egress);

function seen(pod: PodNet, pass: number): PodSeen {
  const labels = pod.labels?.();
  return { labels, labelsJson: JSON.stringify(labels ?? {}), namespace: pod.namespace, ip: pod.ip, hostNetwork: pod.hostNetwork, pass };
}

/** A peer's addresses in sorted order (as the rule's RemoteAddresses lists them), kept by membership changes. */
class IpSet {
  readonly sorted: string[];
  constructor(ips: string[]) {
    this.sorted = [...new Set(ips)].sort();
  }

  private at(ip: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid] < ip) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(ip: string): void {
    const i = this.at(ip);
    if (this.sorted[i] !== ip) this.sorted.splice(i, 0, ip);
  }

  remove(ip: string): void {
    const i = this.at(ip);
    if (this.sorted[i] === ip) this.sorted.splice(i, 1);
  }
}

/** One Calico-for-Windows agent's view of the cluster's policy, rendered into the HNS endpoints of its nodes. */
export class HnsAclRenderer {
  private readonly pods = new Map<PodNet, PodSeen>();
  private passes = 0;
  /** Pod-network pods by namespace: a peer looks only at the namespaces it can select. */
  private readonly byNamespace = new Map<string, Set<PodNet>>();
  private readonly namespaceLabels = new Map<string, string>();
  private readonly policies = new Map<string, CompiledPolicy>();
  /** Pod addresses a peer selects (Felix's IP sets), or its CIDR; undefined when Windows skips it. */
  private readonly peers = new Map<CompiledPeer, IpSet | undefined>();
  /** A rule's ACLs, the same for every endpoint its policy selects, and the remote addresses they were built from. */
  private readonly rules = new Map<CompiledRule, { acls: Acl[]; remote: string }>();
  private readonly endpoints = new WeakMap<HnsEndpoint, EndpointSeen>();

  constructor(private readonly net: ClusterNetwork) {}

  /** Brings every pod endpoint on the Calico-enforcing Windows nodes up to date; returns how many were re-rendered. */
  render(): number {
    const changes = this.diffPods();
    const namespacesChanged = this.diffNamespaces();
    const policyNamespaces = this.diffPolicies();
    const aclsChanged = this.refreshRules(changes, namespacesChanged);
    const changedPods = new Set(changes.map((c) => c.pod));
    let count = 0;
    for (const node of this.net.nodes.values()) {
      if (!node.hns || node.os !== 'windows' || networkPolicyEnforcement(node.os, node.network, node.windowsBuild).engine !== 'Calico') continue;
      for (const ep of node.hns.endpoints.values()) {
        if (ep.isRemoteEndpoint || ep.isHostEndpoint) continue;
        const found = this.net.podByIP(ep.ipAddress);
        const pod = found && found.node === node.name && !found.hostNetwork ? found : undefined;
        const last = this.endpoints.get(ep);
        const dirty = !last || last.pod !== pod
          || (pod !== undefined && (changedPods.has(pod) || policyNamespaces.has(pod.namespace)))
          || (aclsChanged.size > 0 && last.policies.some((k) => aclsChanged.has(k)));
        if (!dirty) continue;
        count++;
        const { acls, policies } = pod ? this.podAcls(pod, node) : { acls: [], policies: [] };
        this.endpoints.set(ep, { pod, policies });
        const old = rendered.get(ep) ?? [];
        if (!old.length && !acls.length) continue;
        ep.policies = [...ep.policies.filter((p) => !old.includes(p as Acl)), ...acls];
        rendered.set(ep, acls);
      }
    }
    return count;
  }

  /** Pods added, removed, relabelled, readdressed or moved between namespaces since the last pass. */
  private diffPods(): PodChange[] {
    const out: PodChange[] = [];
    const pass = ++this.passes;
    for (const pod of this.net.allPods()) {
      const before = this.pods.get(pod);
      const labels = pod.labels?.();
      // The informer replaces a pod's object on update: the same labels object is the same labels.
      if (before && before.labels === labels && before.ip === pod.ip && before.namespace === pod.namespace && before.hostNetwork === pod.hostNetwork) {
        before.pass = pass;
        continue;
      }
      const after = seen(pod, pass);
      if (before && before.labelsJson === after.labelsJson && before.ip === after.ip && before.namespace === after.namespace && before.hostNetwork === after.hostNetwork) {
        before.labels = after.labels;
        before.pass = pass;
        continue;
      }
      if (before) before.pass = pass;
      out.push({ pod, before, after });
    }
    for (const [pod, before] of this.pods) if (before.pass !== pass) out.push({ pod, before });
    for (const c of out) {
      if (c.before && !c.before.hostNetwork) this.byNamespace.get(c.before.namespace)?.delete(c.pod);
      if (c.after) {
        this.pods.set(c.pod, c.after);
        if (!c.after.hostNetwork) {
          let set = this.byNamespace.get(c.after.namespace);
          if (!set) this.byNamespace.set(c.after.namespace, (set = new Set()));
          set.add(c.pod);
        }
      } else this.pods.delete(c.pod);
    }
    return out;
  }

  /** Whether any namespace that holds pods changed its labels (namespaceSelector peers then resolve again). */
  private diffNamespaces(): boolean {
    let changed = false;
    for (const ns of new Set([...this.byNamespace.keys(), ...this.namespaceLabels.keys()])) {
      const now = JSON.stringify(this.net.policies.namespaceLabels(ns));
      if (this.namespaceLabels.get(ns) !== now) {
        this.namespaceLabels.set(ns, now);
        changed = true;
      }
    }
    return changed;
  }

  /** The namespaces where a policy was added, replaced or deleted: their endpoints' policy sets may differ. */
  private diffPolicies(): Set<string> {
    const out = new Set<string>();
    const now = new Map(this.net.policies.index.all().map((p) => [p.key, p]));
    for (const [key, p] of now) if (this.policies.get(key) !== p) out.add(p.namespace);
    for (const [key, p] of this.policies) {
      if (now.get(key) === p) continue;
      out.add(p.namespace);
      // A replaced or deleted policy's peers and rules are not asked for again.
      for (const d of ['Ingress', 'Egress'] as const) for (const r of rulesOf(p, d) ?? []) {
        this.rules.delete(r);
        for (const peer of r.peers ?? []) this.peers.delete(peer);
      }
    }
    this.policies.clear();
    for (const [k, p] of now) this.policies.set(k, p);
    return out;
  }

  /**
   * Updates the peers' address sets by the pod changes that move a pod into or out of them (a namespace relabel
   * resolves namespaceSelector peers again), rebuilds the rules over changed sets, and returns the keys of the
   * policies whose rendered ACLs changed.
   */
  private refreshRules(changes: PodChange[], namespacesChanged: boolean): Set<string> {
    const out = new Set<string>();
    for (const policy of this.policies.values()) {
      for (const d of ['Ingress', 'Egress'] as const) {
        for (const rule of rulesOf(policy, d) ?? []) {
          const cached = this.rules.get(rule);
          let stale = !cached;
          for (const peer of rule.peers ?? []) {
            if (!this.peers.has(peer)) stale = true;
            else if (peer.namespaces && namespacesChanged) {
              this.peers.delete(peer);
              stale = true;
            } else if (this.applyChanges(policy, peer, changes)) stale = true;
          }
          if (!stale) continue;
          const built = this.buildRule(policy, rule, d);
          if (cached && cached.remote === built.remote) continue;
          this.rules.set(rule, built);
          if (cached) out.add(policy.key);
        }
      }
    }
    return out;
  }

  /** Moves the changed pods into or out of a cached peer's set; whether the set changed. */
  private applyChanges(policy: CompiledPolicy, peer: CompiledPeer, changes: PodChange[]): boolean {
    const set = this.peers.get(peer);
    if (peer.ipBlock || !set || changes.length === 0) return false;
    const member = (x: PodSeen | undefined) => {
      if (!x || x.hostNetwork) return false;
      const nsOk = peer.namespaces ? peer.namespaces.matches(this.net.policies.namespaceLabels(x.namespace)) : x.namespace === policy.namespace;
      return nsOk && (peer.pods?.matches(x.labels) ?? true);
    };
    let changed = false;
    for (const c of changes) {
      const was = member(c.before);
      const is = member(c.after);
      if (was === is && (!is || c.before!.ip === c.after!.ip)) continue;
      if (was) set.remove(c.before!.ip);
      if (is) set.add(c.after!.ip);
      changed = true;
    }
    return changed;
  }

  private peerAddresses(policy: CompiledPolicy, p: CompiledPeer): readonly string[] | undefined {
    if (!this.peers.has(p)) {
      let found: IpSet | undefined;
      if (p.ipBlock) found = p.ipBlock.except.length ? undefined : new IpSet([p.ipBlock.cidr]);
      else {
        const ips: string[] = [];
        for (const [ns, pods] of this.byNamespace) {
          const nsOk = p.namespaces ? p.namespaces.matches(this.net.policies.namespaceLabels(ns)) : ns === policy.namespace;
          if (!nsOk) continue;
          for (const pod of pods) if (p.pods?.matches(pod.labels?.()) ?? true) ips.push(pod.ip);
        }
        found = new IpSet(ips);
      }
      this.peers.set(p, found);
    }
    return this.peers.get(p)?.sorted;
  }

  /** A rule's ACLs: per port an Allow from the union of its peers' addresses (Windows-skipped parts left out). */
  private buildRule(policy: CompiledPolicy, rule: CompiledRule, d: Direction): { acls: Acl[]; remote: string } {
    let remote: string | undefined;
    if (rule.peers) {
      const lists = rule.peers.map((p) => this.peerAddresses(policy, p)).filter((a): a is readonly string[] => !!a && a.length > 0);
      // Every peer skipped or none selected: the rule matches nothing, so it programs nothing.
      if (lists.length === 0) return { acls: [], remote: '' };
      remote = (lists.length === 1 ? lists[0] : [...new Set(lists.flat())].sort()).join(',');
    }
    const base = { type: 'ACL' as const, action: 'Allow' as const, direction: direction(d), priority: RULE_BASE_PRIORITY, ...(remote ? { remoteAddresses: remote } : {}) };
    if (!rule.ports) return { acls: [base], remote: remote ?? '*' };
    const acls: Acl[] = [];
    for (const port of rule.ports) {
      if (typeof port.port === 'string') continue; // named ports: skipped on Windows
      const ports = port.port === undefined ? undefined : port.endPort !== undefined ? `${port.port}-${port.endPort}` : String(port.port);
      const acl: Acl = { ...base, protocols: PROTOCOL[port.protocol] ?? port.protocol };
      if (ports) Object.assign(acl, d === 'Ingress' ? { localPorts: ports } : { remotePorts: ports });
      acls.push(acl);
    }
    return { acls, remote: remote ?? '*' };
  }

  private ruleAcls(policy: CompiledPolicy, rule: CompiledRule, d: Direction): Acl[] {
    let r = this.rules.get(rule);
    if (!r) this.rules.set(rule, (r = this.buildRule(policy, rule, d)));
    return r.acls;
  }

  /** The ACLs of one pod's endpoint (per isolated direction its allow rules and the closing block) and the policies behind them. */
  private podAcls(pod: PodNet, node: NodeNet): { acls: Acl[]; policies: string[] } {
    const subject = policyPod(pod);
    const selecting = this.net.policies.index.selecting(subject.namespace, subject.labels);
    const acls: Acl[] = [];
    for (const d of ['Ingress', 'Egress'] as const) {
      const applying = selecting.filter((p) => rulesOf(p, d));
      if (!applying.length) continue;
      // The resident node is always let in (network-policies "What you can't do"), as Calico's host rules do.
      if (d === 'Ingress') acls.push({ type: 'ACL', action: 'Allow', direction: 'In', remoteAddresses: node.ip, priority: RULE_BASE_PRIORITY });
      for (const p of applying) for (const r of rulesOf(p, d) ?? []) acls.push(...this.ruleAcls(p, r, d));
      acls.push({ type: 'ACL', action: 'Block', direction: direction(d), priority: RULE_BASE_PRIORITY + 1 });
    }
    return { acls, policies: selecting.map((p) => p.key) };
  }
}

/** Renders the ACLs of every pod endpoint on the Windows nodes whose Calico enforces policy, from scratch. */
export function renderHnsAcls(net: ClusterNetwork): void {
  new HnsAclRenderer(net).render();
}

/** Keeps the ACLs in step with policies, namespaces and pods; changes within one turn render once, incrementally. */
export function followPoliciesInHns(net: ClusterNetwork): () => void {
  const renderer = new HnsAclRenderer(net);
  let queued = false;
  return net.policies.onChange(() => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      renderer.render();
    });
  });
}
