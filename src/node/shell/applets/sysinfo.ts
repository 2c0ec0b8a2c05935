// System applets: hostname, id, whoami, groups, uname, date, env, printenv, sleep, usleep, timeout, nohup, xargs,
// which, ps, kill, uptime, free, nproc, arch, true, false, echo, printf, test, pwd, tty.

import { anySignal, sleep, untilAborted, type Ctx } from '../core/ctx.js';
import { locate } from '../core/exec.js';
import { groups, linuxIdentity } from '../core/users.js';
import { parseDuration } from '../sh/builtins.js';
import { echoText, formatPrintf } from './printf.js';
import { testExpr } from './test-expr.js';
import { badOption, dateDefault, getopt, progName, strftime, type Applet } from './util.js';

function machine(arch: string): string {
  return arch === 'arm64' ? 'aarch64' : arch === 'amd64' ? 'x86_64' : arch;
}

/** The names /etc/hosts gives the pod's IP (the kubelet writes `IP<TAB>fqdn<TAB>hostname`). */
function hostsNames(ctx: Ctx): { ip?: string; names: string[] } {
  let text = '';
  try { text = ctx.env.fs.readFile('/etc/hosts').toString(); } catch { /* no hosts file */ }
  for (const line of text.split('\n')) {
    const parts = line.replace(/#.*/, '').trim().split(/\s+/);
    if (parts.length >= 2 && parts.slice(1).includes(ctx.env.hostname)) return { ip: parts[0], names: parts.slice(1) };
  }
  return { ip: ctx.env.network.interfaces[0]?.ip, names: [ctx.env.hostname] };
}

export const hostname: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'isfdFIA', { fqdn: 'f', short: 's', domain: 'd', 'ip-address': 'i', 'all-ip-addresses': 'I' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  if (o.args.length) {
    ctx.stderr.write(ctx.cred.uid !== 0 && flavour === 'gnu' ? `${name}: you must be root to change the host name\n` : `${name}: sethostname: Operation not permitted\n`);
    return 1;
  }
  const h = hostsNames(ctx);
  if (o.flags.has('i')) { ctx.stdout.write(`${h.ip ?? '127.0.0.1'}${flavour === 'gnu' ? ' ' : ''}\n`); return 0; }
  if (o.flags.has('I')) { ctx.stdout.write(`${ctx.env.network.interfaces.map((i) => i.ip).join(' ')} \n`); return 0; }
  const fqdn = h.names[0] ?? ctx.env.hostname;
  if (o.flags.has('f')) { ctx.stdout.write(`${fqdn}\n`); return 0; }
  if (o.flags.has('d')) { ctx.stdout.write(`${fqdn.includes('.') ? fqdn.slice(fqdn.indexOf('.') + 1) : ''}\n`); return 0; }
  if (o.flags.has('s')) { ctx.stdout.write(`${ctx.env.hostname.split('.')[0]}\n`); return 0; }
  ctx.stdout.write(`${ctx.env.hostname}\n`);
  return 0;
};

export const id: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'ugGnr', { user: 'u', group: 'g', groups: 'G', name: 'n' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const me = linuxIdentity(ctx.env.fs, ctx.env.user);
  const fmt = (n: number, nm?: string) => (nm === undefined ? String(n) : `${n}(${nm})`);
  const gname = (gid: number) => groups(ctx.env.fs).find((g) => g.gid === gid)?.name;
  if (o.flags.has('u')) {
    if (o.flags.has('n')) {
      if (!me.name) { ctx.stderr.write(`${name}: ${flavour === 'gnu' ? `cannot find name for user ID ${me.uid}` : `unknown ID ${me.uid}`}\n`); ctx.stdout.write(`${me.uid}\n`); return 1; }
      ctx.stdout.write(`${me.name}\n`);
    } else ctx.stdout.write(`${me.uid}\n`);
    return 0;
  }
  if (o.flags.has('g')) { ctx.stdout.write(`${o.flags.has('n') ? gname(me.gid) ?? me.gid : me.gid}\n`); return 0; }
  if (o.flags.has('G')) { ctx.stdout.write(`${me.groups.map((g) => (o.flags.has('n') ? g.name ?? g.gid : g.gid)).join(' ')}\n`); return 0; }
  ctx.stdout.write(`uid=${fmt(me.uid, me.name)} gid=${fmt(me.gid, gname(me.gid))} groups=${me.groups.map((g) => fmt(g.gid, g.name)).join(',')}\n`);
  return 0;
};

export const whoami: Applet = async (argv, ctx, flavour) => {
  const me = linuxIdentity(ctx.env.fs, ctx.env.user);
  if (!me.name) {
    ctx.stderr.write(flavour === 'gnu' ? `${progName(argv)}: cannot find name for user ID ${me.uid}\n` : `${progName(argv)}: unknown uid ${me.uid}\n`);
    return 1;
  }
  ctx.stdout.write(`${me.name}\n`);
  return 0;
};

export const groupsApplet: Applet = async (_argv, ctx) => {
  const me = linuxIdentity(ctx.env.fs, ctx.env.user);
  ctx.stdout.write(`${me.groups.map((g) => g.name ?? g.gid).join(' ')}\n`);
  return 0;
};

export const uname: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'asnrvmpio', { all: 'a', 'kernel-name': 's', 'nodename': 'n', 'kernel-release': 'r', 'kernel-version': 'v', machine: 'm', processor: 'p', 'hardware-platform': 'i', 'operating-system': 'o' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const sys = ctx.env.system;
  const boot = new Date(sys.bootTimeMs);
  const version = `#1 SMP PREEMPT_DYNAMIC ${dateDefault(boot.getTime()).replace('UTC ', '')}`;
  const fields: [string, string][] = [
    ['s', 'Linux'], ['n', ctx.env.hostname], ['r', sys.kernelVersion], ['v', version], ['m', machine(sys.arch)],
    ['p', flavour === 'gnu' ? 'unknown' : machine(sys.arch)], ['i', 'unknown'], ['o', flavour === 'gnu' ? 'GNU/Linux' : 'Linux'],
  ];
  const all = o.flags.has('a');
  const picked = fields.filter(([k, v]) => (all ? !(flavour === 'gnu' && v === 'unknown') && !(flavour === 'busybox' && (k === 'p' || k === 'i')) : o.flags.has(k)));
  ctx.stdout.write(`${(picked.length ? picked : [fields[0]]).map(([, v]) => v).join(' ')}\n`);
  return 0;
};

export const date: Applet = async (argv, ctx, flavour) => {
  const now = ctx.env.clock.now();
  const args = argv.slice(1).filter((a) => a !== '-u' && a !== '--utc');
  const fmt = args.find((a) => a.startsWith('+'));
  if (args.includes('-I') || args.some((a) => a.startsWith('--iso-8601'))) { ctx.stdout.write(`${strftime('%F', now)}\n`); return 0; }
  if (args.includes('-R')) { ctx.stdout.write(`${strftime('%a, %d %b %Y %T +0000', now)}\n`); return 0; }
  const bad = args.find((a) => !a.startsWith('+'));
  if (bad) {
    ctx.stderr.write(flavour === 'gnu' ? `${progName(argv)}: invalid date '${bad}'\n` : `${progName(argv)}: invalid date '${bad}'\n`);
    return 1;
  }
  ctx.stdout.write(`${fmt ? strftime(fmt.slice(1), now) : dateDefault(now)}\n`);
  return 0;
};

export const env: Applet = async (argv, ctx) => {
  let vars = { ...ctx.vars };
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-i' || a === '-') { vars = {}; continue; }
    if (a === '-u') { delete vars[argv[++i]]; continue; }
    if (a === '--') { i++; break; }
    const eq = a.indexOf('=');
    if (eq > 0) { vars[a.slice(0, eq)] = a.slice(eq + 1); continue; }
    break;
  }
  const cmd = argv.slice(i);
  if (cmd.length === 0) {
    ctx.stdout.write(Object.entries(vars).map(([k, v]) => `${k}=${v}\n`).join(''));
    return 0;
  }
  const r = await ctx.spawn(cmd, { vars });
  if (typeof r === 'number') return r;
  ctx.stderr.write(`${progName(argv)}: '${cmd[0]}': ${r.error === 'permission' ? 'Permission denied' : 'No such file or directory'}\n`);
  return r.error === 'permission' ? 126 : 127;
};

