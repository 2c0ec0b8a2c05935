// Programs an image adds on top of its base toolset (nginx, agnhost, curl, IIS...), with the files they use, and
// which repositories carry which.

import type { VirtualFs } from './vfs.js';
import { addSigWindowsToolsImage, type SigWindowsToolsImage } from './seed-sigwindowstools.js';
import { BUSYBOX_W32_APPLETS } from './program-names.js';

export type ImageProgram = 'pwsh' | 'e2e-busybox' | 'nginx' | 'curl' | 'agnhost' | 'python3' | 'httpd' | 'redis' | 'iis' | 'pause' | 'logmonitor' | 'coredns' | 'gmsa-webhook' | 'metrics-server' | 'sample-apiserver' | SigWindowsToolsImage;

function program(fs: VirtualFs, path: string, tag: string): void {
  const parent = path.replace(/[\\/][^\\/]+$/, '') || '/';
  fs.mkdir(parent, { parents: true });
  fs.writeFile(path, Buffer.from(`emulated ${tag}\n`), { mode: 0o755 }).program = tag;
}

// Written for winkube: an nginx welcome page carrying the real page's title and heading.
const NGINX_INDEX = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>This nginx web server is running inside a winkube emulated container.</p>
</body>
</html>
`;
const NGINX_DEFAULT_CONF = `server {
    listen       80;
    listen  [::]:80;
    server_name  localhost;

    location / {
        root   /usr/share/nginx/html;
        index  index.html index.htm;
    }
}
`;
const NGINX_CONF = `user  nginx;
worker_processes  auto;

error_log  /var/log/nginx/error.log notice;
pid        /var/run/nginx.pid;

events {
    worker_connections  1024;
}

