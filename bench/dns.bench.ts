// Cluster DNS benchmark, through `winkube up` as a user runs it: queries per second on loopback against the server
// up prints as "DNS: 127.0.0.1:PORT", over UDP (a window of queries in flight on a few sockets) and TCP (pipelined on
// one connection), with a mix of names: a ClusterIP Service, a headless Service's endpoints, an NXDOMAIN, an SRV and
// a PTR. The target is ≥ 20,000 queries/s (issue 9).
// Run: npx tsc -p . && node dist/bench/dns.bench.js   (table, then one JSON line; BENCH_DNS_SECONDS, BENCH_DNS_WINDOW)

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';

const ROOT = new URL('../..', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 5);
const WINDOW = Number(process.env.BENCH_DNS_WINDOW ?? 64);
const SOCKETS = 4;

const QUESTIONS: { name: string; type: 'A' | 'SRV' | 'PTR' }[] = [
  { name: 'kubernetes.default.svc.cluster.local', type: 'A' },
  { name: 'db.bench.svc.cluster.local', type: 'A' },
  { name: 'nope.bench.svc.cluster.local', type: 'A' },
  { name: '_dns._udp.kube-dns.kube-system.svc.cluster.local', type: 'SRV' },
  { name: '10.0.96.10.in-addr.arpa', type: 'PTR' },
];

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

async function up(dir: string): Promise<{ proc: ChildProcess; kubeconfig: string; dns: { host: string; port: number } }> {
  const kubeconfig = join(dir, 'kubeconfig');
  const proc = spawn(process.execPath, [join(ROOT, 'bin', 'winkube.js'), 'up', '--data-dir', dir, '--port', '0', '--log-level', 'error', '--dashboard=false'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 120_000;
  while (!existsSync(kubeconfig) || !/^DNS: /m.test(out)) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`winkube up did not become ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const m = /^DNS: ([\d.]+):(\d+)$/m.exec(out)!;
  return { proc, kubeconfig, dns: { host: m[1], port: Number(m[2]) } };
}

function kubectl(kubeconfig: string, args: string[], input?: string): string {
  const r = spawnSync('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8', input });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const packets = QUESTIONS.map((q, i) => dnsPacket.encode({ type: 'query', id: i, flags: dnsPacket.RECURSION_DESIRED, questions: [q] }));

/** UDP: WINDOW queries in flight over SOCKETS sockets; each reply sends the next query. */
async function udpLoad(host: string, port: number, ms: number): Promise<{ qps: number; lat: number[]; lost: number }> {
  const lat: number[] = [];
  let done = 0;
  let sent = 0;
  const end = Date.now() + ms;
  const started = process.hrtime.bigint();
  const sockets = Array.from({ length: SOCKETS }, () => createSocket('udp4'));
  await new Promise<void>((resolve) => {
    let open = SOCKETS;
    for (const s of sockets) {
      const inflight = new Map<number, bigint>();
      let nextId = 0;
      const send = () => {
        const id = nextId = (nextId + 1) & 0xffff;
        const p = Buffer.from(packets[sent++ % packets.length]);
        p.writeUInt16BE(id, 0);
        inflight.set(id, process.hrtime.bigint());
        s.send(p, port, host);
      };
      s.on('message', (msg) => {
        const t0 = inflight.get(msg.readUInt16BE(0));
        if (t0 === undefined) return;
        inflight.delete(msg.readUInt16BE(0));
        done++;
        if ((done & 15) === 0) lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (Date.now() < end) send();
        else if (inflight.size === 0 && --open === 0) resolve();
      });
      for (let i = 0; i < WINDOW / SOCKETS; i++) send();
      // Replies lost on a full socket buffer would stall the window: stop waiting after the run.
      setTimeout(() => { if (inflight.size && --open === 0) resolve(); }, ms + 2000);
    }
  });
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  for (const s of sockets) s.close();
  return { qps: done / secs, lat, lost: sent - done };
}

/** TCP: one connection, WINDOW length-prefixed queries pipelined. */
async function tcpLoad(host: string, port: number, ms: number): Promise<{ qps: number }> {
  const sock = connect(port, host);
  sock.setNoDelay(true);
  await new Promise((r) => sock.once('connect', r));
  const frames = packets.map((p) => Buffer.concat([Buffer.from([p.length >> 8, p.length & 255]), p]));
  let done = 0;
  let sent = 0;
  const end = Date.now() + ms;
  const started = process.hrtime.bigint();
  await new Promise<void>((resolve) => {
    let buf: Buffer = Buffer.alloc(0);
    let inflight = 0;
    const send = () => { sock.write(frames[sent++ % frames.length]); inflight++; };
    sock.on('data', (d: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, d]) : d;
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        buf = buf.subarray(2 + buf.readUInt16BE(0));
        done++;
        inflight--;
        if (Date.now() < end) send();
      }
      if (Date.now() >= end && inflight === 0) resolve();
    });
    for (let i = 0; i < WINDOW; i++) send();
  });
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  sock.destroy();
  return { qps: done / secs };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-dns-bench-'));
  const { proc, kubeconfig, dns } = await up(dir);
  try {
    const manifest = join(dir, 'bench.yaml');
    const eps = Array.from({ length: 10 }, (_, i) => `  - addresses: ["10.244.9.${i + 1}"]\n    hostname: db-${i}\n    conditions: {ready: true}`).join('\n');
    writeFileSync(manifest, `apiVersion: v1
kind: Namespace
metadata: {name: bench}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: bench}
spec: {clusterIP: None, ports: [{name: pg, port: 5432}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: db-1, namespace: bench, labels: {kubernetes.io/service-name: db}}
addressType: IPv4
ports: [{name: pg, port: 5432, protocol: TCP}]
endpoints:
${eps}
`);
    kubectl(kubeconfig, ['apply', '-f', manifest]);
    await new Promise((r) => setTimeout(r, 500)); // the informers carry the objects to the zone
    await udpLoad(dns.host, dns.port, 1000); // warm-up
    const udp = await udpLoad(dns.host, dns.port, SECONDS * 1000);
    const tcp = await tcpLoad(dns.host, dns.port, SECONDS * 1000);
    console.log(`cluster DNS benchmark (${dns.host}:${dns.port}, ${QUESTIONS.length} question kinds, ${WINDOW} in flight, ${SECONDS} s each)`);
    console.log(`  UDP: ${Math.round(udp.qps).toLocaleString('en-US').padStart(8)} queries/s   latency p50 ${pct(udp.lat, 50).toFixed(2)} ms, p99 ${pct(udp.lat, 99).toFixed(2)} ms   (lost ${udp.lost})`);
    console.log(`  TCP: ${Math.round(tcp.qps).toLocaleString('en-US').padStart(8)} queries/s   (one connection, pipelined)`);
    console.log(JSON.stringify({ bench: 'dns', udpQps: Math.round(udp.qps), udpP50Ms: +pct(udp.lat, 50).toFixed(3), udpP99Ms: +pct(udp.lat, 99).toFixed(3), udpLost: udp.lost, tcpQps: Math.round(tcp.qps), window: WINDOW }));
  } finally {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGINT');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
