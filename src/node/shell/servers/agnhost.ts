// agnhost, the Kubernetes e2e test image (kubernetes/test/images/agnhost): netexec's endpoints (/hostname, /echo,
// /clientip, /dial, /shell, /exit, /healthz), serve-hostname, test-webserver, liveness, pause, connect, and the DNS
// helpers dns-suffix, dns-server-list and etc-hosts.

import type { HttpRequest } from '../interfaces.js';
import { Aborted, sleep, type Ctx } from '../core/ctx.js';
import { Capture } from '../core/streams.js';
import { fetchUrl } from '../net/http-client.js';
import { resolveHost } from '../net/resolver.js';
import { flag, response, serve } from './common.js';
import { agnhostWebhook } from './agnhost-webhook.js';
import { agnhostCrdConversionWebhook } from './agnhost-crd-conversion.js';

function query(req: HttpRequest): URLSearchParams {
  return new URLSearchParams(req.path.includes('?') ? req.path.slice(req.path.indexOf('?') + 1) : '');
}

function goTimeLog(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}000`;
}

async function netexec(args: string[], ctx: Ctx): Promise<number> {
  const httpPort = Number(flag(args, 'http-port', '8080'));
  const udpPort = Number(flag(args, 'udp-port', '8081'));
  const log = (msg: string) => ctx.stderr.write(`I${goTimeLog(ctx.env.clock.now())}       1 ${msg}\n`);
  let exitWith: ((code: number) => void) | undefined;
  const exited = new Promise<number>((r) => { exitWith = r; });
  const handler = async (req: HttpRequest) => {
    const path = req.path.split('?')[0];
    const q = query(req);
    log(`GET ${req.path}`);
    switch (path) {
      case '/': return response(200, `NOW: ${new Date(ctx.env.clock.now()).toISOString()}`);
      case '/hostname': return response(200, ctx.env.hostname);
      case '/echo': return response(200, q.get('msg') ?? '');
      case '/clientip': return response(200, `${req.remoteAddress}:${req.remotePort}`);
      case '/header': return response(200, req.headers[q.get('key') ?? ''] ?? '');
      case '/healthz': return response(200, '');
      case '/exit': {
        const code = Number(q.get('code') ?? '0');
        setImmediate(() => exitWith?.(code));
        return response(200, '');
      }
      case '/shell': {
        const cmd = q.get('shellCommand') ?? q.get('cmd') ?? '';
        const out = new Capture();
        const err = new Capture();
        const argv = ctx.env.os === 'windows' ? ['cmd', '/c', cmd] : ['/bin/sh', '-c', cmd];
        const r = await ctx.spawn(argv, { stdout: out, stderr: err });
        const body: Record<string, string> = { output: out.text() };
        if (typeof r === 'number' && r !== 0) body.error = `exit status ${r}`;
        return response(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
      }
      case '/dial': {
        const host = q.get('host') ?? '';
        const port = q.get('port') ?? '80';
        const request = q.get('request') ?? 'hostname';
        const tries = Number(q.get('tries') ?? '1');
        const responses: string[] = [];
        const errors: string[] = [];
        for (let i = 0; i < tries; i++) {
          const r = await fetchUrl(ctx, { method: 'GET', url: `http://${host}:${port}/${request.replace(/^\//, '')}`, timeoutMs: 5000 });
          if (r.ok) responses.push(r.body.toString());
          else errors.push(`encountered error while dialing ${host}:${port}: ${r.error}`);
        }
        return response(200, JSON.stringify({ responses, errors }), { 'Content-Type': 'application/json' });
      }
      default: return response(404, '404 page not found\n', { 'Content-Type': 'text/plain; charset=utf-8' });
    }
  };
  log(`Started HTTP server on port ${httpPort}`);
  log(`Started UDP server on port ${udpPort}`);
  const running = serve(ctx, 'agnhost', [{ port: httpPort, handler }, { port: udpPort, protocol: 'UDP' }], (port) => {
    ctx.stderr.write(`F${goTimeLog(ctx.env.clock.now())}       1 listen tcp :${port}: bind: address already in use\n`);
    return 255;
  });
  return Promise.race([running, exited]);
}

export async function agnhost(argv: string[], ctx: Ctx): Promise<number> {
  const [sub, ...args] = argv.slice(1);
  const say = (s: string) => ctx.stdout.write(`${s}\n`);
  switch (sub) {
    case undefined:
      say('Tool for testing Kubernetes e2e');
      return 0;
    case 'netexec': return netexec(args, ctx);
    case 'webhook': return agnhostWebhook(args, ctx);
    case 'crd-conversion-webhook': return agnhostCrdConversionWebhook(args, ctx);
    case 'serve-hostname': {
      const port = Number(flag(args, 'port', '9376'));
      ctx.stderr.write(`${new Date(ctx.env.clock.now()).toISOString().replace('T', ' ').replace(/\..*/, '')} Serving on port ${port}.\n`);
      return serve(ctx, 'agnhost', [{ port, handler: async () => response(200, ctx.env.hostname) }], () => 1);
    }
    case 'test-webserver': {
      const port = Number(flag(args, 'port', '80'));
      return serve(ctx, 'agnhost', [{ port, handler: async (req) => response(200, `NOW: ${new Date(ctx.env.clock.now()).toISOString()} ${req.path}`) }], () => 1);
    }
    case 'liveness': {
      const started = ctx.env.clock.now();
      return serve(ctx, 'agnhost', [{ port: 8080, handler: async () => (ctx.env.clock.now() - started > 10_000 ? response(500, 'error: 10s') : response(200, 'ok')) }], () => 1);
    }
    case 'pause': {
      say('Paused');
      try { return await serve(ctx, 'agnhost', [], () => 1); } catch (e) {
        if (e instanceof Aborted && e.reason === 'SIGTERM') { say('Shutting down after receiving signal: terminated.'); return 0; }
        throw e;
      }
    }
    case 'connect': {
      const target = args.find((a) => !a.startsWith('-')) ?? '';
      const [host, port] = target.split(':');
      const r = await resolveHost(ctx.env, host);
      if ('error' in r) { ctx.stderr.write('DNS: lookup failed\n'); return 1; }
      const res = await ctx.env.network.connect(r.ip, Number(port));
      if (res === 'open') return 0;
      if (res === 'timeout') { await sleep(ctx, Number(flag(args, 'timeout', '5s').replace(/s$/, '')) * 1000); ctx.stderr.write('TIMEOUT\n'); return 1; }
      ctx.stderr.write(res === 'refused' ? 'REFUSED\n' : 'OTHER: no route to host\n');
      return 1;
    }
    case 'dns-suffix': say(ctx.env.network.dns.search.join(',')); return 0;
    case 'dns-server-list': say(ctx.env.network.dns.nameservers.join(',')); return 0;
    case 'etc-hosts': {
      const path = ctx.env.os === 'windows' ? 'C:\\Windows\\System32\\drivers\\etc\\hosts' : '/etc/hosts';
      ctx.stdout.write(ctx.env.fs.readFile(path).toString());
      return 0;
    }
    default:
      ctx.stderr.write(`Error: unknown command "${sub}" for "agnhost"\nRun 'agnhost --help' for usage.\n`);
      return 1;
  }
}
