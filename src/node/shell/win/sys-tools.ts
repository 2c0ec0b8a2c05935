// Windows system tools: whoami, hostname, systeminfo, tasklist, nltest (GMSA checks in the Kubernetes e2e tests:
// `nltest /PARENTDOMAIN` starts with the domain and says "The command completed successfully"; without a credential
// spec it fails with RPC_S_SERVER_UNAVAILABLE — k8s docs "Configure GMSA", troubleshooting), timeout, findstr, find,
// where, sort, more.

import { sleep, type Ctx } from '../core/ctx.js';
import { findWindows } from '../core/exec.js';
import { computerName, crlf, CRLF, thousands, usDateTime, windowsVersion } from './format.js';
import { macWindows } from './net-tools.js';

export async function whoamiExe(argv: string[], ctx: Ctx): Promise<number> {
  const name = ctx.env.user.name;
  const full = name.includes('\\') ? name : `User Manager\\${name}`;
  if (argv.some((a) => /^\/upn$/i.test(a))) {
    ctx.stderr.write(`ERROR: Unable to get User Principal Name (UPN) as the current logged-on user${CRLF}       is not a domain user.${CRLF}`);
    return 1;
  }
  ctx.stdout.write(`${full.toLowerCase()}${CRLF}`);
  return 0;
}

export async function hostnameExe(argv: string[], ctx: Ctx): Promise<number> {
  if (argv.length > 1) { ctx.stderr.write(`sethostname: Use the Network Control Panel Applet to set hostname.${CRLF}hostname -s is not supported.${CRLF}`); return 1; }
  ctx.stdout.write(`${ctx.env.hostname}${CRLF}`);
  return 0;
}

function row(label: string, value: string): string {
  return `${`${label}:`.padEnd(27)}${value}`;
}

export async function systeminfoExe(_argv: string[], ctx: Ctx): Promise<number> {
  const env = ctx.env;
  const ver = windowsVersion(env);
  const build = ver.split('.')[2];
  const mb = Math.floor(env.system.memoryBytes / 1024 / 1024);
  const lines = [
    '',
    row('Host Name', computerName(env.hostname)),
    row('OS Name', `Microsoft ${env.system.osImage.replace(/^Microsoft /, '')}`),
    row('OS Version', `${ver.split('.').slice(0, 3).join('.')} N/A Build ${build}`),
    row('OS Manufacturer', 'Microsoft Corporation'),
    row('OS Configuration', 'Standalone Server'),
    row('OS Build Type', 'Multiprocessor Free'),
    row('Registered Owner', 'N/A'),
    row('Registered Organization', 'N/A'),
    row('Product ID', 'N/A'),
    row('Original Install Date', usDateTime(env.system.bootTimeMs - 86_400_000)),
    row('System Boot Time', usDateTime(env.system.bootTimeMs)),
    row('System Manufacturer', 'Microsoft Corporation'),
    row('System Model', 'Virtual Machine'),
    row('System Type', 'x64-based PC'),
    row('Processor(s)', `${env.system.cpus} Processor(s) Installed.`),
    ...Array.from({ length: env.system.cpus }, (_, i) => `${' '.repeat(27)}[${String(i + 1).padStart(2, '0')}]: Intel64 Family 6 Model 85 Stepping 7 GenuineIntel ~2594 Mhz`),
    row('BIOS Version', 'Microsoft Corporation Hyper-V UEFI Release v4.1, 5/13/2024'),
    row('Windows Directory', 'C:\\Windows'),
    row('System Directory', 'C:\\Windows\\system32'),
    row('Boot Device', '\\Device\\HarddiskVolume1'),
    row('System Locale', 'en-us;English (United States)'),
    row('Input Locale', 'en-us;English (United States)'),
    row('Time Zone', '(UTC) Coordinated Universal Time'),
    row('Total Physical Memory', `${thousands(mb)} MB`),
    row('Available Physical Memory', `${thousands(Math.floor(mb * 0.7))} MB`),
    row('Virtual Memory: Max Size', `${thousands(mb + 1280)} MB`),
    row('Virtual Memory: Available', `${thousands(Math.floor(mb * 0.8))} MB`),
    row('Virtual Memory: In Use', `${thousands(mb + 1280 - Math.floor(mb * 0.8))} MB`),
    row('Page File Location(s)', 'N/A'),
    row('Domain', env.gmsa?.domain ?? 'WORKGROUP'),
    row('Logon Server', 'N/A'),
    row('Hotfix(s)', 'N/A'),
    row('Network Card(s)', `${env.network.interfaces.length} NIC(s) Installed.`),
    ...env.network.interfaces.flatMap((i, k) => [`${' '.repeat(27)}[${String(k + 1).padStart(2, '0')}]: Hyper-V Virtual Ethernet Container Adapter`, `${' '.repeat(33)}Connection Name: ${i.name}`, `${' '.repeat(33)}DHCP Enabled:    No`, `${' '.repeat(33)}IP address(es)`, `${' '.repeat(33)}[01]: ${i.ip}`, `${' '.repeat(33)}Physical Address: ${macWindows(i.mac)}`]),
    row('Hyper-V Requirements', 'A hypervisor has been detected. Features required for Hyper-V will not be displayed.'),
  ];
  ctx.stdout.write(crlf(lines));
  return 0;
}

