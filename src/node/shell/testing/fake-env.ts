// Test doubles: a container with a fake clock (sleep advances time at once), a scripted network model, and a
// helper that runs a command and collects its output.

import type { ContainerEnv, DnsResult, HttpClientRequest, HttpClientResponse, HttpClientError, Listener, NetworkView, RunResult, ShellClock, Toolset } from '../interfaces.js';
import { imageFs, kubeletHostsFile, mountKubeletFiles, resolvConf, runCommand } from '../index.js';
import type { ImageProgram } from '../fs/seed-extras.js';

export const T0 = Date.UTC(2024, 5, 1, 12, 0, 0);

export class FakeClock implements ShellClock {
  t = T0;
  slept: number[] = [];
  now(): number { return this.t; }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.slept.push(ms);
    this.t += ms;
    await Promise.resolve();
    if (signal?.aborted) throw signal.reason;
  }
}

export interface FakeNet {
  /** name → A record (fully qualified). */
  a: Record<string, string>;
  ptr: Record<string, string>;
  /** `ip:port` → result; unknown ports are refused, unknown IPs unreachable. */
  tcp: Record<string, 'open' | 'refused' | 'timeout' | 'unreachable'>;
  /** `ip:port` → HTTP responder. */
  http: Record<string, (req: HttpClientRequest) => HttpClientResponse>;
  ping: Record<string, number | 'timeout' | 'unreachable'>;
  dnsTimeout?: boolean;
}

export function fakeNetwork(n: Partial<FakeNet>, os: 'linux' | 'windows', search = ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local']): NetworkView & { lookups: string[] } {
  const net: FakeNet = { a: {}, ptr: {}, tcp: {}, http: {}, ping: {}, ...n };
  const lookups: string[] = [];
  return {
    lookups,
    interfaces: [{ name: os === 'windows' ? 'vEthernet (cbr0_ep)' : 'eth0', ip: '10.244.1.5', prefix: 24, mac: os === 'windows' ? '00-15-5D-E3-A1-2B' : '9a:3b:1c:2d:3e:4f', gateway: '10.244.1.1' }],
    dns: { nameservers: ['10.96.0.10'], search, ndots: 5 },
    async lookup(name, type): Promise<DnsResult> {
      lookups.push(`${type} ${name}`);
      if (net.dnsTimeout) return { answers: [], rcode: 'TIMEOUT', server: '10.96.0.10' };
      const clean = name.replace(/\.$/, '');
      if (type === 'PTR') {
        const v = net.ptr[clean];
        return v ? { answers: [{ name: clean, type: 'PTR', data: v, ttl: 30 }], rcode: 'NOERROR', server: '10.96.0.10', authoritative: true } : { answers: [], rcode: 'NXDOMAIN', server: '10.96.0.10' };
      }
      const ip = net.a[clean];
      if (!ip) return { answers: [], rcode: 'NXDOMAIN', server: '10.96.0.10', authoritative: true };
      if (type !== 'A') return { answers: [], rcode: 'NOERROR', server: '10.96.0.10', authoritative: true };
      return { answers: [{ name: clean, type: 'A', data: ip, ttl: 5 }], rcode: 'NOERROR', server: '10.96.0.10', authoritative: clean.endsWith('cluster.local') };
    },
    async connect(ip, port) {
      return net.tcp[`${ip}:${port}`] ?? (net.http[`${ip}:${port}`] ? 'open' : ip.startsWith('10.') ? 'refused' : 'unreachable');
    },
    async http(req): Promise<HttpClientResponse | HttpClientError> {
      const u = new URL(req.url);
      const key = `${u.hostname}:${u.port || 80}`;
      const h = net.http[key];
      if (h) return h(req);
      const t = net.tcp[key];
      if (t === 'timeout') return { error: 'timeout' };
      if (t === 'unreachable' || !u.hostname.startsWith('10.')) return { error: 'unreachable' };
      return { error: 'refused' };
    },
    async ping(ip) {
      const p = net.ping[ip];
      if (p === undefined) return ip.startsWith('10.') ? { rttMs: 0.42, ttl: 64 } : 'timeout';
      return typeof p === 'number' ? { rttMs: p, ttl: os === 'windows' ? 128 : 64 } : p;
    },
  };
}

export interface FakeEnvOptions {
  os?: 'linux' | 'windows';
  toolset?: Toolset;
  extras?: ImageProgram[];
  user?: string;
  uid?: number;
  env?: Record<string, string>;
  hostname?: string;
  net?: Partial<FakeNet>;
  gmsa?: { domain: string };
  build?: string;
  workingDir?: string;
}

export type FakeEnv = ContainerEnv & { clock: FakeClock; network: ReturnType<typeof fakeNetwork>; listening: Listener[] };

