// Windows network tools: PING.EXE, nslookup.exe, ipconfig.exe (plain and /all, the vEthernet container adapter) and
// netstat.exe, in their en-US formats.

import { sleep, type Ctx } from '../core/ctx.js';
import { listeners } from '../net/listen.js';
import { isIp, linkLocal, prefixToMask, resolveHost, reverseName, IPV4 } from '../net/resolver.js';
import { crlf, CRLF } from './format.js';
import type { DnsResult } from '../interfaces.js';

export async function pingExe(argv: string[], ctx: Ctx): Promise<number> {
  let count = 4;
  let waitMs = 4000;
  let target: string | undefined;
  const a = argv.slice(1);
  for (let i = 0; i < a.length; i++) {
    const x = a[i].toLowerCase();
    if (x === '-n' || x === '/n') count = Number(a[++i]);
    else if (x === '-t' || x === '/t') count = Infinity;
    else if (x === '-w' || x === '/w') waitMs = Number(a[++i]);
    else if (x === '-l' || x === '-i' || x === '/l' || x === '/i') i++;
    else if (/^[-/][46af]$/.test(x)) continue;
    else target = a[i];
  }
  if (!target) {
    ctx.stdout.write(`${CRLF}Usage: ping [-t] [-a] [-n count] [-l size] [-f] [-i TTL] [-v TOS]${CRLF}            [-r count] [-s count] [[-j host-list] | [-k host-list]]${CRLF}            [-w timeout] [-R] [-S srcaddr] [-c compartment] [-p]${CRLF}            [-4] [-6] target_name${CRLF}`);
    return 1;
  }
  const r = await resolveHost(ctx.env, target);
  if ('error' in r) {
    ctx.stdout.write(`Ping request could not find host ${target}. Please check the name and try again.${CRLF}`);
    return 1;
  }
  const ip = r.ip;
  const self = ctx.env.network.interfaces[0]?.ip ?? ip;
  ctx.stdout.write(`${CRLF}Pinging ${IPV4.test(target) ? ip : `${target} [${ip}]`} with 32 bytes of data:${CRLF}`);
  let sent = 0;
  let received = 0;
  const rtts: number[] = [];
  const summary = () => {
    const lost = sent - received;
    let s = `${CRLF}Ping statistics for ${ip}:${CRLF}    Packets: Sent = ${sent}, Received = ${received}, Lost = ${lost} (${sent ? Math.round((lost / sent) * 100) : 0}% loss),${CRLF}`;
    if (rtts.length) {
      const min = Math.round(rtts.reduce((a, b) => Math.min(a, b), Infinity));
      const max = Math.round(rtts.reduce((a, b) => Math.max(a, b), 0));
      const avg = Math.round(rtts.reduce((x, y) => x + y, 0) / rtts.length);
      s += `Approximate round trip times in milli-seconds:${CRLF}    Minimum = ${min}ms, Maximum = ${max}ms, Average = ${avg}ms${CRLF}`;
    }
    return s;
  };
  try {
    for (let n = 0; n < count; n++) {
      if (n > 0) await sleep(ctx, 1000);
      sent++;
      const res = ip.startsWith('127.') || ip === self ? { rttMs: 0.05, ttl: 128 } : await ctx.env.network.ping(ip);
      if (typeof res === 'object') {
        received++;
        rtts.push(res.rttMs);
        const t = res.rttMs < 1 ? 'time<1ms' : `time=${Math.round(res.rttMs)}ms`;
        ctx.stdout.write(`Reply from ${ip}: bytes=32 ${t} TTL=${res.ttl}${CRLF}`);
      } else if (res === 'unreachable') {
        received++;
        ctx.stdout.write(`Reply from ${self}: Destination host unreachable.${CRLF}`);
      } else {
        await sleep(ctx, waitMs);
        ctx.stdout.write(`Request timed out.${CRLF}`);
      }
    }
  } catch (e) {
    ctx.stdout.write(`${summary()}Control-C${CRLF}^C`);
    throw e;
  }
  ctx.stdout.write(summary());
  return received > 0 ? 0 : 1;
}

