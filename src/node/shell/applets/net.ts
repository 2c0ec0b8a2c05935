// Network applets of BusyBox: nslookup (1.34+ output: search domains tried for A and AAAA, `*** Can't find x: No
// answer` for the empty ones — docker-library/busybox#48, #61), ping, ip addr/route, ifconfig, nc, netstat.

import type { DnsResult } from '../interfaces.js';
import { sleep, untilAborted } from '../core/ctx.js';
import { listen, listeners } from '../net/listen.js';
import { broadcast, candidates, isIp, linkLocal, network, prefixToMask, resolveHost, reverseName } from '../net/resolver.js';
import { progName, type Applet } from './util.js';

export const nslookup: Applet = async (argv, ctx) => {
  const args = argv.slice(1).filter((a) => !a.startsWith('-'));
  const typeArg = argv.slice(1).find((a) => /^-(type|query)=/.test(a))?.split('=')[1]?.toUpperCase();
  const name = args[0];
  if (!name) {
    ctx.stderr.write('BusyBox v1.36.1 (2024-06-10 07:11:47 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n');
    return 1;
  }
  const server = args[1] ?? ctx.env.network.dns.nameservers[0] ?? '127.0.0.11';
  const out: string[] = [`Server:\t\t${server}`, `Address:\t${server}:53`, ''];
  if (isIp(name)) {
    const rev = reverseName(name);
    const r = await ctx.env.network.lookup(rev, 'PTR');
    if (r.answers.length) {
      for (const a of r.answers) out.push(`${rev}\tname = ${a.data}`);
      out.push('');
      ctx.stdout.write(`${out.join('\n')}\n`);
      return 0;
    }
    out.push(`** server can't find ${rev}: ${r.rcode === 'NOERROR' ? 'NXDOMAIN' : r.rcode}`, '');
    ctx.stdout.write(`${out.join('\n')}\n`);
    return 1;
  }
  // A single label is only tried with the search domains (docker-library/busybox#48).
  const cands = candidates(ctx.env, name).filter((c) => c !== name || name.includes('.'));
  const types: ('A' | 'AAAA')[] = typeArg === 'A' || typeArg === 'AAAA' ? [typeArg] : ['A', 'AAAA'];
  const results: { cand: string; type: string; r: DnsResult }[] = [];
  for (const type of types) for (const cand of cands) results.push({ cand, type, r: await ctx.env.network.lookup(cand, type) });
  if (results.some((x) => x.r.rcode === 'TIMEOUT')) {
    ctx.stdout.write(`;; connection timed out; no servers could be reached\n\n`);
    return 1;
  }
  const found = results.filter((x) => x.r.answers.some((a) => a.type === x.type));
  const answers: string[] = [];
  const shown = new Set<string>();
  for (const f of found) {
    if (shown.has(f.type)) continue;
    shown.add(f.type);
    for (const a of f.r.answers.filter((y) => y.type === f.type)) answers.push(`Name:\t${a.name.replace(/\.$/, '')}`, `Address: ${a.data}`);
    answers.push('');
  }
  if (answers.length && found.some((f) => f.r.authoritative === false)) out.push('Non-authoritative answer:');
  out.push(...answers);
  const misses = results.filter((x) => !found.includes(x));
  if (misses.length) {
    const first = results[0];
    for (const m of misses) {
      if (m === first && m.r.rcode === 'NXDOMAIN' && found.length === 0) out.push(`** server can't find ${m.cand}: NXDOMAIN`, '');
      else out.push(`*** Can't find ${m.cand}: No answer`);
    }
    if (out[out.length - 1] !== '') out.push('');
  }
  ctx.stdout.write(`${out.join('\n')}\n`);
  return found.length ? 0 : 1;
};

