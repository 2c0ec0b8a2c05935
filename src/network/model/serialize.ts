// Flows named the way a user names them (pod/NAME, node/NAME, svc/NAME, outside, an address) and traces as plain
// JSON, for `winkube net trace` and the node agent's inspection endpoint.

import type { ClusterNetwork } from './cluster-network.js';
import { isIPv6 } from '../ipam/cidr6.js';
import type { Fate, FlowProtocol, FlowSource, Hop, Trace } from './types.js';

export interface SerializedTrace {
  flow: { from: string; to: string; protocol: FlowProtocol; port?: number };
  fate: Fate;
  reason?: string;
  hops: Hop[];
  target?: { ip: string; port?: number; pod?: string; node?: string; program?: string };
  seenSource?: string;
  seenDestination?: string;
}

export class FlowSpecError extends Error {}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const isAddress = (s: string) => IPV4.test(s) || isIPv6(s);

function findPod(net: ClusterNetwork, ref: string) {
  const parts = ref.split('/');
  const [ns, name] = parts.length === 2 ? parts : [undefined, parts[0]];
  const found = net.allPods().filter((p) => p.name === name && (ns === undefined || p.namespace === ns));
  if (found.length === 0) throw new FlowSpecError(`no running pod ${ref}${ns ? '' : ' (in any namespace)'}`);
  if (found.length > 1) throw new FlowSpecError(`pod name ${name} is in several namespaces: say pod/NAMESPACE/${name}`);
  return found[0];
}

/** `pod/web-1`, `pod/ns/web-1`, `node/win-1`, `outside`, or an address. */
export function parseSource(net: ClusterNetwork, spec: string): FlowSource {
  if (spec === 'outside') return { kind: 'outside' };
  if (spec.startsWith('pod/')) return { kind: 'pod', ip: findPod(net, spec.slice(4)).ip };
  if (spec.startsWith('node/')) {
    const name = spec.slice(5);
    if (!net.nodes.has(name)) throw new FlowSpecError(`no node ${name}`);
    return { kind: 'node', node: name };
  }
  if (isAddress(spec)) {
    if (net.podByIP(spec)) return { kind: 'pod', ip: spec };
    const node = net.nodeByIP(spec);
    return node ? { kind: 'node', node: node.name } : { kind: 'outside', ip: spec };
  }
  throw new FlowSpecError(`cannot read source "${spec}": want pod/NAME, node/NAME, outside or an IP address`);
}

/** A destination as an address: pods and nodes by name, Services by their ClusterIP. */
export function parseDestination(net: ClusterNetwork, spec: string, namespace = 'default'): string {
  if (isAddress(spec)) return spec;
  if (spec.startsWith('pod/')) return findPod(net, spec.slice(4)).ip;
  if (spec.startsWith('node/')) {
    const node = net.nodes.get(spec.slice(5));
    if (!node) throw new FlowSpecError(`no node ${spec.slice(5)}`);
    return node.ip;
  }
  if (spec.startsWith('svc/')) {
    const parts = spec.slice(4).split('/');
    const [ns, name] = parts.length === 2 ? parts : [namespace, parts[0]];
    const ip = net.service(ns, name)?.spec?.clusterIP;
    if (!ip || ip === 'None') throw new FlowSpecError(`no Service ${ns}/${name} with a ClusterIP`);
    return ip;
  }
  throw new FlowSpecError(`cannot read destination "${spec}": want pod/NAME, node/NAME, svc/NAME or an IP address`);
}

export function serializeTrace(t: Trace, from: string): SerializedTrace {
  const target = t.target && {
    ip: t.target.ip, port: t.target.port,
    pod: t.target.pod ? `${t.target.pod.namespace}/${t.target.pod.name}` : undefined,
    node: t.target.node?.name ?? t.target.pod?.node, program: t.target.listener?.program,
  };
  return {
    flow: { from, to: t.flow.to, protocol: t.flow.protocol, port: t.flow.port },
    fate: t.fate, reason: t.reason, hops: t.hops, target, seenSource: t.seenSource, seenDestination: t.seenDestination,
  };
}
