// coredns (registry.k8s.io/coredns/coredns), as kubeadm runs it with `-conf /etc/coredns/Corefile`: DNS on the
// server block's port (UDP and TCP) answered by the cluster zone (src/network/dns, via NetworkView.serveDns), health
// on :8080 (/health → OK), ready on :8181 (/ready → OK), Prometheus metrics on :9153.

import { createHash } from 'node:crypto';
import type { HttpRequest, Listener } from '../interfaces.js';
import { Aborted, untilAborted, type Ctx } from '../core/ctx.js';
import { listen } from '../net/listen.js';
import { response } from './common.js';

const VERSION = '1.12.0';

/** The port in an address like `:8080`, `localhost:9153` or `.:53`; the plugin's default when absent. */
function portOf(addr: string | undefined, def: number): number {
  const m = /:(\d+)\s*$/.exec(addr ?? '');
  return m ? Number(m[1]) : def;
}

interface Corefile { dnsPort: number; health?: number; ready?: number; metrics?: number }

/** Reads the first server block and the plugins that open ports (health, ready, prometheus). */
export function parseCorefile(text: string): Corefile {
  const block = /^\s*(\S*:\d+|\.)\s*\{/m.exec(text);
  const line = (plugin: string) => new RegExp(`^\\s*${plugin}(?:\\s+([^\\s{]+))?`, 'm').exec(text);
  const health = line('health');
  const ready = line('ready');
  const prom = line('prometheus');
  return {
    dnsPort: portOf(block?.[1], 53),
    health: health ? portOf(health[1], 8080) : undefined,
    ready: ready ? portOf(ready[1], 8181) : undefined,
    metrics: prom ? portOf(prom[1], 9153) : undefined,
  };
}

export async function coredns(argv: string[], ctx: Ctx): Promise<number> {
  const args = argv.slice(1);
  if (args.includes('-version')) {
    ctx.stdout.write(`CoreDNS-${VERSION}\n`);
    return 0;
  }
  const confPath = args[args.indexOf('-conf') + 1] && args.includes('-conf') ? args[args.indexOf('-conf') + 1] : 'Corefile';
  let text: string;
  try {
    text = ctx.env.fs.readFile(ctx.env.fs.resolve(ctx.cwd, confPath)).toString();
  } catch {
    ctx.stderr.write(`[ERROR] Restart failed: open ${confPath}: no such file or directory\n`);
    return 1;
  }
  const conf = parseCorefile(text);
  let queries = 0;
  const ok = async () => response(200, 'OK');
  const metrics = async () => response(200, [
    '# HELP coredns_build_info A metric with a constant \'1\' value labeled by version, revision, and goversion from which CoreDNS was built.',
    '# TYPE coredns_build_info gauge',
    `coredns_build_info{version="${VERSION}"} 1`,
    '# HELP coredns_dns_requests_total Counter of DNS requests made per zone, protocol and family.',
    '# TYPE coredns_dns_requests_total counter',
    `coredns_dns_requests_total{server="dns://:${conf.dnsPort}",zone=".",view="",proto="udp",family="1",type="other"} ${queries}`,
    '',
  ].join('\n'), { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
  const dns = async (q: Buffer, transport: 'udp' | 'tcp') => {
    queries++;
    return ctx.env.network.serveDns?.(q, transport);
  };
  const http = (handler: () => ReturnType<typeof ok>, path: string) => async (req: HttpRequest) =>
    (req.path.split('?')[0] === path ? handler() : response(404, '404 page not found\n', { 'Content-Type': 'text/plain; charset=utf-8' }));
  const sockets: Listener[] = [
    { port: conf.dnsPort, protocol: 'UDP', program: 'coredns', dns },
    { port: conf.dnsPort, protocol: 'TCP', program: 'coredns', dns },
  ];
  if (conf.health !== undefined) sockets.push({ port: conf.health, protocol: 'TCP', program: 'coredns', handler: http(ok, '/health') });
  if (conf.ready !== undefined) sockets.push({ port: conf.ready, protocol: 'TCP', program: 'coredns', handler: http(ok, '/ready') });
  if (conf.metrics !== undefined) sockets.push({ port: conf.metrics, protocol: 'TCP', program: 'coredns', handler: http(metrics, '/metrics') });
  const ctl = new AbortController();
  const stop = () => ctl.abort(ctx.signal.reason);
  if (ctx.signal.aborted) stop(); else ctx.signal.addEventListener('abort', stop, { once: true });
  for (const s of sockets) {
    if (listen(ctx.env, s, ctl.signal) === 'in-use') {
      ctl.abort('bind');
      ctx.stdout.write(`Listen: listen tcp :${s.port}: bind: address already in use\n`);
      return 1;
    }
  }
  // Start-up lines as CoreDNS prints them: the server blocks, the reload plugin's checksum, the version.
  const sha = createHash('sha512').update(text).digest('hex');
  ctx.stdout.write(`.:${conf.dnsPort}\n[INFO] plugin/reload: Running configuration SHA512 = ${sha}\nCoreDNS-${VERSION}\n`);
  try {
    return await untilAborted(ctl.signal);
  } catch (e) {
    // lameduck 5s in the health block: CoreDNS keeps answering for a while, then exits 0 on SIGTERM.
    if (e instanceof Aborted && e.reason === 'SIGTERM') {
      ctx.stdout.write('[INFO] SIGTERM: Shutting down servers then terminating\n');
      return 0;
    }
    throw e;
  }
}
