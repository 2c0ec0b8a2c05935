// HTTP clients: BusyBox wget and curl (Debian/Alpine curl 7.88+ and Windows curl.exe, 7.55.1 on WS2019 images,
// newer on WS2022), with their progress output, -w variables and error numbers (curl's libcurl error codes).

import type { Ctx } from '../core/ctx.js';
import { fetchUrl, parseUrl, STATUS_TEXT, type FetchResult } from '../net/http-client.js';
import { fsMsg, progName, type Applet } from './util.js';

function secondsArg(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isNaN(n) ? undefined : n * 1000;
}

export const wget: Applet = async (argv, ctx, flavour) => {
  let quiet = false;
  let out: string | undefined;
  let timeoutMs: number | undefined;
  let spider = false;
  let serverResponse = false;
  const headers: Record<string, string> = {};
  let url: string | undefined;
  let postData: string | undefined;
  const a = argv.slice(1);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x === '-q' || x === '--quiet') quiet = true;
    else if (x === '-O') out = a[++i];
    else if (x.startsWith('-O')) out = x.slice(2);
    else if (x.startsWith('--output-document=')) out = x.slice(18);
    else if (x === '-T') timeoutMs = secondsArg(a[++i]);
    else if (x.startsWith('-T')) timeoutMs = secondsArg(x.slice(2));
    else if (x.startsWith('--timeout=')) timeoutMs = secondsArg(x.slice(10));
    else if (x === '--spider') spider = true;
    else if (x === '-S' || x === '--server-response') serverResponse = true;
    else if (x === '--header') { const [k, ...v] = a[++i].split(':'); headers[k.trim()] = v.join(':').trim(); }
    else if (x.startsWith('--post-data=')) postData = x.slice(12);
    else if (x === '-qO-' || x === '-qO') { quiet = true; out = x === '-qO-' ? '-' : a[++i]; }
    else if (x.startsWith('-') && x.length > 1) continue;
    else url = x;
  }
  const name = progName(argv);
  if (!url) { ctx.stderr.write('BusyBox v1.36.1 (2024-06-10 07:11:47 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR] [--post-data STR | --post-file FILE] [-Y on/off] [-P DIR] [-U AGENT] [-T SEC] URL...\n'); return 1; }
  const u = parseUrl(url);
  if (!u) { ctx.stderr.write(`${name}: bad address '${url}'\n`); return 1; }
  const r = await fetchUrl(ctx, { method: postData !== undefined ? 'POST' : spider ? 'HEAD' : 'GET', url: u.toString(), headers: { 'User-Agent': 'Wget', ...headers }, body: postData === undefined ? undefined : Buffer.from(postData), timeoutMs: timeoutMs ?? 900_000, followRedirects: true });
  if (!r.ok) {
    if (r.error === 'resolve') ctx.stderr.write(`${name}: bad address '${r.host}'\n`);
    else {
      if (!quiet) ctx.stderr.write(`Connecting to ${r.host}${r.host === r.ip ? '' : ''} (${r.ip}:${r.port})\n`);
      ctx.stderr.write(r.error === 'timeout' ? `${name}: download timed out\n` : `${name}: can't connect to remote host (${r.ip}): ${r.error === 'refused' ? 'Connection refused' : 'No route to host'}\n`);
    }
    return 1;
  }
  if (!quiet) ctx.stderr.write(`Connecting to ${r.host} (${r.ip}:${r.port})\n`);
  if (serverResponse) {
    ctx.stderr.write(`  HTTP/1.1 ${r.status} ${STATUS_TEXT[r.status] ?? ''}\n${Object.entries(r.headers).map(([k, v]) => `  ${k}: ${v}\n`).join('')}`);
  }
  if (r.status >= 400) {
    ctx.stderr.write(`${name}: server returned error: HTTP/1.1 ${r.status} ${STATUS_TEXT[r.status] ?? ''}\n`);
    return 1;
  }
  if (spider) { if (!quiet) ctx.stderr.write('remote file exists\n'); return 0; }
  const file = out ?? (r.url.pathname.replace(/^.*\//, '') || 'index.html');
  const label = file === '-' ? '-' : file;
  if (!quiet) ctx.stderr.write(file === '-' ? 'writing to stdout\n' : `saving to '${file}'\n`);
  if (file === '-') ctx.stdout.write(r.body);
  else {
    try { ctx.env.fs.writeFile(ctx.env.fs.resolve(ctx.cwd, file), r.body, { cred: ctx.cred }); } catch (e) {
      ctx.stderr.write(`${name}: can't open '${file}': ${fsMsg(ctx, flavour, e)}\n`);
      return 1;
    }
  }
  if (!quiet) {
    ctx.stderr.write(`${label.padEnd(20).slice(0, 20)} 100% |********************************| ${String(r.body.length).padStart(5)}  0:00:00 ETA\n`);
    ctx.stderr.write(file === '-' ? 'written to stdout\n' : `'${file}' saved\n`);
  }
  return 0;
};

interface CurlOpts {
  silent: boolean; showError: boolean; fail: boolean; include: boolean; head: boolean; verbose: boolean; location: boolean;
  output?: string; writeOut?: string; method?: string; data?: string; headers: Record<string, string>;
  maxTimeMs?: number; connectTimeoutMs?: number; url?: string; remoteName: boolean;
}

function parseCurl(args: string[]): CurlOpts | string {
  const o: CurlOpts = { silent: false, showError: false, fail: false, include: false, head: false, verbose: false, location: false, headers: {}, remoteName: false };
  for (let i = 0; i < args.length; i++) {
    const x = args[i];
    const val = () => args[++i];
    if (/^-[a-zA-Z]{2,}$/.test(x)) {
      // Bundled short flags (-sSf, -fsSL, -sI, -so FILE).
      const letters = x.slice(1);
      for (let k = 0; k < letters.length; k++) {
        const c = letters[k];
        if ('sSfiIvLkO'.includes(c)) apply(o, `-${c}`);
        else if ('owmXHd'.includes(c)) { apply(o, `-${c}`, letters.slice(k + 1) || val()); break; }
        else return `option -${c}: is unknown`;
      }
      continue;
    }
    switch (x) {
      case '-s': case '--silent': case '-S': case '--show-error': case '-f': case '--fail': case '-i': case '--include': case '-I': case '--head':
      case '-v': case '--verbose': case '-L': case '--location': case '-k': case '--insecure': case '-O': case '--remote-name':
        apply(o, x); break;
      case '-o': case '--output': case '-w': case '--write-out': case '-m': case '--max-time': case '-X': case '--request':
      case '-H': case '--header': case '-d': case '--data': case '--data-raw': case '--connect-timeout': case '-A': case '--user-agent':
        apply(o, x, val()); break;
      case '--fail-with-body': o.fail = true; break;
      case '--retry': case '--retry-delay': case '--cacert': case '--resolve': case '-u': case '--user': i++; break;
      case '--noproxy': case '--compressed': case '--http1.1': case '-N': case '--no-buffer': break;
      default:
        if (x.startsWith('-') && x.length > 1) return `option ${x}: is unknown`;
        o.url = x;
    }
  }
  return o;
}

function apply(o: CurlOpts, flag: string, v?: string): void {
  switch (flag) {
    case '-s': case '--silent': o.silent = true; break;
    case '-S': case '--show-error': o.showError = true; break;
    case '-f': case '--fail': o.fail = true; break;
    case '-i': case '--include': o.include = true; break;
    case '-I': case '--head': o.head = true; break;
    case '-v': case '--verbose': o.verbose = true; break;
    case '-L': case '--location': o.location = true; break;
    case '-O': case '--remote-name': o.remoteName = true; break;
    case '-o': case '--output': o.output = v; break;
    case '-w': case '--write-out': o.writeOut = v; break;
    case '-m': case '--max-time': o.maxTimeMs = secondsArg(v); break;
    case '--connect-timeout': o.connectTimeoutMs = secondsArg(v); break;
    case '-X': case '--request': o.method = v; break;
    case '-H': case '--header': { const [k, ...rest] = (v ?? '').split(':'); o.headers[k.trim()] = rest.join(':').trim(); break; }
    case '-d': case '--data': case '--data-raw': o.data = v; break;
    case '-A': case '--user-agent': o.headers['User-Agent'] = v ?? ''; break;
  }
}

/** curl's version by platform: Debian bookworm 7.88.1, Alpine 8.x, Windows Server 2019 7.55.1, 2022 7.83.1. */
function curlVersion(ctx: Ctx): { text: string; old: boolean } {
  if (ctx.env.os === 'windows') {
    const build = Number((ctx.env.system.windowsBuild ?? '10.0.17763').split('.')[2] ?? 17763);
    return build < 20348 ? { text: '7.55.1', old: true } : { text: '7.83.1', old: false };
  }
  return ctx.env.toolset === 'alpine' ? { text: '8.9.1', old: false } : { text: '7.88.1', old: false };
}

function curlError(ctx: Ctx, r: Extract<FetchResult, { ok: false }>, o: CurlOpts, elapsedMs: number): { code: number; msg: string } {
  const v = curlVersion(ctx);
  const win = ctx.env.os === 'windows';
  switch (r.error) {
    case 'url': return { code: 3, msg: 'URL using bad/illegal format or missing URL' };
    case 'resolve': return { code: 6, msg: `Could not resolve host: ${r.host}` };
    case 'timeout':
      if (o.maxTimeMs !== undefined && (o.connectTimeoutMs === undefined || o.maxTimeMs <= o.connectTimeoutMs)) return { code: 28, msg: `${v.old ? 'Connection timed out' : 'Connection timed out'} after ${o.maxTimeMs + 1} milliseconds` };
      return { code: 28, msg: v.old ? `Connection timed out after ${r.waitedMs + 1} milliseconds` : `Failed to connect to ${r.host} port ${r.port} after ${r.waitedMs + 1} ms: ${win ? 'Timed out' : 'Timeout was reached'}` };
    case 'refused': case 'unreachable':
      if (v.old) return { code: 7, msg: `Failed to connect to ${r.host} port ${r.port}: ${r.error === 'refused' ? 'Connection refused' : 'No route to host'}` };
      return { code: 7, msg: `Failed to connect to ${r.host} port ${r.port} after ${elapsedMs} ms: ${win ? (r.error === 'refused' ? 'Connection refused' : 'No route to host') : "Couldn't connect to server"}` };
  }
}

function writeOut(fmt: string, r: Extract<FetchResult, { ok: true }> | undefined, size: number): string {
  return fmt.replace(/%\{(\w+)\}/g, (_, k: string) => {
    switch (k) {
      case 'http_code': case 'response_code': return String(r?.status ?? 0).padStart(3, '0');
      case 'size_download': return String(size);
      case 'remote_ip': return r?.ip ?? '';
      case 'remote_port': return String(r?.port ?? '');
      case 'url_effective': return r?.url.toString() ?? '';
      case 'content_type': return r?.headers['content-type'] ?? r?.headers['Content-Type'] ?? '';
      case 'time_total': case 'time_connect': case 'time_starttransfer': return '0.001000';
      default: return '';
    }
  }).replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\r/g, '\r');
}