export async function tasklistExe(_argv: string[], ctx: Ctx): Promise<number> {
  const procs = [...ctx.env.processes()];
  procs.push({ pid: Math.max(0, ...procs.map((p) => p.pid)) + 4, name: 'tasklist.exe', memKB: 8_640, sessionName: 'Services' });
  const lines = ['', 'Image Name                     PID Session Name        Session#    Mem Usage', '========================= ======== ================ =========== ============'];
  for (const p of procs) {
    lines.push(`${p.name.slice(0, 25).padEnd(25)} ${String(p.pid).padStart(8)} ${(p.sessionName ?? 'Services').padEnd(16)} ${String(p.sessionName === '' ? 0 : 1).padStart(11)} ${`${thousands(p.memKB)} K`.padStart(12)}`);
  }
  ctx.stdout.write(crlf(lines));
  return 0;
}

export async function nltestExe(argv: string[], ctx: Ctx): Promise<number> {
  const op = (argv[1] ?? '').toLowerCase();
  const g = ctx.env.gmsa;
  const ok = (lines: string[]) => { ctx.stdout.write(crlf([...lines, 'The command completed successfully'])); return 0; };
  if (op === '/parentdomain') {
    if (g) return ok([`${g.domain}. (1)`]);
    ctx.stdout.write(`Getting parent domain failed: Status = 1722 0x6ba RPC_S_SERVER_UNAVAILABLE${CRLF}`);
    return 1;
  }
  if (op === '/query') {
    if (g) return ok(['Flags: 0', 'Connection Status = 0 0x0 NERR_Success']);
    ctx.stdout.write(`I_NetLogonControl failed: Status = 1722 0x6ba RPC_S_SERVER_UNAVAILABLE${CRLF}`);
    return 1;
  }
  if (op.startsWith('/sc_verify') || op.startsWith('/sc_reset') || op.startsWith('/sc_query')) {
    if (g) return ok(['Flags: 30 HAS_IP  HAS_TIMESERV', `Trusted DC Name \\\\dc1.${g.domain}`, 'Trusted DC Connection Status Status = 0 0x0 NERR_Success', ...(op.startsWith('/sc_verify') ? ['Trust Verification Status = 0 0x0 NERR_Success'] : [])]);
    ctx.stdout.write(`I_NetLogonControl failed: Status = 1722 0x6ba RPC_S_SERVER_UNAVAILABLE${CRLF}`);
    return 1;
  }
  ctx.stdout.write(`Usage: nltest [/OPTIONS]${CRLF}${CRLF}    /SERVER:<ServerName> - Specify <ServerName>${CRLF}    /QUERY - Query <ServerName> netlogon service${CRLF}    /PARENTDOMAIN - Get the name of the parent domain of this machine${CRLF}`);
  return 87;
}

export async function timeoutExe(argv: string[], ctx: Ctx): Promise<number> {
  const i = argv.findIndex((a) => /^[/-]t$/i.test(a));
  const secs = Number(i >= 0 ? argv[i + 1] : argv[1]);
  if (Number.isNaN(secs) || secs < -1 || secs > 99999) {
    ctx.stderr.write(`ERROR: Invalid value for timeout (/T) specified. Valid range is -1 to 99999.${CRLF}`);
    return 1;
  }
  // Without a console to read keys from, timeout.exe refuses to run (a container's stdin is redirected).
  if (!ctx.stdin.isTTY) {
    ctx.stderr.write(`ERROR: Input redirection is not supported, exiting the process immediately.${CRLF}`);
    return 1;
  }
  ctx.stdout.write(`${CRLF}Waiting for ${String(secs).padStart(2)} seconds, press a key to continue ...`);
  for (let left = secs; left > 0; left--) {
    await sleep(ctx, 1000);
    ctx.stdout.write(`\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b${String(left - 1).padStart(2)} seconds, press a key to continue ...`);
  }
  ctx.stdout.write(CRLF);
  return 0;
}

async function inputText(ctx: Ctx, files: string[]): Promise<{ name?: string; text: string }[] | string> {
  if (files.length === 0) return [{ text: (await ctx.stdin.readAll()).toString() }];
  const out: { name?: string; text: string }[] = [];
  for (const f of files) {
    try { out.push({ name: f, text: ctx.env.fs.readFile(ctx.env.fs.resolve(ctx.cwd, f)).toString() }); } catch { return f; }
  }
  return out;
}