export const printenv: Applet = async (argv, ctx) => {
  const names = argv.slice(1);
  if (names.length === 0) {
    ctx.stdout.write(Object.entries(ctx.vars).map(([k, v]) => `${k}=${v}\n`).join(''));
    return 0;
  }
  let status = 0;
  for (const n of names) {
    if (n in ctx.vars) ctx.stdout.write(`${ctx.vars[n]}\n`);
    else status = 1;
  }
  return status;
};

export const sleepApplet: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  if (argv.length < 2) { ctx.stderr.write(`${name}: missing operand\n${flavour === 'gnu' ? `Try '${name} --help' for more information.\n` : ''}`); return 1; }
  let secs = 0;
  for (const a of argv.slice(1)) {
    if (a === 'infinity' || a === 'inf') { await untilAborted(ctx.signal); return 0; }
    const d = parseDuration(a);
    if (Number.isNaN(d)) {
      ctx.stderr.write(flavour === 'gnu' ? `${name}: invalid time interval '${a}'\nTry '${name} --help' for more information.\n` : `${name}: invalid number '${a}'\n`);
      return 1;
    }
    secs += d;
  }
  await sleep(ctx, secs * 1000);
  return 0;
};

export const usleep: Applet = async (argv, ctx) => {
  await sleep(ctx, Number(argv[1] ?? 0) / 1000);
  return 0;
};