export const ping: Applet = async (argv, ctx) => {
  let count = Infinity;
  let wait = 10;
  let quiet = false;
  let target: string | undefined;
  const a = argv.slice(1);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x === '-c') count = Number(a[++i]);
    else if (x.startsWith('-c')) count = Number(x.slice(2));
    else if (x === '-W' || x === '-w') wait = Number(a[++i]);
    else if (x === '-q') quiet = true;
    else if (x === '-i' || x === '-s' || x === '-t' || x === '-I') i++;
    else if (!x.startsWith('-')) target = x;
  }
  const name = progName(argv);
  if (!target) { ctx.stderr.write('BusyBox v1.36.1 (2024-06-10 07:11:47 UTC) multi-call binary.\n\nUsage: ping [OPTIONS] HOST\n'); return 1; }
  const r = await resolveHost(ctx.env, target);
  if ('error' in r) { ctx.stderr.write(`${name}: bad address '${target}'\n`); return 1; }
  const ip = r.ip;
  ctx.stdout.write(`PING ${target} (${ip}): 56 data bytes\n`);
  let sent = 0;
  const rtts: number[] = [];
  const summary = () => {
    const recv = rtts.length;
    const loss = sent ? Math.round(((sent - recv) / sent) * 100) : 0;
    let s = `\n--- ${target} ping statistics ---\n${sent} packets transmitted, ${recv} packets received, ${loss}% packet loss\n`;
    if (recv) {
      const f = (n: number) => n.toFixed(3);
      s += `round-trip min/avg/max = ${f(rtts.reduce((a, b) => Math.min(a, b), Infinity))}/${f(rtts.reduce((x, y) => x + y, 0) / recv)}/${f(rtts.reduce((a, b) => Math.max(a, b), 0))} ms\n`;
    }
    return s;
  };
  try {
    for (let seq = 0; seq < count; seq++) {
      if (seq > 0) await sleep(ctx, 1000);
      sent++;
      const res = ip.startsWith('127.') || ctx.env.network.interfaces.some((i) => i.ip === ip) ? { rttMs: 0.05, ttl: 64 } : await ctx.env.network.ping(ip);
      if (typeof res === 'object') {
        rtts.push(res.rttMs);
        if (!quiet) ctx.stdout.write(`64 bytes from ${ip}: seq=${seq} ttl=${res.ttl} time=${res.rttMs.toFixed(3)} ms\n`);
      } else if (count === Infinity && wait !== 10) {
        await sleep(ctx, wait * 1000);
      }
    }
  } catch (e) {
    ctx.stdout.write(summary());
    throw e;
  }
  ctx.stdout.write(summary());
  return rtts.length ? 0 : 1;
};

export const ip: Applet = async (argv, ctx) => {
  const obj = argv[1] ?? '';
  const ifs = ctx.env.network.interfaces;
  if (/^a(ddr|ddress)?$/.test(obj) || obj === '') {
    const lines = ['1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN qlen 1000', '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00', '    inet 127.0.0.1/8 scope host lo', '       valid_lft forever preferred_lft forever', '    inet6 ::1/128 scope host ', '       valid_lft forever preferred_lft forever'];
    ifs.forEach((i, k) => {
      lines.push(`${k + 2}: ${i.name}@if${k + 12}: <BROADCAST,MULTICAST,UP,LOWER_UP,M-DOWN> mtu 1500 qdisc noqueue state UP `, `    link/ether ${i.mac.toLowerCase().replace(/-/g, ':')} brd ff:ff:ff:ff:ff:ff`, `    inet ${i.ip}/${i.prefix} brd ${broadcast(i.ip, i.prefix)} scope global ${i.name}`, '       valid_lft forever preferred_lft forever');
      if (i.ipv6) lines.push(`    inet6 ${i.ipv6}/64 scope global `, '       valid_lft forever preferred_lft forever');
      lines.push(`    inet6 ${linkLocal(i.mac)}/64 scope link `, '       valid_lft forever preferred_lft forever');
    });
    ctx.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  }
  if (/^r(o|ou|out|oute)?$/.test(obj)) {
    const lines: string[] = [];
    for (const i of ifs) {
      if (i.gateway) lines.push(`default via ${i.gateway} dev ${i.name} `);
      lines.push(`${network(i.ip, i.prefix)}/${i.prefix} dev ${i.name} scope link  src ${i.ip} `);
    }
    ctx.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  }
  if (/^l(ink)?$/.test(obj)) {
    const lines = ['1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN qlen 1000', '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00'];
    ifs.forEach((i, k) => lines.push(`${k + 2}: ${i.name}@if${k + 12}: <BROADCAST,MULTICAST,UP,LOWER_UP,M-DOWN> mtu 1500 qdisc noqueue state UP `, `    link/ether ${i.mac.toLowerCase().replace(/-/g, ':')} brd ff:ff:ff:ff:ff:ff`));
    ctx.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  }
  ctx.stderr.write(`ip: unknown object "${obj}"\n`);
  return 1;
};