export async function findstrExe(argv: string[], ctx: Ctx): Promise<number> {
  const opts = argv.slice(1).filter((a) => /^\/[a-z]/i.test(a) && !/^\/c:/i.test(a)).map((a) => a.toLowerCase());
  const literal = argv.slice(1).filter((a) => /^\/c:/i.test(a)).map((a) => a.slice(3));
  const rest = argv.slice(1).filter((a) => !a.startsWith('/'));
  const patterns = literal.length ? literal : (rest.shift() ?? '').split(' ').filter(Boolean);
  const ci = opts.includes('/i');
  const invert = opts.includes('/v');
  const regex = opts.includes('/r');
  const inputs = await inputText(ctx, rest);
  if (typeof inputs === 'string') { ctx.stderr.write(`FINDSTR: Cannot open ${inputs}${CRLF}`); return 1; }
  let matched = false;
  for (const inp of inputs) {
    for (const line of inp.text.split(/\r?\n/).filter((l, i, arr) => l !== '' || i < arr.length - 1)) {
      const hit = patterns.some((p) => (regex ? new RegExp(p, ci ? 'i' : '').test(line) : (ci ? line.toLowerCase().includes(p.toLowerCase()) : line.includes(p))));
      if (hit === invert) continue;
      matched = true;
      ctx.stdout.write(`${inputs.length > 1 && inp.name ? `${inp.name}:` : ''}${line}${CRLF}`);
    }
  }
  return matched ? 0 : 1;
}

export async function findExe(argv: string[], ctx: Ctx): Promise<number> {
  const opts = argv.slice(1).filter((a) => a.startsWith('/')).map((a) => a.toLowerCase());
  const rest = argv.slice(1).filter((a) => !a.startsWith('/'));
  const needle = rest.shift();
  if (needle === undefined) { ctx.stderr.write(`FIND: Parameter format not correct${CRLF}`); return 2; }
  const inputs = await inputText(ctx, rest);
  if (typeof inputs === 'string') { ctx.stderr.write(`File not found - ${inputs.toUpperCase()}${CRLF}`); return 1; }
  let matched = false;
  for (const inp of inputs) {
    const lines = inp.text.split(/\r?\n/).filter((l, i, arr) => l !== '' || i < arr.length - 1);
    const hits = lines.filter((l) => (opts.includes('/i') ? l.toLowerCase().includes(needle.toLowerCase()) : l.includes(needle)) !== opts.includes('/v'));
    if (hits.length) matched = true;
    if (inp.name) ctx.stdout.write(`${CRLF}---------- ${inp.name.toUpperCase()}${opts.includes('/c') ? `: ${hits.length}` : ''}${CRLF}`);
    else if (opts.includes('/c')) ctx.stdout.write(`${hits.length}${CRLF}`);
    if (!opts.includes('/c')) ctx.stdout.write(hits.map((h) => h + CRLF).join(''));
  }
  return matched ? 0 : 1;
}

export async function whereExe(argv: string[], ctx: Ctx): Promise<number> {
  let found = false;
  for (const n of argv.slice(1).filter((a) => !a.startsWith('/'))) {
    const f = findWindows(ctx.env, n, ctx.vars, ctx.cwd, 'cmd');
    if ('error' in f) continue;
    found = true;
    ctx.stdout.write(`${f.path}${CRLF}`);
  }
  if (!found) { ctx.stderr.write(`INFO: Could not find files for the given pattern(s).${CRLF}`); return 1; }
  return 0;
}

export async function sortExe(argv: string[], ctx: Ctx): Promise<number> {
  const inputs = await inputText(ctx, argv.slice(1).filter((a) => !a.startsWith('/')));
  if (typeof inputs === 'string') { ctx.stderr.write(`The system cannot find the file specified.${CRLF}`); return 1; }
  const lines = inputs.flatMap((i) => i.text.split(/\r?\n/)).filter(Boolean).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  if (argv.some((a) => /^\/r$/i.test(a))) lines.reverse();
  ctx.stdout.write(lines.map((l) => l + CRLF).join(''));
  return 0;
}

export async function moreExe(argv: string[], ctx: Ctx): Promise<number> {
  const inputs = await inputText(ctx, argv.slice(1).filter((a) => !a.startsWith('/')));
  if (typeof inputs === 'string') { ctx.stderr.write(`Cannot access file ${inputs}${CRLF}`); return 1; }
  for (const i of inputs) ctx.stdout.write(i.text.replace(/(?<!\r)\n/g, CRLF));
  return 0;
}