async function serverName(ctx: Ctx, server: string): Promise<string> {
  const r = await ctx.env.network.lookup(reverseName(server), 'PTR');
  return r.answers[0]?.data.replace(/\.$/, '') ?? 'UnKnown';
}

/** nslookup.exe: asks the first DNS server, appending the suffix search list to the name (its own search). */
export async function nslookupExe(argv: string[], ctx: Ctx): Promise<number> {
  const args = argv.slice(1).filter((x) => !x.startsWith('-'));
  const type = (argv.slice(1).find((x) => /^-(type|q|querytype)=/i.test(x))?.split('=')[1] ?? 'A').toUpperCase() as 'A';
  const server = args[1] ?? ctx.env.network.dns.nameservers[0] ?? '127.0.0.1';
  const name = args[0];
  const sname = await serverName(ctx, server);
  const header = `Server:  ${sname}${CRLF}Address:  ${server}${CRLF}${CRLF}`;
  if (!name) {
    ctx.stdout.write(`Default ${header.trimEnd()}${CRLF}${CRLF}> `);
    return 0;
  }
  const cands = isIp(name) ? [reverseName(name)] : name.endsWith('.') ? [name.slice(0, -1)] : [...ctx.env.network.dns.search.map((s) => `${name}.${s}`), name];
  let found: DnsResult | undefined;
  let foundName = '';
  let last: DnsResult | undefined;
  for (const c of cands) {
    const r = await ctx.env.network.lookup(c, isIp(name) ? 'PTR' : type);
    last = r;
    if (r.rcode === 'TIMEOUT') {
      await sleep(ctx, 2000);
      ctx.stdout.write(`DNS request timed out.${CRLF}    timeout was 2 seconds.${CRLF}Server:  UnKnown${CRLF}Address:  ${server}${CRLF}${CRLF}`);
      ctx.stderr.write(`*** Request to UnKnown timed-out${CRLF}`);
      return 1;
    }
    if (r.rcode === 'NOERROR' && r.answers.length) { found = r; foundName = c; break; }
  }
  ctx.stdout.write(header);
  if (!found) {
    const why = last?.rcode === 'SERVFAIL' ? 'Server failed' : last?.rcode === 'NOERROR' ? 'No response from server' : 'Non-existent domain';
    ctx.stderr.write(`*** ${sname} can't find ${name}: ${why}${CRLF}`);
    return 1;
  }
  if (found.authoritative === false) ctx.stdout.write(`Non-authoritative answer:${CRLF}`);
  if (isIp(name)) {
    ctx.stdout.write(`Name:    ${found.answers[0].data.replace(/\.$/, '')}${CRLF}Address:  ${name}${CRLF}${CRLF}`);
    return 0;
  }
  const addrs = found.answers.filter((a) => a.type === 'A' || a.type === 'AAAA').map((a) => a.data);
  const fq = found.answers.find((a) => a.type === 'A' || a.type === 'AAAA')?.name.replace(/\.$/, '') ?? foundName;
  const lines = [`Name:    ${fq}`];
  if (addrs.length === 1) lines.push(`Address:  ${addrs[0]}`);
  else if (addrs.length > 1) lines.push(`Addresses:  ${addrs[0]}`, ...addrs.slice(1).map((x) => `\t  ${x}`));
  const cname = found.answers.find((a) => a.type === 'CNAME');
  if (cname) lines.push(`Aliases:  ${cname.name.replace(/\.$/, '')}`);
  ctx.stdout.write(`${crlf(lines)}${CRLF}`);
  return 0;
}

