// `winkube net check`: seed 000's verification list ("Getting Started", step 4) as a matrix over the cluster's nodes,
// pods and Services. Every cell is a flow through the model; a cell the seeds document as unsupported on Windows is
// marked as that limitation rather than as a failure.

import { WINDOWS_HOST_TO_VIP, WINDOWS_ICMP_OUT, WINDOWS_LOCAL_NODEPORT } from '../model/trace.js';
import type { ClusterNetwork } from '../model/cluster-network.js';
import type { Flow, NodeNet, PodNet, Trace } from '../model/types.js';

export type CellResult = 'pass' | 'fail' | 'limitation';

export interface CheckCell {
  check: string;
  from: string;
  to: string;
  result: CellResult;
  /** The trace's fate, and why when it did not get through. */
  detail: string;
}

/** Reasons the seeds document as platform limitations: a cell that fails for one of them is expected. */
const DOCUMENTED = [WINDOWS_HOST_TO_VIP, WINDOWS_LOCAL_NODEPORT, WINDOWS_ICMP_OUT];

/** An address outside the cluster for the outbound check (TEST-NET-3, never a real host). */
export const OUTSIDE_TARGET = '203.0.113.10';

export interface NetCheckOptions {
  /** Resolves a Service name from a pod with the pod's own resolver rules (undefined: not resolved). */
  resolve(from: PodNet, name: string): Promise<string | undefined>;
  /** Only these namespaces' pods and Services (default: every namespace but kube-system). */
  namespaces?: string[];
}

function cell(check: string, from: string, to: string, t: Trace, want: Trace['fate'][] = ['delivered']): CheckCell {
  const ok = want.includes(t.fate);
  const documented = !ok && t.reason !== undefined && DOCUMENTED.includes(t.reason);
  return { check, from, to, result: ok ? 'pass' : documented ? 'limitation' : 'fail', detail: t.reason ? `${t.fate}: ${t.reason}` : t.fate };
}

const podLabel = (p: PodNet) => `pod ${p.namespace}/${p.name}`;

/** The first TCP port a pod serves (its listeners), else undefined. */
function servedPort(p: PodNet): number | undefined {
  for (const port of [80, 8080, 443, 9376, 8000, 5000, 6379, 53]) if (p.listenerAt(port, 'TCP')) return port;
  return undefined;
}

