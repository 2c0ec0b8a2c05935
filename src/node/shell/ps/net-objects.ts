// .NET networking objects scripts create with New-Object: System.Net.HttpListener (the win-webserver seed's server:
// Prefixes.Add, Start, GetContext, Request.Url/RemoteEndPoint, Response.OutputStream.Write/Close), WebClient and
// Sockets.TcpClient, all backed by the container's listeners and the cluster network model.

import type { HttpRequest, HttpResponse } from '../interfaces.js';
import { Aborted, abortReason, type Ctx } from '../core/ctx.js';
import { listen } from '../net/listen.js';
import { fetchUrl, STATUS_TEXT } from '../net/http-client.js';
import { resolveHost } from '../net/resolver.js';
import { isWindowsAdmin } from '../core/users.js';
import { IPAddress } from './dotnet.js';
import { DotNet, enumerate, Hashtable, PsError, toNum, toStr, type PsValue } from './values.js';

function ctorError(argc: number, msg: string, type = 'MethodInvocationException'): PsError {
  return new PsError(`Exception calling ".ctor" with "${argc}" argument(s): "${msg}"`, 'InvalidOperation', 'ConstructorInvokedThrowException,Microsoft.PowerShell.Commands.NewObjectCommand', { exceptionType: type });
}

function callError(method: string, argc: number, msg: string, id = 'HttpListenerException'): PsError {
  return new PsError(`Exception calling "${method}" with "${argc}" argument(s): "${msg}"`, 'NotSpecified', id, { exceptionType: 'MethodInvocationException' });
}

class Uri extends DotNet {
  readonly typeName = 'System.Uri';
  constructor(readonly url: URL) { super(); }
  override get(name: string): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'absoluteuri': case 'originalstring': return this.url.toString();
      case 'absolutepath': case 'localpath': return this.url.pathname;
      case 'pathandquery': return this.url.pathname + this.url.search;
      case 'query': return this.url.search;
      case 'host': case 'dnssafehost': return this.url.hostname;
      case 'port': return Number(this.url.port || 80);
      case 'scheme': return this.url.protocol.replace(':', '');
      case 'authority': return this.url.host;
    }
    return undefined;
  }
  override toString(): string { return this.url.toString(); }
  override properties(): string[] { return ['AbsolutePath', 'AbsoluteUri', 'LocalPath', 'Authority', 'Host', 'Port', 'Query', 'Scheme']; }
}

class IPEndPoint extends DotNet {
  readonly typeName = 'System.Net.IPEndPoint';
  constructor(readonly address: IPAddress, readonly port: number) { super(); }
  override get(name: string): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'address': return this.address;
      case 'port': return this.port;
      case 'addressfamily': return 'InterNetwork';
    }
    return undefined;
  }
  override toString(): string { return `${this.address.ip}:${this.port}`; }
  override properties(): string[] { return ['AddressFamily', 'Address', 'Port']; }
}

class OutputStream extends DotNet {
  readonly typeName = 'System.Net.HttpResponseStream';
  chunks: Buffer[] = [];
  constructor(private readonly onClose: () => void) { super(); }
  override call(name: string, args: PsValue[]): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'write': {
        const v = args[0] ?? null;
        const buf = Buffer.isBuffer(v) ? v : Buffer.from(enumerate(v).map((x) => toNum(x)));
        const off = args.length > 1 ? toNum(args[1]) : 0;
        const count = args.length > 2 ? toNum(args[2]) : buf.length - off;
        this.chunks.push(buf.subarray(off, off + count));
        return null;
      }
      case 'flush': return null;
      case 'close': case 'dispose': this.onClose(); return null;
    }
    return undefined;
  }
}