export async function curlMain(argv: string[], ctx: Ctx): Promise<number> {
  const nl = ctx.env.os === 'windows' ? '\n' : '\n';
  const o = parseCurl(argv.slice(1));
  if (typeof o === 'string') {
    ctx.stderr.write(`curl: ${o}\ncurl: try 'curl --help' or 'curl --manual' for more information${nl}`);
    return 2;
  }
  if (argv.includes('--version') || argv.includes('-V')) {
    ctx.stdout.write(`curl ${curlVersion(ctx).text} (${ctx.env.os === 'windows' ? 'Windows' : 'x86_64-pc-linux-gnu'}) libcurl/${curlVersion(ctx).text}${nl}`);
    return 0;
  }
  if (!o.url) {
    ctx.stderr.write(`curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information${nl}`);
    return 2;
  }
  const start = ctx.env.clock.now();
  const method = o.method ?? (o.head ? 'HEAD' : o.data !== undefined ? 'POST' : 'GET');
  const headers: Record<string, string> = { 'User-Agent': `curl/${curlVersion(ctx).text}`, Accept: '*/*', ...o.headers };
  if (o.data !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const r = await fetchUrl(ctx, { method, url: o.url, headers, body: o.data === undefined ? undefined : Buffer.from(o.data), timeoutMs: o.maxTimeMs, connectTimeoutMs: o.connectTimeoutMs ?? o.maxTimeMs ?? 300_000, followRedirects: o.location });
  const showErr = !o.silent || o.showError;
  if (!r.ok) {
    const e = curlError(ctx, r, o, Math.max(0, ctx.env.clock.now() - start));
    if (o.writeOut) ctx.stdout.write(writeOut(o.writeOut, undefined, 0));
    if (showErr) ctx.stderr.write(`curl: (${e.code}) ${e.msg}${nl}`);
    return e.code;
  }
  if (o.verbose) {
    ctx.stderr.write(`*   Trying ${r.ip}:${r.port}...\n* Connected to ${r.host} (${r.ip}) port ${r.port} (#0)\n> ${method} ${r.url.pathname}${r.url.search} HTTP/1.1\n> Host: ${r.url.host}\n> User-Agent: ${headers['User-Agent']}\n> Accept: */*\n> \n< HTTP/1.1 ${r.status} ${STATUS_TEXT[r.status] ?? ''}\n${Object.entries(r.headers).map(([k, v]) => `< ${k}: ${v}\n`).join('')}< \n`);
  }
  if (o.fail && r.status >= 400) {
    const v = curlVersion(ctx);
    if (showErr) ctx.stderr.write(`curl: (22) The requested URL returned error: ${r.status}${v.old ? ` ${STATUS_TEXT[r.status] ?? ''}` : ''}${nl}`);
    if (o.writeOut) ctx.stdout.write(writeOut(o.writeOut, r, 0));
    return 22;
  }
  const head = `HTTP/1.1 ${r.status} ${STATUS_TEXT[r.status] ?? ''}\r\n${Object.entries(r.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  const body = Buffer.concat([o.include || o.head ? Buffer.from(head) : Buffer.alloc(0), o.head ? Buffer.alloc(0) : r.body]);
  const target = o.output ?? (o.remoteName ? r.url.pathname.replace(/^.*\//, '') || 'index.html' : undefined);
  const toFile = target !== undefined && target !== '-';
  if (!o.silent && (toFile || !ctx.stdout.isTTY)) {
    const n = String(body.length).padStart(5);
    ctx.stderr.write(`  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n\r100 ${n}  100 ${n}    0     0   ${String(body.length).padStart(5)}      0 --:--:-- --:--:-- --:--:-- ${String(body.length).padStart(5)}\n`);
  }
  if (toFile) {
    try { ctx.env.fs.writeFile(ctx.env.fs.resolve(ctx.cwd, target!), body, { cred: ctx.cred }); } catch (e) {
      if (showErr) ctx.stderr.write(`curl: (23) Failure writing output to destination${ctx.env.os === 'linux' ? `, passed ${body.length} returned 4294967295` : ''}${nl}`);
      void fsMsg(ctx, 'gnu', e);
      return 23;
    }
  } else ctx.stdout.write(body);
  if (o.writeOut) ctx.stdout.write(writeOut(o.writeOut, r, body.length));
  return 0;
}

export const curl: Applet = async (argv, ctx) => curlMain(argv, ctx);