export const timeout: Applet = async (argv, ctx, flavour) => {
  let i = 1;
  let sig = 'TERM';
  for (; i < argv.length && argv[i].startsWith('-'); i++) {
    if (argv[i] === '-s') sig = argv[++i];
    else if (argv[i].startsWith('--signal=')) sig = argv[i].slice(9);
  }
  const dur = parseDuration(argv[i] ?? '');
  const cmd = argv.slice(i + 1);
  if (Number.isNaN(dur) || cmd.length === 0) { ctx.stderr.write(`${progName(argv)}: invalid time interval '${argv[i] ?? ''}'\n`); return 125; }
  const ctl = new AbortController();
  let timedOut = false;
  const timer = ctx.env.clock.sleep(dur * 1000, ctl.signal).then(() => { timedOut = true; ctl.abort(sig === 'KILL' || sig === '9' ? 'SIGKILL' : 'SIGTERM'); }, () => undefined);
  try {
    const r = await ctx.spawn(cmd, { signal: anySignal(ctx.signal, ctl.signal) });
    if (typeof r !== 'number') { ctx.stderr.write(`${progName(argv)}: failed to run command '${cmd[0]}': No such file or directory\n`); return 127; }
    return r;
  } catch (e) {
    if (timedOut) return flavour === 'gnu' ? 124 : 143;
    throw e;
  } finally {
    if (!timedOut) ctl.abort('done');
    void timer;
  }
};

export const nohup: Applet = async (argv, ctx) => {
  const r = await ctx.spawn(argv.slice(1));
  if (typeof r === 'number') return r;
  ctx.stderr.write(`nohup: failed to run command '${argv[1]}': No such file or directory\n`);
  return 127;
};

export const xargs: Applet = async (argv, ctx) => {
  let i = 1;
  let perCall = Infinity;
  let replace: string | undefined;
  for (; i < argv.length && argv[i].startsWith('-'); i++) {
    if (argv[i] === '-n') perCall = Number(argv[++i]);
    else if (argv[i] === '-I') replace = argv[++i];
    else if (argv[i].startsWith('-n')) perCall = Number(argv[i].slice(2));
  }
  const cmd = argv.length > i ? argv.slice(i) : ['echo'];
  const input = (await ctx.stdin.readAll()).toString();
  const items = replace ? input.split('\n').filter(Boolean) : input.split(/\s+/).filter(Boolean);
  let status = 0;
  const batches: string[][] = [];
  if (replace) for (const it of items) batches.push(cmd.map((c) => c.split(replace!).join(it)));
  else if (items.length === 0) batches.push(cmd);
  else for (let k = 0; k < items.length; k += perCall === Infinity ? items.length : perCall) batches.push([...cmd, ...items.slice(k, k + (perCall === Infinity ? items.length : perCall))]);
  for (const b of batches) {
    const r = await ctx.spawn(b);
    if (typeof r !== 'number') { ctx.stderr.write(`xargs: ${b[0]}: No such file or directory\n`); return 127; }
    if (r !== 0) status = 123;
  }
  return status;
};

export const which: Applet = async (argv, ctx) => {
  let status = 0;
  for (const n of argv.slice(1).filter((a) => !a.startsWith('-'))) {
    const f = locate(ctx, n);
    if ('error' in f) status = 1;
    else ctx.stdout.write(`${f.path}\n`);
  }
  return status;
};