class ListenerResponse extends DotNet {
  readonly typeName = 'System.Net.HttpListenerResponse';
  status = 200;
  description = 'OK';
  headers = new Hashtable();
  contentType?: string;
  contentLength?: number;
  closed = false;
  readonly stream: OutputStream;
  constructor(private readonly done: (r: HttpResponse) => void, private readonly now: () => number) {
    super();
    this.stream = new OutputStream(() => this.close());
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const body = Buffer.concat(this.stream.chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of this.headers.entries()) headers[toStr(k)] = toStr(v);
    if (this.contentType) headers['Content-Type'] = this.contentType;
    headers['Content-Length'] = String(this.contentLength ?? body.length);
    headers.Server = 'Microsoft-HTTPAPI/2.0';
    headers.Date = new Date(this.now()).toUTCString();
    this.done({ status: this.status, headers, body });
  }
  override get(name: string): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'statuscode': return this.status;
      case 'statusdescription': return this.description;
      case 'outputstream': return this.stream;
      case 'contenttype': return this.contentType ?? null;
      case 'contentlength64': return this.contentLength ?? 0;
      case 'headers': return this.headers;
      case 'keepalive': return true;
    }
    return undefined;
  }
  override set(name: string, v: PsValue): boolean {
    switch (name.toLowerCase()) {
      case 'statuscode': this.status = toNum(v); this.description = STATUS_TEXT[this.status] ?? ''; return true;
      case 'statusdescription': this.description = toStr(v); return true;
      case 'contenttype': this.contentType = toStr(v); return true;
      case 'contentlength64': this.contentLength = toNum(v); return true;
      case 'keepalive': case 'sendchunked': case 'contentencoding': return true;
    }
    return false;
  }
  override call(name: string, args: PsValue[]): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'close': this.close(); return null;
      case 'addheader': case 'appendheader': this.headers.set(args[0] ?? null, args[1] ?? null); return null;
      case 'redirect': this.status = 302; this.headers.set('Location', args[0] ?? null); return null;
      case 'abort': this.close(); return null;
    }
    return undefined;
  }
}

class ListenerRequest extends DotNet {
  readonly typeName = 'System.Net.HttpListenerRequest';
  constructor(readonly req: HttpRequest) { super(); }
  override get(name: string): PsValue | undefined {
    const r = this.req;
    const host = r.headers.Host ?? r.headers.host ?? `${r.localAddress}:${r.localPort}`;
    switch (name.toLowerCase()) {
      case 'url': return new Uri(new URL(`http://${host}${r.path}`));
      case 'rawurl': return r.path;
      case 'httpmethod': return r.method;
      case 'remoteendpoint': return new IPEndPoint(new IPAddress(r.remoteAddress), r.remotePort);
      case 'localendpoint': return new IPEndPoint(new IPAddress(r.localAddress), r.localPort);
      case 'useragent': return r.headers['User-Agent'] ?? r.headers['user-agent'] ?? null;
      case 'headers': { const h = new Hashtable(); for (const [k, v] of Object.entries(r.headers)) h.set(k, v); return h; }
      case 'hasentitybody': return r.body.length > 0;
      case 'contentlength64': return r.body.length;
      case 'isLocal': case 'islocal': return r.remoteAddress.startsWith('127.');
      case 'querystring': {
        const h = new Hashtable();
        new URLSearchParams(r.path.split('?')[1] ?? '').forEach((v, k) => h.set(k, v));
        return h;
      }
    }
    return undefined;
  }
}

class ListenerContext extends DotNet {
  readonly typeName = 'System.Net.HttpListenerContext';
  constructor(readonly request: ListenerRequest, readonly response: ListenerResponse) { super(); }
  override get(name: string): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'request': return this.request;
      case 'response': return this.response;
      case 'user': return null;
    }
    return undefined;
  }
}

class PrefixCollection extends DotNet {
  readonly typeName = 'System.Net.HttpListenerPrefixCollection';
  readonly items: string[] = [];
  override call(name: string, args: PsValue[]): PsValue | undefined {
    if (name.toLowerCase() === 'add') {
      const p = toStr(args[0] ?? null);
      if (!/^https?:\/\/[^/]+\/$/i.test(p)) throw callError('Add', 1, 'Only Uri prefixes ending in \'/\' are allowed.\r\nParameter name: uriPrefix', 'ArgumentException');
      this.items.push(p);
      return null;
    }
    if (name.toLowerCase() === 'clear') { this.items.length = 0; return null; }
    return undefined;
  }
  override get(name: string): PsValue | undefined { return name.toLowerCase() === 'count' ? this.items.length : undefined; }
  override toString(): string { return this.items.join(' '); }
}

export class HttpListener extends DotNet {
  readonly typeName = 'System.Net.HttpListener';
  readonly prefixes = new PrefixCollection();
  listening = false;
  private queue: ListenerContext[] = [];
  private waiters: ((c: ListenerContext) => void)[] = [];
  private stop = new AbortController();
  constructor(private readonly ctx: Ctx) { super(); }

  private port(prefix: string): number {
    const m = /^(https?):\/\/([^/:]+)(?::(\d+))?\//i.exec(prefix)!;
    return m[3] ? Number(m[3]) : m[1].toLowerCase() === 'https' ? 443 : 80;
  }