http {
    include       /etc/nginx/mime.types;
    default_type  application/octet-stream;
    access_log  /var/log/nginx/access.log;
    sendfile        on;
    keepalive_timeout  65;
    include /etc/nginx/conf.d/*.conf;
}
`;
// Written for winkube: the entrypoint announces itself like the image's does, then runs its arguments.
const NGINX_ENTRYPOINT = `#!/bin/sh
set -e
if [ "$1" = "nginx" ] || [ "$1" = "nginx-debug" ]; then
    echo "/docker-entrypoint.sh: Configuration complete; ready for start up"
fi
exec "$@"
`;

function addNginx(fs: VirtualFs): void {
  program(fs, '/usr/sbin/nginx', 'nginx');
  fs.mkdir('/etc/nginx/conf.d', { parents: true });
  fs.writeFile('/etc/nginx/nginx.conf', NGINX_CONF);
  fs.writeFile('/etc/nginx/conf.d/default.conf', NGINX_DEFAULT_CONF);
  fs.writeFile('/etc/nginx/mime.types', 'types {\n    text/html html htm shtml;\n    text/css css;\n    application/javascript js;\n    application/json json;\n    text/plain txt;\n}\n');
  fs.mkdir('/usr/share/nginx/html', { parents: true });
  fs.writeFile('/usr/share/nginx/html/index.html', NGINX_INDEX);
  fs.writeFile('/usr/share/nginx/html/50x.html', '<!DOCTYPE html>\n<html>\n<head>\n<title>Error</title>\n</head>\n<body>\n<h1>An error occurred.</h1>\n</body>\n</html>\n');
  fs.mkdir('/var/log/nginx', { parents: true });
  fs.symlink('/dev/stdout', '/var/log/nginx/access.log');
  fs.symlink('/dev/stderr', '/var/log/nginx/error.log');
  fs.mkdir('/var/cache/nginx', { parents: true });
  fs.mkdir('/docker-entrypoint.d', { parents: true });
  fs.writeFile('/docker-entrypoint.sh', NGINX_ENTRYPOINT, { mode: 0o775 });
  if (fs.exists('/etc/passwd')) {
    fs.writeFile('/etc/passwd', 'nginx:x:101:101:nginx user:/nonexistent:/bin/false\n', { append: true });
    fs.writeFile('/etc/group', 'nginx:x:101:\n', { append: true });
  }
}

function addHttpd(fs: VirtualFs): void {
  program(fs, '/usr/local/apache2/bin/httpd', 'httpd');
  fs.mkdir('/usr/local/apache2/htdocs', { parents: true });
  fs.writeFile('/usr/local/apache2/htdocs/index.html', '<html><body><h1>It works!</h1></body></html>\n');
  fs.mkdir('/usr/local/bin', { parents: true });
  fs.writeFile('/usr/local/bin/httpd-foreground', '#!/bin/sh\nset -e\nexec /usr/local/apache2/bin/httpd -DFOREGROUND "$@"\n', { mode: 0o755 });
}

// Written for winkube: a LogMonitorConfig.json for IIS as the LogMonitor docs suggest — the IIS log directory, the
// System event log and the two IIS ETW providers — in the default JSON log format.
export const LOGMONITOR_IIS_CONFIG = `{
  "LogConfig": {
    "logFormat": "json",
    "sources": [
      { "type": "EventLog", "startAtOldestRecord": true, "eventFormatMultiLine": false,
        "channels": [ { "name": "system", "level": "Information" }, { "name": "application", "level": "Error" } ] },
      { "type": "File", "directory": "c:\\\\inetpub\\\\logs", "filter": "*.log", "includeSubdirectories": true },
      { "type": "ETW", "eventFormatMultiLine": false,
        "providers": [
          { "providerName": "IIS: WWW Server", "providerGuid": "3A2A4E84-4C21-4981-AE10-3FDA0D9B0F83", "level": "Information" },
          { "providerName": "Microsoft-Windows-IIS-Logging", "providerGuid": "7E8AD27F-B271-4EA2-A783-A47BDE29143B", "level": "Information" }
        ] }
    ]
  }
}
`;

/**
 * LogMonitor.exe beside its configuration in C:\LogMonitor (the layout the LogMonitor README asks for). A present
 * configuration is kept: a pod may mount its own over it.
 */
export function addLogMonitor(fs: VirtualFs, exePath = 'C:\\LogMonitor\\LogMonitor.exe'): void {
  // Under a read-only mount (a ConfigMap over C:\LogMonitor) the image's files are hidden, as on Windows.
  if (fs.isReadOnly(exePath)) return;
  if (!fs.exists(exePath)) program(fs, exePath, 'win:LogMonitor');
  const dir = exePath.replace(/[\\/][^\\/]+$/, '');
  const cfg = `${dir}\\LogMonitorConfig.json`;
  if (!fs.exists(cfg) && !fs.isReadOnly(dir)) fs.writeFile(cfg, LOGMONITOR_IIS_CONFIG.replace(/\n/g, '\r\n'));
}

/**
 * The Windows e2e busybox image's own files (kubernetes test/images/busybox/Dockerfile_windows): busybox.exe and a link
 * per applet in C:\bin (also Files\busybox.exe, the links' target), netcat as C:\bin\nc.exe, hostname.exe, curl in
 * C:\curl, BIND's dig and nslookup in C:\dig, C:\tmp. Its PowerShell 6.2 (pwsh.exe) is present but not emulated.
 */
function addE2eBusyboxWindows(fs: VirtualFs): void {
  for (const d of ['C:\\bin\\Files', 'C:\\curl', 'C:\\dig', 'C:\\tmp', 'C:\\Program Files\\PowerShell\\Files']) fs.mkdir(d, { parents: true });
  program(fs, 'C:\\bin\\busybox.exe', 'busybox-w32');
  program(fs, 'C:\\bin\\Files\\busybox.exe', 'busybox-w32');
  for (const a of BUSYBOX_W32_APPLETS) program(fs, `C:\\bin\\${a}.exe`, 'busybox-w32');
  program(fs, 'C:\\bin\\nc.exe', 'win:nc');
  program(fs, 'C:\\bin\\hostname.exe', 'win:hostname');
  program(fs, 'C:\\curl\\curl.exe', 'win:curl');
  program(fs, 'C:\\dig\\nslookup.exe', 'win:bind-nslookup');
  program(fs, 'C:\\dig\\dig.exe', 'win:absent:dig.exe');
  program(fs, 'C:\\Program Files\\PowerShell\\pwsh.exe', 'win:absent:pwsh.exe');
}

/** Adds the programs (and their files) an image carries beyond its toolset. */
export function addExtras(fs: VirtualFs, os: 'linux' | 'windows', extras: readonly ImageProgram[], windowsRoot = 'C:'): void {
  for (const x of extras) {
    if (os === 'windows') {
      // A HostProcess container finds these images' files under its sandbox mount point (windowsRoot), where their
      // ENTRYPOINT looks for them; the older extras keep their fixed paths.
      if (x === 'sigwindowstools-kube-proxy' || x === 'sigwindowstools-flannel') addSigWindowsToolsImage(fs, x, windowsRoot);
      if (x === 'agnhost') program(fs, 'C:\\agnhost.exe', 'agnhost');
      if (x === 'pwsh') program(fs, 'C:\\Program Files\\PowerShell\\pwsh.exe', 'win:pwsh');
      if (x === 'pause') program(fs, 'C:\\pause.exe', 'pause');
      if (x === 'iis') {
        program(fs, 'C:\\ServiceMonitor.exe', 'win:ServiceMonitor');
        fs.mkdir('C:\\inetpub\\wwwroot', { parents: true });
        fs.mkdir('C:\\inetpub\\logs\\LogFiles', { parents: true });
        fs.writeFile('C:\\inetpub\\wwwroot\\iisstart.htm', '<!DOCTYPE html>\r\n<html>\r\n<head>\r\n<title>IIS Windows Server</title>\r\n</head>\r\n<body>\r\n<div id="container">IIS Windows Server</div>\r\n</body>\r\n</html>\r\n');
        program(fs, 'C:\\Windows\\System32\\inetsrv\\w3wp.exe', 'win:w3wp');
      }
      if (x === 'logmonitor') addLogMonitor(fs);
      if (x === 'e2e-busybox') addE2eBusyboxWindows(fs);
      continue;
    }
    switch (x) {
      case 'nginx': addNginx(fs); break;
      case 'curl': program(fs, '/usr/bin/curl', 'curl'); break;
      case 'agnhost': program(fs, '/agnhost', 'agnhost'); break;
      case 'pause': program(fs, '/pause', 'pause'); break;
      case 'coredns': program(fs, '/coredns', 'coredns'); break;
      case 'metrics-server': program(fs, '/metrics-server', 'metrics-server'); break;
      case 'sample-apiserver': program(fs, '/sample-apiserver', 'sample-apiserver'); break;
      case 'gmsa-webhook': program(fs, '/admission-webhook/admission-webhook', 'gmsa-webhook'); break;
      case 'python3':
        program(fs, '/usr/bin/python3', 'python3');
        fs.symlink('python3', '/usr/bin/python');
        break;
      case 'httpd': addHttpd(fs); break;
      case 'redis':
        program(fs, '/usr/local/bin/redis-server', 'redis-server');
        program(fs, '/usr/local/bin/redis-cli', 'redis-cli');
        // Written for winkube: the image's ENTRYPOINT (`docker-entrypoint.sh`, found on PATH) runs its arguments.
        fs.writeFile('/usr/local/bin/docker-entrypoint.sh', '#!/bin/sh\nset -e\nexec "$@"\n', { mode: 0o755 });
        fs.mkdir('/data', { parents: true });
        break;
      default: break;
    }
  }
}

/** The extra programs of well-known repositories (the rest carry only their toolset). */
export function extrasForImage(repository: string): ImageProgram[] {
  const r = repository.toLowerCase();
  if (/(^|\/)pause$/.test(r)) return ['pause'];
  if (r === 'mcr.microsoft.com/powershell') return ['pwsh'];
  if (r === 'registry.k8s.io/e2e-test-images/busybox') return ['e2e-busybox'];
  if (r.endsWith('/nginx')) return r.includes('e2e-test-images') ? ['nginx'] : ['nginx', 'curl'];
  if (r.endsWith('/agnhost')) return ['agnhost'];
  if (r.endsWith('/coredns')) return ['coredns'];
  if (r.endsWith('/metrics-server')) return ['metrics-server'];
  if (r.endsWith('/sample-apiserver')) return ['sample-apiserver'];
  if (r.endsWith('/k8s-gmsa-webhook')) return ['gmsa-webhook'];
  if (r.endsWith('sigwindowstools/kube-proxy')) return ['sigwindowstools-kube-proxy'];
  if (r.endsWith('sigwindowstools/flannel')) return ['sigwindowstools-flannel'];
  if (r.endsWith('/httpd')) return ['httpd'];
  if (r.endsWith('/redis')) return ['redis'];
  if (r.endsWith('/python') || r.includes('python')) return ['python3'];
  if (r.includes('logmonitor')) return ['iis', 'logmonitor'];
  if (r.endsWith('/iis') || r.includes('/dotnet/framework/aspnet') || r.includes('/dotnet/framework/samples')) return ['iis'];
  return [];
}