export const ps: Applet = async (_argv, ctx) => {
  const rows = [...ctx.env.processes()];
  rows.push({ pid: Math.max(0, ...rows.map((r) => r.pid)) + 6, name: 'ps', memKB: 0, user: undefined });
  const me = linuxIdentity(ctx.env.fs, ctx.env.user);
  const lines = ['PID   USER     TIME  COMMAND', ...rows.map((r) => `${String(r.pid).padStart(5)} ${(r.user ?? me.name ?? String(me.uid)).slice(0, 8).padEnd(8)}  0:00 ${r.name}`)];
  ctx.stdout.write(`${lines.join('\n')}\n`);
  return 0;
};

export const killApplet: Applet = async (argv, ctx) => {
  const targets = argv.slice(1).filter((a) => !a.startsWith('-'));
  let status = 0;
  for (const t of targets) {
    if (!ctx.env.processes().some((p) => p.pid === Number(t))) {
      ctx.stderr.write(`${progName(argv)}: can't kill pid ${t}: No such process\n`);
      status = 1;
    }
  }
  return status;
};

export const uptime: Applet = async (_argv, ctx) => {
  const now = ctx.env.clock.now();
  const up = Math.max(0, Math.floor((now - ctx.env.system.bootTimeMs) / 1000));
  const days = Math.floor(up / 86400);
  const h = Math.floor((up % 86400) / 3600);
  const m = Math.floor((up % 3600) / 60);
  const upText = `${days ? `${days} day${days > 1 ? 's' : ''}, ` : ''}${h ? `${String(h).padStart(2)}:${String(m).padStart(2, '0')}` : `${m} min`}`;
  ctx.stdout.write(` ${strftime('%T', now)} up ${upText},  0 users,  load average: 0.08, 0.03, 0.01\n`);
  return 0;
};

export const free: Applet = async (argv, ctx) => {
  const total = Math.floor(ctx.env.system.memoryBytes / 1024);
  const used = Math.floor(total * 0.12);
  const cache = Math.floor(total * 0.2);
  const div = argv.includes('-m') ? 1024 : argv.includes('-g') ? 1024 * 1024 : 1;
  const c = (n: number) => String(Math.floor(n / div)).padStart(12);
  ctx.stdout.write(`              total        used        free      shared  buff/cache   available\nMem:   ${c(total)}${c(used)}${c(total - used - cache)}${c(4132)}${c(cache)}${c(total - used)}\nSwap:  ${c(0)}${c(0)}${c(0)}\n`);
  return 0;
};

export const nproc: Applet = async (_argv, ctx) => { ctx.stdout.write(`${ctx.env.system.cpus}\n`); return 0; };
export const arch: Applet = async (_argv, ctx) => { ctx.stdout.write(`${machine(ctx.env.system.arch)}\n`); return 0; };
export const trueApplet: Applet = async () => 0;
export const falseApplet: Applet = async () => 1;
export const echoApplet: Applet = async (argv, ctx) => { ctx.stdout.write(echoText(argv.slice(1), 'flag')); return 0; };
export const printfApplet: Applet = async (argv, ctx) => {
  if (argv.length < 2) { ctx.stderr.write(`${progName(argv)}: missing operand\n`); return 1; }
  const r = formatPrintf(argv[1], argv.slice(2));
  ctx.stdout.write(r.out);
  for (const e of r.errors) ctx.stderr.write(`${progName(argv)}: ${e}\n`);
  return r.errors.length ? 1 : 0;
};
export const testApplet: Applet = async (argv, ctx, flavour) => {
  let args = argv.slice(1);
  const name = progName(argv);
  if (name === '[') {
    if (args[args.length - 1] !== ']') { ctx.stderr.write(`[: missing ']'\n`); return 2; }
    args = args.slice(0, -1);
  }
  return testExpr(args, ctx, ctx.stderr, `${name}: `, flavour === 'gnu' ? 'bash' : 'ash');
};
export const pwdApplet: Applet = async (_argv, ctx) => { ctx.stdout.write(`${ctx.cwd}\n`); return 0; };
export const tty: Applet = async (_argv, ctx) => {
  if (ctx.stdin.isTTY) { ctx.stdout.write('/dev/pts/0\n'); return 0; }
  ctx.stdout.write('not a tty\n');
  return 1;
};
