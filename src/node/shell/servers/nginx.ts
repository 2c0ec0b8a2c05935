// nginx: reads `listen`, `root`, `index` and `return` from /etc/nginx/conf.d/*.conf (so a ConfigMap mounted there
// changes what it serves), logs startup notices to stderr and requests in the combined format to stdout.

import type { HttpRequest } from '../interfaces.js';
import { strerror } from '../core/errno.js';
import type { Ctx } from '../core/ctx.js';
import { clfTime, httpDate, lookupFile, mimeOf, response, serve } from './common.js';

const VERSION = '1.27.3';

interface Site { port: number; root: string; index: string[]; returns: { path: string; status: number; text: string }[] }

function sites(ctx: Ctx): Site[] {
  const fs = ctx.env.fs;
  let files: string[] = [];
  try { files = fs.readdir('/etc/nginx/conf.d').filter((n) => n.name.endsWith('.conf')).map((n) => `/etc/nginx/conf.d/${n.name}`); } catch { /* none */ }
  const out: Site[] = [];
  for (const f of files) {
    let text = '';
    try { text = fs.readFile(f).toString(); } catch { continue; }
    for (const block of text.split(/\bserver\s*\{/).slice(1)) {
      const ports = [...block.matchAll(/^\s*listen\s+(?:[\d.]+:)?(\d+)[^;]*;/gm)].map((m) => Number(m[1]));
      const root = /^\s*root\s+([^;]+);/m.exec(block)?.[1].trim() ?? '/usr/share/nginx/html';
      const index = /^\s*index\s+([^;]+);/m.exec(block)?.[1].trim().split(/\s+/) ?? ['index.html'];
      const returns = [...block.matchAll(/location\s*=?\s*(\S+)\s*\{[^}]*?return\s+(\d{3})\s*(?:"([^"]*)"|'([^']*)'|([^;]*))?;/g)].map((m) => ({ path: m[1], status: Number(m[2]), text: m[3] ?? m[4] ?? m[5] ?? '' }));
      for (const p of new Set(ports.length ? ports : [80])) out.push({ port: p, root, index, returns });
    }
  }
  return out.length ? out : [{ port: 80, root: '/usr/share/nginx/html', index: ['index.html'], returns: [] }];
}

function errorPage(status: number, text: string): string {
  return `<html>\r\n<head><title>${status} ${text}</title></head>\r\n<body>\r\n<center><h1>${status} ${text}</h1></center>\r\n<hr><center>nginx/${VERSION}</center>\r\n</body>\r\n</html>\r\n`;
}

function stamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

export async function nginx(argv: string[], ctx: Ctx): Promise<number> {
  const args = argv.slice(1);
  if (args.includes('-v') || args.includes('-V')) { ctx.stderr.write(`nginx version: nginx/${VERSION}\n`); return 0; }
  if (args.includes('-t') || args.includes('-T')) {
    ctx.stderr.write('nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful\n');
    return 0;
  }
  if (args.includes('-s')) { ctx.stderr.write(`${stamp(ctx.env.clock.now())} [notice] 1#1: signal process started\n`); return 0; }
  const g = args[args.indexOf('-g') + 1] ?? '';
  const daemon = !(args.includes('-g') && /daemon\s+off/.test(g));
  const now = ctx.env.clock.now();
  const log = (msg: string) => ctx.stderr.write(`${stamp(ctx.env.clock.now())} [notice] 1#1: ${msg}\n`);
  const list = sites(ctx);
  if (ctx.cred.uid !== 0 && list.some((s) => s.port < 1024)) {
    const port = list.find((s) => s.port < 1024)!.port;
    ctx.stderr.write(`nginx: [emerg] bind() to 0.0.0.0:${port} failed (13: ${strerror('EACCES')})\n`);
    return 1;
  }
  const handler = (site: Site) => async (req: HttpRequest) => {
    const path = req.path.split('?')[0];
    let res;
    const ret = site.returns.find((r) => r.path === path || (path.startsWith(r.path) && r.path.endsWith('/')));
    if (ret) res = response(ret.status, ret.text, { 'Content-Type': 'application/octet-stream' });
    else {
      const f = lookupFile(ctx, site.root, path, site.index);
      if (req.method !== 'GET' && req.method !== 'HEAD') res = response(405, errorPage(405, 'Not Allowed'), { 'Content-Type': 'text/html' });
      else if (f.kind === 'file') res = response(200, req.method === 'HEAD' ? Buffer.alloc(0) : f.data, { 'Content-Type': mimeOf(f.path), 'Last-Modified': httpDate(f.mtimeMs), 'Accept-Ranges': 'bytes' });
      else if (f.kind === 'redirect') res = response(301, errorPage(301, 'Moved Permanently'), { Location: `http://${req.headers.Host ?? req.headers.host ?? req.localAddress}${f.location}`, 'Content-Type': 'text/html' });
      else if (f.kind === 'dir') res = response(403, errorPage(403, 'Forbidden'), { 'Content-Type': 'text/html' });
      else res = response(404, errorPage(404, 'Not Found'), { 'Content-Type': 'text/html' });
    }
    res.headers = { Server: `nginx/${VERSION}`, Date: httpDate(ctx.env.clock.now()), Connection: 'keep-alive', ...res.headers };
    const ua = req.headers['User-Agent'] ?? req.headers['user-agent'] ?? '-';
    ctx.stdout.write(`${req.remoteAddress} - - [${clfTime(ctx.env.clock.now())}] "${req.method} ${req.path} HTTP/1.1" ${res.status} ${res.body.length} "-" "${ua}" "-"\n`);
    return res;
  };
  void now;
  log('using the "epoll" event method');
  log(`nginx/${VERSION}`);
  log('built by gcc 12.2.0 (Debian 12.2.0-14) ');
  log(`OS: Linux ${ctx.env.system.kernelVersion}`);
  log('getrlimit(RLIMIT_NOFILE): 1048576:1048576');
  log('start worker processes');
  for (let i = 0; i < Math.max(1, ctx.env.system.cpus); i++) log(`start worker process ${29 + i}`);
  const byPort = new Map<number, Site>();
  for (const s of list) if (!byPort.has(s.port)) byPort.set(s.port, s);
  return serve(ctx, 'nginx', [...byPort.values()].map((s) => ({ port: s.port, handler: handler(s) })), (port) => {
    ctx.stderr.write(`${stamp(ctx.env.clock.now())} [emerg] 1#1: bind() to 0.0.0.0:${port} failed (98: Address in use)\nnginx: [emerg] bind() to 0.0.0.0:${port} failed (98: Address in use)\n`);
    return 1;
  }, daemon);
}
