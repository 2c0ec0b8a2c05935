// A NetworkPolicy turned once (at informer time) into what a flow check needs: parsed selectors, and per direction
// the rules with their peers and ports, or nothing when policyTypes leaves the direction out.

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from 'kubernetes-types/networking/v1.js';
import { labelSelectorAsSelector, type Selector } from '../../api/labels.js';

export type Direction = 'Ingress' | 'Egress';

export interface CompiledPeer {
  /** Pods: in the policy's namespace unless `namespaces` is given (then in the namespaces it selects). */
  pods?: Selector;
  namespaces?: Selector;
  ipBlock?: { cidr: string; except: string[] };
}

export interface CompiledPort {
  protocol: string;
  /** Undefined: every port of the protocol; a string is a named container port. */
  port?: number | string;
  endPort?: number;
}

/** One rule: undefined peers or ports allow any (an absent or empty `from`/`to`/`ports` list). */
export interface CompiledRule {
  peers?: CompiledPeer[];
  ports?: CompiledPort[];
}

export interface CompiledPolicy {
  /** `namespace/name`. */
  key: string;
  namespace: string;
  name: string;
  podSelector: Selector;
  /** The podSelector as written, for the index. */
  podSelectorSpec: LabelSelector;
  /** Rules per direction; undefined when policyTypes does not name the direction (the policy does not isolate it). */
  ingress?: CompiledRule[];
  egress?: CompiledRule[];
}

/** policyTypes as the API server defaults them (pkg/apis/networking/v1 defaults.go): Ingress, plus Egress with egress rules. */
function policyTypesOf(np: NetworkPolicy): Direction[] {
  const given = np.spec?.policyTypes;
  if (given?.length) return given as Direction[];
  return np.spec?.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
}

function peer(p: NetworkPolicyPeer): CompiledPeer {
  if (p.ipBlock) return { ipBlock: { cidr: p.ipBlock.cidr, except: [...(p.ipBlock.except ?? [])] } };
  return {
    // A peer with only namespaceSelector selects every pod of those namespaces (an absent podSelector is everything).
    pods: labelSelectorAsSelector(p.podSelector ?? {}),
    namespaces: p.namespaceSelector ? labelSelectorAsSelector(p.namespaceSelector) : undefined,
  };
}

function port(p: NetworkPolicyPort): CompiledPort {
  return { protocol: p.protocol ?? 'TCP', port: p.port, endPort: p.endPort };
}

export function compilePolicy(np: NetworkPolicy): CompiledPolicy {
  const namespace = np.metadata?.namespace ?? 'default';
  const name = np.metadata?.name ?? '';
  const types = policyTypesOf(np);
  const rules = (list: { from?: NetworkPolicyPeer[]; to?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[] | undefined): CompiledRule[] =>
    (list ?? []).map((r) => {
      const peers = r.from ?? r.to;
      return { peers: peers?.length ? peers.map(peer) : undefined, ports: r.ports?.length ? r.ports.map(port) : undefined };
    });
  const podSelectorSpec = np.spec?.podSelector ?? {};
  return {
    key: `${namespace}/${name}`, namespace, name, podSelectorSpec, podSelector: labelSelectorAsSelector(podSelectorSpec),
    ingress: types.includes('Ingress') ? rules(np.spec?.ingress) : undefined,
    egress: types.includes('Egress') ? rules(np.spec?.egress) : undefined,
  };
}