export async function netCheck(net: ClusterNetwork, o: NetCheckOptions): Promise<CheckCell[]> {
  const inScope = (ns: string) => (o.namespaces ? o.namespaces.includes(ns) : ns !== 'kube-system');
  const pods = net.allPods().filter((p) => inScope(p.namespace) && !p.hostNetwork).sort((a, b) => a.ip.localeCompare(b.ip));
  const nodes = [...net.nodes.values()].sort((a, b) => a.name.localeCompare(b.name));
  const controlPlane = nodes.find((n) => n.os === 'linux') as NodeNet | undefined;
  const cells: CheckCell[] = [];
  const trace = (f: Flow) => net.trace(f, { peek: true });

  // Node to pod across the network: curl the pod's port from the Linux control plane node.
  if (controlPlane) {
    for (const p of pods) {
      const port = servedPort(p);
      const f: Flow = port ? { from: { kind: 'node', node: controlPlane.name }, to: p.ip, protocol: 'TCP', port } : { from: { kind: 'node', node: controlPlane.name }, to: p.ip, protocol: 'ICMP' };
      cells.push(cell('node → pod', `node ${controlPlane.name}`, `${podLabel(p)} ${p.ip}${port ? `:${port}` : ''}`, trace(f)));
    }
  }
  // Pod to pod: ping a pod on the same node and one on another node.
  for (const p of pods) {
    const same = pods.find((q) => q !== p && q.node === p.node);
    const other = pods.find((q) => q.node !== p.node);
    for (const [what, q] of [['pod → pod (same node)', same], ['pod → pod (across nodes)', other]] as const) {
      if (q) cells.push(cell(what, podLabel(p), `${podLabel(q)} ${q.ip}`, trace({ from: { kind: 'pod', ip: p.ip }, to: q.ip, protocol: 'ICMP' })));
    }
  }
  // Services: the VIP from the control plane and from each pod, discovery by name, NodePorts from the control plane
  // and from outside.
  const services = net.allServices().filter((s) => inScope(s.metadata?.namespace ?? 'default'));
  for (const svc of services) {
    const ns = svc.metadata?.namespace ?? 'default';
    const name = svc.metadata?.name ?? '';
    const ip = svc.spec?.clusterIP;
    const port = svc.spec?.ports?.[0];
    if (!ip || ip === 'None' || !port || svc.spec?.type === 'ExternalName') continue;
    const proto = port.protocol === 'UDP' ? 'UDP' : 'TCP';
    const target = `service ${ns}/${name} ${ip}:${port.port}`;
    if (controlPlane) cells.push(cell('node → Service IP', `node ${controlPlane.name}`, target, trace({ from: { kind: 'node', node: controlPlane.name }, to: ip, protocol: proto, port: port.port })));
    for (const n of nodes.filter((x) => x.os === 'windows')) {
      cells.push(cell('node → Service IP', `node ${n.name}`, target, trace({ from: { kind: 'node', node: n.name }, to: ip, protocol: proto, port: port.port })));
    }
    for (const p of pods) {
      cells.push(cell('pod → Service IP', podLabel(p), target, trace({ from: { kind: 'pod', ip: p.ip }, to: ip, protocol: proto, port: port.port })));
      const resolved = await o.resolve(p, name);
      if (resolved === undefined) {
        cells.push({ check: 'discovery by name', from: podLabel(p), to: `${name} (${ns})`, result: p.namespace === ns ? 'fail' : 'limitation', detail: p.namespace === ns ? `${name} did not resolve` : `${name} is in namespace ${ns}: a short name resolves only in its own namespace` });
      } else {
        cells.push(cell('discovery by name', podLabel(p), `${name} → ${resolved}:${port.port}`, trace({ from: { kind: 'pod', ip: p.ip }, to: resolved, protocol: proto, port: port.port })));
      }
    }
    if (port.nodePort) {
      for (const n of nodes) {
        if (controlPlane) cells.push(cell('NodePort from the control plane', `node ${controlPlane.name}`, `${n.name} ${n.ip}:${port.nodePort}`, trace({ from: { kind: 'node', node: controlPlane.name }, to: n.ip, protocol: proto, port: port.nodePort })));
        cells.push(cell('NodePort from outside', 'outside', `${n.name} ${n.ip}:${port.nodePort}`, trace({ from: { kind: 'outside' }, to: n.ip, protocol: proto, port: port.nodePort })));
      }
    }
  }
  // Outbound: TCP leaves the cluster (SNAT); ping out is a documented Windows limitation.
  for (const p of pods) {
    cells.push(cell('outbound (TCP)', podLabel(p), `${OUTSIDE_TARGET}:80`, trace({ from: { kind: 'pod', ip: p.ip }, to: OUTSIDE_TARGET, protocol: 'TCP', port: 80 }), ['egress']));
    cells.push(cell('outbound (ICMP)', podLabel(p), OUTSIDE_TARGET, trace({ from: { kind: 'pod', ip: p.ip }, to: OUTSIDE_TARGET, protocol: 'ICMP' }), ['egress']));
  }
  return cells;
}

/** The matrix as text: one line per cell, grouped by check, with a summary line. */
export function formatNetCheck(cells: CheckCell[]): string {
  const mark: Record<CellResult, string> = { pass: 'PASS', fail: 'FAIL', limitation: 'LIMIT' };
  const lines: string[] = [];
  let group = '';
  // One block per check, in the order the checks first appear (the seed's list order).
  const order = [...new Set(cells.map((c) => c.check))];
  const sorted = [...cells].sort((a, b) => order.indexOf(a.check) - order.indexOf(b.check));
  for (const c of sorted) {
    if (c.check !== group) {
      group = c.check;
      lines.push('', `${group}:`);
    }
    lines.push(`  ${mark[c.result].padEnd(5)} ${c.from.padEnd(34)} → ${c.to.padEnd(48)} ${c.result === 'pass' ? '' : c.detail}`.trimEnd());
  }
  const count = (r: CellResult) => cells.filter((c) => c.result === r).length;
  lines.push('', `${count('pass')} passed, ${count('limitation')} documented Windows limitations, ${count('fail')} failed`);
  return `${lines.join('\n').trimStart()}\n`;
}