export const ifconfig: Applet = async (_argv, ctx) => {
  const blocks = ctx.env.network.interfaces.map((i) => `${i.name.padEnd(10)}Link encap:Ethernet  HWaddr ${i.mac.toUpperCase().replace(/-/g, ':')}  \n          inet addr:${i.ip}  Bcast:${broadcast(i.ip, i.prefix)}  Mask:${prefixToMask(i.prefix)}\n          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n          RX packets:0 errors:0 dropped:0 overruns:0 frame:0\n          TX packets:0 errors:0 dropped:0 overruns:0 carrier:0\n          collisions:0 txqueuelen:0 \n          RX bytes:0 (0.0 B)  TX bytes:0 (0.0 B)\n`);
  blocks.push('lo        Link encap:Local Loopback  \n          inet addr:127.0.0.1  Mask:255.0.0.0\n          UP LOOPBACK RUNNING  MTU:65536  Metric:1\n');
  ctx.stdout.write(blocks.join('\n'));
  return 0;
};

export const nc: Applet = async (argv, ctx) => {
  let zero = false;
  let verbose = false;
  let listenMode = false;
  let wait: number | undefined;
  let lport: number | undefined;
  const pos: string[] = [];
  const a = argv.slice(1);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (/^-[zvlkn]+$/.test(x)) {
      if (x.includes('z')) zero = true;
      if (x.includes('v')) verbose = true;
      if (x.includes('l')) listenMode = true;
      continue;
    }
    if (x === '-w') { wait = Number(a[++i]); continue; }
    if (x.startsWith('-w')) { wait = Number(x.slice(2)); continue; }
    if (x === '-p') { lport = Number(a[++i]); continue; }
    if (x === '-e' || x === '-s') { i++; continue; }
    pos.push(x);
  }
  if (listenMode) {
    const port = lport ?? Number(pos[pos.length - 1]);
    if (listen(ctx.env, { port, protocol: 'TCP', program: 'nc' }, ctx.signal) === 'in-use') {
      ctx.stderr.write('nc: bind: Address in use\n');
      return 1;
    }
    await untilAborted(ctx.signal);
    return 0;
  }
  const [host, portRaw] = pos;
  if (!host || !portRaw) { ctx.stderr.write('BusyBox v1.36.1 (2024-06-10 07:11:47 UTC) multi-call binary.\n\nUsage: nc [OPTIONS] HOST PORT  - connect\n'); return 1; }
  const r = await resolveHost(ctx.env, host);
  if ('error' in r) { ctx.stderr.write(`nc: bad address '${host}'\n`); return 1; }
  const port = Number(portRaw);
  const local = r.ip.startsWith('127.') && listeners(ctx.env).some((l) => l.port === port);
  const res = local ? 'open' : await ctx.env.network.connect(r.ip, port);
  const label = `${host} (${r.ip}:${port})`;
  if (res === 'open') {
    if (verbose) ctx.stderr.write(`${label} open\n`);
    if (!zero) await ctx.stdin.readAll();
    return 0;
  }
  if (res === 'timeout') {
    await sleep(ctx, (wait ?? 60) * 1000);
    ctx.stderr.write(`nc: ${label}: Connection timed out\n`);
    return 1;
  }
  ctx.stderr.write(`nc: ${label}: ${res === 'refused' ? 'Connection refused' : 'No route to host'}\n`);
  return 1;
};

export const netstat: Applet = async (_argv, ctx) => {
  const lines = ['Active Internet connections (only servers)', 'Proto Recv-Q Send-Q Local Address           Foreign Address         State       '];
  for (const l of listeners(ctx.env)) lines.push(`${l.protocol.toLowerCase().padEnd(5)}      0      0 ${`0.0.0.0:${l.port}`.padEnd(23)} ${'0.0.0.0:*'.padEnd(23)} ${l.protocol === 'TCP' ? 'LISTEN' : ''}      `);
  ctx.stdout.write(`${lines.join('\n')}\n`);
  return 0;
};
