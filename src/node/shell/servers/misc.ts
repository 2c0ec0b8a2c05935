// Smaller servers: `python3 -m http.server`, BusyBox httpd, Apache httpd, redis-server, the pause container and IIS
// (ServiceMonitor.exe w3svc).

import type { HttpRequest } from '../interfaces.js';
import { Aborted, unavailable, type Ctx } from '../core/ctx.js';
import { clfTime, httpDate, lookupFile, mimeOf, response, serve } from './common.js';
import { serviceStateEvent, w3cLog } from './iis-logging.js';

function pyTime(ms: number): string {
  return clfTime(ms).replace(/:(\d\d:\d\d:\d\d) \+0000$/, ' $1');
}

export async function python(argv: string[], ctx: Ctx): Promise<number> {
  const args = argv.slice(1).filter((a) => a !== '-u');
  const unbuffered = argv.includes('-u') || !!ctx.vars.PYTHONUNBUFFERED;
  if (args[0] === '--version' || args[0] === '-V') { ctx.stdout.write('Python 3.11.2\n'); return 0; }
  if (args[0] !== '-m' || args[1] !== 'http.server') return unavailable(ctx, `${argv[0]} ${args.join(' ')}`.trim());
  let port = 8000;
  let bind = '0.0.0.0';
  let dir = ctx.cwd;
  for (let i = 2; i < args.length; i++) {
    if (args[i] === '--bind' || args[i] === '-b') bind = args[++i];
    else if (args[i] === '--directory' || args[i] === '-d') dir = ctx.env.fs.resolve(ctx.cwd, args[++i]);
    else if (/^\d+$/.test(args[i])) port = Number(args[i]);
  }
  const handler = async (req: HttpRequest) => {
    const f = lookupFile(ctx, dir, req.path, ['index.html', 'index.htm']);
    let res;
    if (f.kind === 'file') res = response(200, f.data, { 'Content-type': mimeOf(f.path), 'Last-Modified': httpDate(f.mtimeMs) });
    else if (f.kind === 'redirect') res = response(301, '', { Location: f.location });
    else if (f.kind === 'dir') {
      const title = `Directory listing for ${req.path.split('?')[0]}`;
      res = response(200, `<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n</head>\n<body>\n<h1>${title}</h1>\n<hr>\n<ul>\n${f.names.map((n) => `<li><a href="${n}">${n}</a></li>\n`).join('')}</ul>\n<hr>\n</body>\n</html>\n`, { 'Content-type': 'text/html; charset=utf-8' });
    } else res = response(404, '<!DOCTYPE HTML>\n<html lang="en">\n    <head>\n        <meta charset="utf-8">\n        <title>Error response</title>\n    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: 404</p>\n        <p>Message: File not found.</p>\n        <p>Error code explanation: 404 - Nothing matches the given URI.</p>\n    </body>\n</html>\n', { 'Content-Type': 'text/html;charset=utf-8' });
    res.headers = { Server: 'SimpleHTTP/0.6 Python/3.11.2', Date: httpDate(ctx.env.clock.now()), ...res.headers };
    if (res.status === 404) ctx.stderr.write(`${req.remoteAddress} - - [${pyTime(ctx.env.clock.now())}] code 404, message File not found\n`);
    ctx.stderr.write(`${req.remoteAddress} - - [${pyTime(ctx.env.clock.now())}] "${req.method} ${req.path} HTTP/1.1" ${res.status} -\n`);
    return res;
  };
  // print() to a pipe is block-buffered: the banner shows up in logs only with -u / PYTHONUNBUFFERED.
  if (unbuffered) ctx.stdout.write(`Serving HTTP on ${bind} port ${port} (http://${bind}:${port}/) ...\n`);
  return serve(ctx, 'python3', [{ port, handler }], () => {
    ctx.stderr.write('Traceback (most recent call last):\n  File "<frozen runpy>", line 198, in _run_module_as_main\nOSError: [Errno 98] Address already in use\n');
    return 1;
  });
}

export async function busyboxHttpd(argv: string[], ctx: Ctx): Promise<number> {
  let foreground = false;
  let port = 80;
  let home = '.';
  let verbose = false;
  const a = argv.slice(1);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (/^-[fv]+$/.test(x)) { foreground ||= x.includes('f'); verbose ||= x.includes('v'); continue; }
    if (x === '-p') port = Number(a[++i].replace(/^.*:/, ''));
    else if (x === '-h') home = a[++i];
  }
  const root = ctx.env.fs.resolve(ctx.cwd, home);
  const handler = async (req: HttpRequest) => {
    const f = lookupFile(ctx, root, req.path, ['index.html']);
    if (verbose) ctx.stderr.write(`${req.remoteAddress}:${req.remotePort}: url:${req.path.split('?')[0]}\n`);
    if (f.kind === 'file') return response(200, f.data, { 'Content-Type': mimeOf(f.path), 'Last-Modified': httpDate(f.mtimeMs), Server: 'busybox httpd/1.36.1' });
    if (f.kind === 'redirect') return response(302, '', { Location: f.location });
    return response(404, '<HTML><HEAD><TITLE>404 Not Found</TITLE></HEAD>\n<BODY><H1>404 Not Found</H1>\nThe requested URL was not found\n</BODY></HTML>\n', { 'Content-Type': 'text/html' });
  };
  return serve(ctx, 'httpd', [{ port, handler }], () => {
    ctx.stderr.write('httpd: bind: Address in use\n');
    return 1;
  }, !foreground);
}