  private start(): void {
    if (this.listening) return;
    if (this.prefixes.items.some((p) => !/^https?:\/\/(localhost|127\.0\.0\.1)[:/]/i.test(p)) && !isWindowsAdmin(this.ctx.env.user.name)) {
      throw callError('Start', 0, 'Access is denied');
    }
    const signal = this.stop.signal;
    const outer = this.ctx.signal;
    outer.addEventListener('abort', () => this.stop.abort(outer.reason), { once: true });
    for (const p of new Set(this.prefixes.items.map((x) => this.port(x)))) {
      const handler = (req: HttpRequest) => new Promise<HttpResponse>((resolve) => {
        const res = new ListenerResponse(resolve, () => this.ctx.env.clock.now());
        this.deliver(new ListenerContext(new ListenerRequest(req), res));
      });
      if (listen(this.ctx.env, { port: p, protocol: 'TCP', handler, program: 'powershell.exe' }, signal) === 'in-use') {
        this.stop.abort('bind');
        this.stop = new AbortController();
        throw callError('Start', 0, 'The process cannot access the file because it is being used by another process');
      }
    }
    this.listening = true;
  }

  private deliver(c: ListenerContext): void {
    const w = this.waiters.shift();
    if (w) w(c); else this.queue.push(c);
  }

  private getContext(): Promise<ListenerContext> {
    if (!this.listening) throw callError('GetContext', 0, 'This operation cannot be performed before the listener is started (call the Start method).', 'InvalidOperationException');
    const ready = this.queue.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const signal = this.ctx.signal;
      if (signal.aborted) { reject(new Aborted(abortReason(signal))); return; }
      const onAbort = () => reject(new Aborted(abortReason(signal)));
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push((c) => { signal.removeEventListener('abort', onAbort); resolve(c); });
    });
  }

  override get(name: string): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'prefixes': return this.prefixes;
      case 'islistening': return this.listening;
      case 'ignorewriteexceptions': return false;
    }
    return undefined;
  }
  override set(name: string): boolean { return ['ignorewriteexceptions', 'authenticationschemes'].includes(name.toLowerCase()); }
  override call(name: string): Promise<PsValue> | PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'start': this.start(); return null;
      case 'getcontext': return this.getContext();
      case 'stop': case 'close': case 'abort': case 'dispose':
        this.listening = false;
        this.stop.abort('stop');
        this.stop = new AbortController();
        return null;
    }
    return undefined;
  }
}

export class WebClient extends DotNet {
  readonly typeName = 'System.Net.WebClient';
  constructor(private readonly ctx: Ctx) { super(); }
  override async call(name: string, args: PsValue[]): Promise<PsValue> {
    const n = name.toLowerCase();
    if (n !== 'downloadstring' && n !== 'downloadfile' && n !== 'downloaddata') return undefined as unknown as PsValue;
    const r = await fetchUrl(this.ctx, { method: 'GET', url: toStr(args[0] ?? null), timeoutMs: 100_000, followRedirects: true });
    if (!r.ok) {
      const msg = r.error === 'resolve' ? `The remote name could not be resolved: '${r.host}'` : r.error === 'timeout' ? 'The operation has timed out' : 'Unable to connect to the remote server';
      throw callError(name, args.length, msg, 'WebException');
    }
    if (r.status >= 400) throw callError(name, args.length, `The remote server returned an error: (${r.status}) ${STATUS_TEXT[r.status] ?? ''}.`, 'WebException');
    if (n === 'downloadstring') return r.body.toString();
    if (n === 'downloaddata') return r.body;
    this.ctx.env.fs.writeFile(this.ctx.env.fs.resolve(this.ctx.cwd, toStr(args[1] ?? null)), r.body, { cred: this.ctx.cred });
    return null;
  }
}

export class TcpClient extends DotNet {
  readonly typeName = 'System.Net.Sockets.TcpClient';
  connected = false;
  override get(name: string): PsValue | undefined {
    if (name.toLowerCase() === 'connected') return this.connected;
    return undefined;
  }
  override call(name: string): PsValue | undefined {
    if (['close', 'dispose'].includes(name.toLowerCase())) { this.connected = false; return null; }
    return undefined;
  }
  static async connect(ctx: Ctx, host: string, port: number): Promise<TcpClient> {
    const r = await resolveHost(ctx.env, host);
    if ('error' in r) throw ctorError(2, 'No such host is known', 'MethodInvocationException');
    const res = await ctx.env.network.connect(r.ip, port);
    if (res === 'refused') throw ctorError(2, `No connection could be made because the target machine actively refused it ${r.ip}:${port}`);
    if (res !== 'open') throw ctorError(2, `A connection attempt failed because the connected party did not properly respond after a period of time, or established connection failed because connected host has failed to respond ${r.ip}:${port}`);
    const c = new TcpClient();
    c.connected = true;
    return c;
  }
}
