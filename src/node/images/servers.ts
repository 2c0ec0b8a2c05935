// The servers images run, as the catalogue knows them: which ports a container listens on and what it answers over
// HTTP, from its image and command line (agnhost subcommands as test/images/agnhost documents them, nginx, httpd,
// IIS). Probes, port-forward and (later) Services reach containers through this.

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface HttpRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Milliseconds since the serving process started, and the clock's now. */
  uptimeMs: number;
  now: number;
  clientIP: string;
}

/** A server a container runs: its port and how it answers a request `uptimeMs` after the process started. */
export interface ServerModel {
  port: number;
  protocol: 'TCP' | 'UDP';
  /** Undefined for a TCP server that does not speak HTTP (e.g. redis). */
  http?: (req: HttpRequest) => HttpAnswer;
}

export interface ServerContext {
  repository: string;
  /** The process argv after the image's ENTRYPOINT/CMD were applied (command ++ args). */
  argv: string[];
  hostname: string;
  podIP: string;
}

const text = (status: number, body: string): HttpAnswer => ({ status, contentType: 'text/plain; charset=utf-8', body });
const html = (status: number, body: string): HttpAnswer => ({ status, contentType: 'text/html', body });

const NGINX_INDEX = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>
</body>
</html>
`;
const NGINX_404 = '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

function flag(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === `--${name}` || a === `-${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

/** agnhost's servers by subcommand (test/images/agnhost/<subcommand>). */
function agnhost(ctx: ServerContext): ServerModel[] {
  const i = ctx.argv.findIndex((a) => /(^|\/)agnhost(\.exe)?$/.test(a));
  const sub = ctx.argv[i + 1] ?? ctx.argv[0];
  const args = ctx.argv.slice(i + 2);
  switch (sub) {
    case 'liveness':
      // liveness: /healthz answers 200 for the first 10 seconds, then 500 with how long it has been up.
      return [{ port: 8080, protocol: 'TCP', http: ({ path, uptimeMs }) => {
        if (path !== '/healthz') return text(404, '404 page not found\n');
        return uptimeMs > 10_000 ? text(500, `error: ${(uptimeMs / 1000).toFixed(6)}`) : text(200, 'ok');
      } }];
    case 'netexec': {
      const port = Number(flag(args, 'http-port') ?? 8080);
      return [{ port, protocol: 'TCP', http: ({ path, query, clientIP, now }) => {
        switch (path) {
          case '/': case '/echo': return text(200, query.get('msg') ?? `NOW: ${new Date(now).toISOString()}`);
          case '/hostname': return text(200, ctx.hostname);
          case '/clientip': return text(200, `${clientIP}:40000`);
          case '/healthz': case '/readyz': return text(200, 'ok');
          case '/header': return text(200, '');
        }
        return text(404, '404 page not found\n');
      } }, { port: Number(flag(args, 'udp-port') ?? 8081), protocol: 'UDP' }];
    }
    case 'serve-hostname': {
      const port = Number(flag(args, 'port') ?? 9376);
      return [{ port, protocol: flag(args, 'udp') === 'true' ? 'UDP' : 'TCP', http: () => text(200, ctx.hostname) }];
    }
    case 'test-webserver': {
      const port = Number(flag(args, 'port') ?? 80);
      return [{ port, protocol: 'TCP', http: ({ path }) => (path === '/' ? text(200, 'Hello World!') : text(404, '404 page not found\n')) }];
    }
    case 'porter':
      return [];
  }
  return [];
}

/** The servers a container runs; none for images and commands the catalogue does not know as servers. */
export function serversOf(ctx: ServerContext): ServerModel[] {
  const cmd = ctx.argv.join(' ');
  switch (ctx.repository) {
    case 'registry.k8s.io/e2e-test-images/agnhost':
      return agnhost(ctx);
    case 'docker.io/library/nginx':
    case 'registry.k8s.io/e2e-test-images/nginx':
      if (!/\bnginx\b/.test(cmd)) return [];
      return [{ port: 80, protocol: 'TCP', http: ({ path }) => (path === '/' || path === '/index.html' ? html(200, NGINX_INDEX) : html(404, NGINX_404)) }];
    case 'docker.io/library/httpd':
    case 'registry.k8s.io/e2e-test-images/httpd':
      if (!/httpd/.test(cmd)) return [];
      return [{ port: 80, protocol: 'TCP', http: ({ path }) => (path === '/' ? html(200, '<html><body><h1>It works!</h1></body></html>\n') : html(404, '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n')) }];
    case 'docker.io/library/redis':
      return /redis-server/.test(cmd) ? [{ port: 6379, protocol: 'TCP' }] : [];
    case 'mcr.microsoft.com/windows/servercore/iis':
    case 'mcr.microsoft.com/dotnet/framework/aspnet':
    case 'mcr.microsoft.com/dotnet/framework/samples':
      if (!/ServiceMonitor/i.test(cmd)) return [];
      return [{ port: 80, protocol: 'TCP', http: ({ path }) => (path === '/' ? html(200, '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN">\r\n<html><head><title>IIS Windows Server</title></head><body><div id="container"><a href="http://go.microsoft.com/fwlink/?linkid=66138&amp;clcid=0x409"><img src="iisstart.png" alt="IIS" width="960" height="600" /></a></div></body></html>') : html(404, '<h2>404 - File or directory not found.</h2>')) }];
  }
  return [];
}
