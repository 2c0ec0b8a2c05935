// Host ports in use on a node, with kube's wildcard rule: 0.0.0.0 conflicts with every IP on the same
// protocol/port (framework/types.go HostPortInfo).

import type { Pod } from '../types.js';

export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

const ANY_IP = '0.0.0.0';

/** The host ports a pod asks for: app containers and sidecars, with kube's defaults for ip and protocol. */
export function podHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const c of [...(pod.spec?.containers ?? []), ...sidecars]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || ANY_IP, protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  return out;
}

export class HostPortInfo {
  /** ip → "protocol/port" → number of pods holding it. */
  private readonly byIP = new Map<string, Map<string, number>>();

  add(p: HostPort, delta = 1): void {
    let m = this.byIP.get(p.ip);
    if (!m) this.byIP.set(p.ip, (m = new Map()));
    const k = `${p.protocol}/${p.port}`;
    const n = (m.get(k) ?? 0) + delta;
    if (n <= 0) m.delete(k);
    else m.set(k, n);
    if (m.size === 0) this.byIP.delete(p.ip);
  }

  get size(): number {
    return this.byIP.size;
  }

  conflicts(p: HostPort): boolean {
    const k = `${p.protocol}/${p.port}`;
    if (p.ip === ANY_IP) {
      for (const m of this.byIP.values()) if (m.has(k)) return true;
      return false;
    }
    return (this.byIP.get(p.ip)?.has(k) ?? false) || (this.byIP.get(ANY_IP)?.has(k) ?? false);
  }
}