function label(text: string): string {
  const overrides: Record<string, string> = {
    'Primary Dns Suffix': 'Primary Dns Suffix  . . . . . . .',
    'Connection-specific DNS Suffix': 'Connection-specific DNS Suffix  .',
  };
  let s = overrides[text];
  if (!s) {
    s = text;
    for (let i = text.length; i < 33; i++) s += i % 2 === 0 ? '.' : ' ';
  }
  return `   ${s} : `;
}

const INDENT = ' '.repeat(39);

export function macWindows(mac: string): string {
  return mac.toUpperCase().replace(/:/g, '-');
}

export async function ipconfigExe(argv: string[], ctx: Ctx): Promise<number> {
  const all = argv.slice(1).some((x) => /^[/-]all$/i.test(x));
  if (argv.slice(1).some((x) => /^[/-](flushdns)$/i.test(x))) { ctx.stdout.write(`${CRLF}Windows IP Configuration${CRLF}${CRLF}Successfully flushed the DNS Resolver Cache.${CRLF}`); return 0; }
  const dns = ctx.env.network.dns;
  const suffix = dns.search[0] ?? '';
  const out: string[] = ['', 'Windows IP Configuration', ''];
  if (all) {
    out.push(`${label('Host Name')}${ctx.env.hostname}`, `${label('Primary Dns Suffix')}`, `${label('Node Type')}Hybrid`, `${label('IP Routing Enabled')}No`, `${label('WINS Proxy Enabled')}No`);
    if (dns.search.length) out.push(`${label('DNS Suffix Search List')}${dns.search[0]}`, ...dns.search.slice(1).map((s) => INDENT + s));
  }
  ctx.env.network.interfaces.forEach((i, k) => {
    const ll = `${linkLocal(i.mac)}%${17 + k}`;
    out.push('', `Ethernet adapter ${i.name}:`, '');
    out.push(`${label('Connection-specific DNS Suffix')}${suffix}`);
    if (all) {
      out.push(`${label('Description')}Hyper-V Virtual Ethernet Container Adapter${k ? ` #${k + 1}` : ''}`, `${label('Physical Address')}${macWindows(i.mac)}`, `${label('DHCP Enabled')}No`, `${label('Autoconfiguration Enabled')}Yes`);
      if (i.ipv6) out.push(`${label('IPv6 Address')}${i.ipv6}(Preferred)`);
      out.push(`${label('Link-local IPv6 Address')}${ll}(Preferred)`, `${label('IPv4 Address')}${i.ip}(Preferred)`, `${label('Subnet Mask')}${prefixToMask(i.prefix)}`, `${label('Default Gateway')}${i.gateway ?? ''}`);
      out.push(`${label('DNS Servers')}${dns.nameservers[0] ?? ''}`, ...dns.nameservers.slice(1).map((s) => INDENT + s), `${label('NetBIOS over Tcpip')}Disabled`);
      if (dns.search.length) out.push('   Connection-specific DNS Suffix Search List :', ...dns.search.map((s) => INDENT + s));
    } else {
      if (i.ipv6) out.push(`${label('IPv6 Address')}${i.ipv6}`);
      out.push(`${label('Link-local IPv6 Address')}${ll}`, `${label('IPv4 Address')}${i.ip}`, `${label('Subnet Mask')}${prefixToMask(i.prefix)}`, `${label('Default Gateway')}${i.gateway ?? ''}`);
    }
  });
  ctx.stdout.write(crlf(out));
  return 0;
}

export async function netstatExe(_argv: string[], ctx: Ctx): Promise<number> {
  const lines = ['', 'Active Connections', '', '  Proto  Local Address          Foreign Address        State'];
  for (const l of listeners(ctx.env)) {
    lines.push(l.protocol === 'TCP' ? `  TCP    ${`0.0.0.0:${l.port}`.padEnd(23)}${'0.0.0.0:0'.padEnd(23)}LISTENING` : `  UDP    ${`0.0.0.0:${l.port}`.padEnd(23)}*:*                    `);
  }
  ctx.stdout.write(crlf(lines));
  return 0;
}
