// Registers every emulated program under the tag its executable carries in the container's filesystem (see
// fs/seed-*.ts). A tag with no entry here runs as "not available in this emulated container".

import { PROGRAMS } from './core/registry.js';
import type { Program } from './core/ctx.js';
import { GNU_PROGRAMS } from './fs/program-names.js';
import { APPLETS, busybox, gnuProgram } from './applets/index.js';
import { busyboxW32 } from './applets/busybox-w32.js';
import { curlMain } from './applets/http-tools.js';
import { shellMain } from './sh/main.js';
import { tarMain } from './tar/tar-program.js';
import { nginx } from './servers/nginx.js';
import { agnhost } from './servers/agnhost.js';
import { coredns } from './servers/coredns.js';
import { metricsServer } from './servers/apiserver/metrics-server.js';
import { sampleApiserver } from './servers/apiserver/sample-apiserver.js';
import { gmsaWebhook } from './servers/gmsa-webhook.js';
import { apacheHttpd, pause, python, redisServer, serviceMonitor } from './servers/misc.js';
import { cmdMain } from './win/cmd-main.js';
import { ipconfigExe, netstatExe, nslookupExe, pingExe } from './win/net-tools.js';
import { findExe, findstrExe, hostnameExe, moreExe, nltestExe, sortExe, systeminfoExe, tasklistExe, timeoutExe, whereExe, whoamiExe } from './win/sys-tools.js';
import { powershellMain } from './ps/main.js';
import { logMonitor } from './win/log-monitor.js';
import { scExe } from './win/sc-exe.js';
import { kubeProxyExe } from './win/k8s/kube-proxy-exe.js';
import { flanneldExe } from './win/k8s/flanneld-exe.js';
import { hostLocalExe, routeExe } from './win/k8s/cni-tools.js';

const table: Record<string, Program> = {
  busybox,
  'busybox-w32': busyboxW32,
  // The e2e busybox image's netcat (nc64.exe) and BIND nslookup.exe, run by the BusyBox applets of the same name.
  'win:nc': (argv, ctx) => APPLETS.nc(argv, ctx, 'busybox'),
  'win:bind-nslookup': (argv, ctx) => APPLETS.nslookup(argv, ctx, 'busybox'),
  bash: (argv, ctx) => shellMain(argv, ctx, 'bash'),
  dash: (argv, ctx) => shellMain(argv, ctx, 'dash'),
  curl: curlMain,
  nginx,
  agnhost,
  coredns,
  'metrics-server': metricsServer,
  'sample-apiserver': sampleApiserver,
  'gmsa-webhook': gmsaWebhook,
  pause,
  python3: python,
  httpd: apacheHttpd,
  'redis-server': redisServer,
  'win:cmd': cmdMain,
  'win:powershell': powershellMain,
  'win:pwsh': (argv, ctx) => powershellMain(argv, ctx, 'Core'),
  'win:ping': pingExe,
  'win:nslookup': nslookupExe,
  'win:ipconfig': ipconfigExe,
  'win:netstat': netstatExe,
  'win:curl': curlMain,
  'win:tar': (argv, ctx) => tarMain(argv, ctx, 'bsdtar'),
  'win:whoami': whoamiExe,
  'win:hostname': hostnameExe,
  'win:systeminfo': systeminfoExe,
  'win:tasklist': tasklistExe,
  'win:nltest': nltestExe,
  'win:timeout': timeoutExe,
  'win:findstr': findstrExe,
  'win:find': findExe,
  'win:where': whereExe,
  'win:sort': sortExe,
  'win:more': moreExe,
  'win:ServiceMonitor': serviceMonitor,
  'win:LogMonitor': logMonitor,
  'win:sc': scExe,
  'win:route': routeExe,
  'win:kube-proxy': kubeProxyExe,
  'win:flanneld': flanneldExe,
  'win:host-local': hostLocalExe,
};

for (const p of GNU_PROGRAMS) table[`gnu:${p}`] = gnuProgram(p);

for (const [name, program] of Object.entries(table)) PROGRAMS.register(name, program);