export async function apacheHttpd(argv: string[], ctx: Ctx): Promise<number> {
  if (argv.includes('-v')) { ctx.stdout.write('Server version: Apache/2.4.62 (Unix)\n'); return 0; }
  const ip = ctx.env.network.interfaces[0]?.ip ?? '127.0.0.1';
  const ts = () => {
    const d = new Date(ctx.env.clock.now());
    return `${d.toUTCString().slice(0, 3)} ${d.toUTCString().slice(8, 11)} ${d.toUTCString().slice(5, 7)} ${d.toISOString().slice(11, 19)}.${String(d.getUTCMilliseconds()).padStart(3, '0')}000 ${d.getUTCFullYear()}`;
  };
  const note = `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${ip}. Set the 'ServerName' directive globally to suppress this message\n`;
  ctx.stderr.write(note + note);
  ctx.stderr.write(`[${ts()}] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/2.4.62 (Unix) configured -- resuming normal operations\n[${ts()}] [core:notice] [pid 1:tid 1] AH00094: Command line: 'httpd -D FOREGROUND'\n`);
  const handler = async (req: HttpRequest) => {
    const f = lookupFile(ctx, '/usr/local/apache2/htdocs', req.path, ['index.html']);
    const res = f.kind === 'file' ? response(200, f.data, { 'Content-Type': mimeOf(f.path), 'Last-Modified': httpDate(f.mtimeMs), Server: 'Apache/2.4.62 (Unix)' })
      : response(404, '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n', { 'Content-Type': 'text/html; charset=iso-8859-1', Server: 'Apache/2.4.62 (Unix)' });
    ctx.stdout.write(`${req.remoteAddress} - - [${clfTime(ctx.env.clock.now())}] "${req.method} ${req.path} HTTP/1.1" ${res.status} ${res.body.length}\n`);
    return res;
  };
  return serve(ctx, 'httpd', [{ port: 80, handler }], () => {
    ctx.stderr.write('(98)Address in use: AH00072: make_sock: could not bind to address [::]:80\nno listening sockets available, shutting down\nAH00015: Unable to open logs\n');
    return 1;
  }, !argv.some((a) => a === '-DFOREGROUND' || a === 'FOREGROUND'));
}

export async function redisServer(_argv: string[], ctx: Ctx): Promise<number> {
  ctx.stdout.write('1:C 01 Jan 2024 00:00:00.000 * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo\n1:M 01 Jan 2024 00:00:00.000 * Ready to accept connections tcp\n');
  return serve(ctx, 'redis-server', [{ port: 6379 }], () => {
    ctx.stdout.write('1:M 01 Jan 2024 00:00:00.000 # Warning: Could not create server TCP listening socket *:6379: bind: Address in use\n');
    return 1;
  });
}

/** The pause container: waits; on SIGTERM it says so and exits 0 (kubernetes/build/pause/linux/pause.c). */
export async function pause(_argv: string[], ctx: Ctx): Promise<number> {
  try {
    return await serve(ctx, 'pause', [], () => 1);
  } catch (e) {
    if (e instanceof Aborted && e.reason === 'SIGTERM' && ctx.env.os === 'linux') {
      ctx.stdout.write('Shutting down, got signal: Terminated\n');
      return 0;
    }
    throw e;
  }
}

/** ServiceMonitor.exe w3svc: starts IIS on port 80 and watches the service. */
export async function serviceMonitor(argv: string[], ctx: Ctx): Promise<number> {
  const svc = argv[1];
  if (!svc) {
    ctx.stdout.write('ERROR: Usage: ServiceMonitor.exe <ServiceName>\r\n');
    return 1;
  }
  ctx.stdout.write(`\r\n Service '${svc}' has been stopped\r\n\r\n Service '${svc}' started\r\n`);
  // It stops the (auto-start) service and starts it again: the SCM logs both in the System event log.
  serviceStateEvent(ctx.env, svc, 'stopped');
  serviceStateEvent(ctx.env, svc, 'running');
  const handler = async (req: HttpRequest) => {
    const res = iisResponse(req);
    // IIS's request log goes to its W3C files (and ETW if configured), never to stdout.
    w3cLog(ctx.env, req, res, 0);
    return res;
  };
  const iisResponse = (req: HttpRequest) => {
    const f = lookupFile(ctx, 'C:\\inetpub\\wwwroot', req.path, ['iisstart.htm', 'default.htm', 'index.html', 'default.aspx']);
    if (f.kind === 'file') return response(200, f.data, { 'Content-Type': mimeOf(f.path), Server: 'Microsoft-IIS/10.0', 'Last-Modified': httpDate(f.mtimeMs) });
    return response(404, '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\r\n<html><head><title>404 - File or directory not found.</title></head><body><h2>404 - File or directory not found.</h2></body></html>\r\n', { 'Content-Type': 'text/html', Server: 'Microsoft-IIS/10.0' });
  };
  return serve(ctx, 'w3wp.exe', [{ port: 80, handler }], () => 1);
}