export function fakeEnv(o: FakeEnvOptions = {}): FakeEnv {
  const os = o.os ?? 'linux';
  const toolset = o.toolset ?? (os === 'windows' ? 'servercore' : 'busybox');
  const clock = new FakeClock();
  const hostname = o.hostname ?? 'web-0';
  const build = o.build ?? '10.0.17763';
  const system = {
    osImage: os === 'windows' ? (build === '10.0.20348' ? 'Windows Server 2022 Datacenter' : 'Windows Server 2019 Datacenter') : 'Debian GNU/Linux 12 (bookworm)',
    kernelVersion: os === 'windows' ? `${build}.6893` : '6.1.0-18-amd64', arch: 'amd64', windowsBuild: os === 'windows' ? build : undefined,
    windowsUBR: os === 'windows' ? 6893 : undefined, nodeName: 'node-1', bootTimeMs: T0 - 3_600_000 * 26, memoryBytes: 8 * 1024 ** 3, cpus: 2,
  };
  const user = o.user ?? (os === 'windows' ? 'ContainerAdministrator' : 'root');
  const fs = imageFs({ os, toolset, extras: o.extras, hostname, system, now: T0, userName: user });
  const network = fakeNetwork(o.net ?? {}, os);
  if (os === 'linux') mountKubeletFiles(fs, { hosts: kubeletHostsFile({ podIPs: ['10.244.1.5'], hostname }), resolvConf: resolvConf({ nameservers: ['10.96.0.10'], search: network.dns.search, ndots: 5 }), hostname });
  const listening: Listener[] = [];
  return {
    os, toolset, hostname, user: { name: user, uid: o.uid }, env: o.env ?? {}, workingDir: o.workingDir ?? (os === 'windows' ? 'C:\\' : '/'),
    fs, system, network, clock, gmsa: o.gmsa, listening,
    processes: () => (os === 'windows'
      ? [{ pid: 4, name: 'System', memKB: 140, sessionName: '' }, { pid: 1012, name: 'smss.exe', memKB: 1204 }, { pid: 1300, name: 'CExecSvc.exe', memKB: 5120 }, { pid: 2120, name: 'cmd.exe', memKB: 3_212 }]
      : [{ pid: 1, name: 'sleep 3600', memKB: 400 }]),
    listen(l) {
      if (listening.some((x) => x.port === l.port && x.protocol === l.protocol)) return 'in-use';
      listening.push(l);
      return { close: () => { const i = listening.indexOf(l); if (i >= 0) listening.splice(i, 1); } };
    },
  };
}

export interface RunOutput { code: number; stdout: string; stderr: string; out: Buffer; result: RunResult }

/** Keystrokes typed while a session runs. */
export class Keyboard implements AsyncIterable<string> {
  private queue: (string | null)[] = [];
  private wake?: () => void;
  type(s: string): void { this.queue.push(s); this.wake?.(); }
  close(): void { this.queue.push(null); this.wake?.(); }
  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      while (!this.queue.length) await new Promise<void>((r) => { this.wake = r; });
      const s = this.queue.shift()!;
      if (s === null) return;
      yield s;
    }
  }
}

export async function run(env: ContainerEnv, argv: string[], o: { stdin?: string | Buffer | (string | Buffer)[] | Keyboard; tty?: boolean; signal?: AbortSignal; onStdout?: (s: string) => void } = {}): Promise<RunOutput> {
  let stdout = '';
  let stderr = '';
  const raw: Buffer[] = [];
  const keyboard = o.stdin instanceof Keyboard ? o.stdin : undefined;
  const chunks = o.stdin === undefined || keyboard ? undefined : Array.isArray(o.stdin) ? o.stdin : [o.stdin as string | Buffer];
  const result = await runCommand(argv, env, {
    stdin: keyboard ?? (chunks && (async function* () { for (const c of chunks) yield c; })()),
    stdout: (c) => { raw.push(Buffer.isBuffer(c) ? c : Buffer.from(c)); stdout += c.toString(); o.onStdout?.(c.toString()); },
    stderr: (c) => { stderr += c.toString(); },
    tty: o.tty,
    signal: o.signal,
  });
  return { code: result.kind === 'exited' ? result.exitCode : -1, stdout, stderr, out: Buffer.concat(raw), result };
}

/** Sends an HTTP request to a listener the container opened. */
export async function request(env: FakeEnv, port: number, path = '/', remote = '10.244.0.7'): Promise<{ status: number; body: string; headers: Record<string, string> }> {
  const l = env.listening.find((x) => x.port === port);
  if (!l?.handler) throw new Error(`nothing serves HTTP on port ${port}`);
  const r = await l.handler({ method: 'GET', path, headers: { Host: `10.244.1.5:${port}`, 'User-Agent': 'curl/7.88.1' }, body: Buffer.alloc(0), remoteAddress: remote, remotePort: 51234, localAddress: '10.244.1.5', localPort: port });
  return { status: r.status, body: r.body.toString(), headers: r.headers };
}

/** Waits until the predicate holds, letting pending promises run. */
export async function until(pred: () => boolean, tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (pred()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('condition not reached');
}
