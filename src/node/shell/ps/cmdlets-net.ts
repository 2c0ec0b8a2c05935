// Network cmdlets: Resolve-DnsName (its record table, the pod's one DNS suffix for single labels), Test-NetConnection
// (the list block with TcpTestSucceeded and its WARNING lines), Test-Connection, Get-NetAdapter and
// Get-NetIPAddress (IPv6 link-local then IPv4 per adapter: the win-webserver seed reads $ip[1]).

import { sleep } from '../core/ctx.js';
import { candidates, isIp, linkLocal, resolveHost, reverseName } from '../net/resolver.js';
import { macWindows } from '../win/net-tools.js';
import { cmdletFqid, type Cmdlet, type CmdletCall } from './cmdlet-api.js';
import { registerView } from './format.js';
import { WEB_CMDLETS } from './cmdlets-web.js';
import { enumerate, PsError, PsObject, toNum, toStr, type PsValue } from './values.js';

const arg = (c: CmdletCall, n: string): PsValue => c.bound.get(n) ?? null;
const has = (c: CmdletCall, n: string) => c.bound.has(n);

registerView('Microsoft.DnsClient.Commands.DnsRecord_A', {
  kind: 'table',
  columns: [{ name: 'Name', width: 46 }, { name: 'Type', width: 6 }, { name: 'TTL', width: 5 }, { name: 'Section', width: 10 }, { name: 'IPAddress' }],
});
registerView('Microsoft.DnsClient.Commands.DnsRecord_PTR', {
  kind: 'table',
  columns: [{ name: 'Name', width: 46 }, { name: 'Type', width: 6 }, { name: 'TTL', width: 5 }, { name: 'Section', width: 10 }, { name: 'NameHost' }],
});
registerView('MSFT_NetAdapter', {
  kind: 'table',
  columns: [{ name: 'Name', width: 25 }, { name: 'InterfaceDescription', width: 39 }, { name: 'ifIndex', width: 7, align: 'right' }, { name: 'Status', width: 12 }, { name: 'MacAddress', width: 22 }, { name: 'LinkSpeed', width: 9, align: 'right' }],
});

const resolveDnsName: Cmdlet = {
  name: 'Resolve-DnsName',
  params: [{ name: 'Name', position: 0 }, { name: 'Type', position: 1 }, { name: 'Server' }, { name: 'DnsOnly', switch: true }, { name: 'NoHostsFile', switch: true }, { name: 'QuickTimeout', switch: true }, { name: 'CacheOnly', switch: true }],
  async run(c) {
    const env = c.ps.ctx.env;
    for (const nameV of enumerate(arg(c, 'Name'))) {
      const name = toStr(nameV);
      const type = (has(c, 'Type') ? toStr(arg(c, 'Type')).toUpperCase() : isIp(name) ? 'PTR' : 'A') as 'A' | 'AAAA' | 'PTR' | 'CNAME' | 'SRV';
      const qnames = type === 'PTR' && isIp(name) ? [reverseName(name)] : candidates(env, name);
      let answered = false;
      let rcode = 'NXDOMAIN';
      for (const q of qnames) {
        const r = await env.network.lookup(q, type);
        rcode = r.rcode;
        if (r.rcode === 'TIMEOUT') break;
        if (r.rcode !== 'NOERROR' || r.answers.length === 0) continue;
        answered = true;
        for (const a of r.answers) {
          if (a.type === 'PTR') c.out.emit(new PsObject(['Microsoft.DnsClient.Commands.DnsRecord_PTR'], { Name: a.name.replace(/\.$/, ''), Type: 'PTR', TTL: a.ttl, Section: 'Answer', NameHost: a.data.replace(/\.$/, '') }));
          else c.out.emit(new PsObject(['Microsoft.DnsClient.Commands.DnsRecord_A'], { Name: a.name.replace(/\.$/, ''), Type: a.type, TTL: a.ttl, Section: 'Answer', IPAddress: a.data, IP4Address: a.data }));
        }
        break;
      }
      if (answered) continue;
      const timeout = rcode === 'TIMEOUT';
      c.ps.writeError(new PsError(`${name} : ${timeout ? 'This operation returned because the timeout period expired' : rcode === 'NOERROR' ? 'No records of the requested type' : 'DNS name does not exist'}`, timeout ? 'OperationTimeout' : 'ResourceUnavailable', `${timeout ? 'ERROR_TIMEOUT' : 'DNS_ERROR_RCODE_NAME_ERROR'},${cmdletFqid(c.name)}`, { command: c.name, target: name, exceptionType: 'Win32Exception', pos: c.pos, end: c.end }));
    }
  },
};

const COMMON_PORTS: Record<string, number> = { http: 80, https: 443, rdp: 3389, smb: 445, winrm: 5985 };

const testNetConnection: Cmdlet = {
  name: 'Test-NetConnection',
  params: [{ name: 'ComputerName', aliases: ['RemoteAddress', 'cn'], position: 0 }, { name: 'CommonTCPPort', position: 1 }, { name: 'Port', aliases: ['RemotePort'] }, { name: 'InformationLevel' }, { name: 'TraceRoute', switch: true }, { name: 'Hops' }, { name: 'Detailed', switch: true }],
  async run(c) {
    const env = c.ps.ctx.env;
    const host = has(c, 'ComputerName') ? toStr(arg(c, 'ComputerName')) : 'internetbeacon.msedge.net';
    const quiet = /^quiet$/i.test(toStr(arg(c, 'InformationLevel')));
    const portRaw = has(c, 'Port') ? arg(c, 'Port') : has(c, 'CommonTCPPort') ? toStr(arg(c, 'CommonTCPPort')) : null;
    const port = portRaw === null ? undefined : typeof portRaw === 'number' ? portRaw : COMMON_PORTS[toStr(portRaw).toLowerCase()] ?? toNum(portRaw, false);
    const iface = env.network.interfaces[0];
    const warn = (s: string) => c.ps.writeHost(`WARNING: ${s}\r\n`);
    const r = await resolveHost(env, host);
    const result = new PsObject(['TestNetConnectionResult']);
    result.setProp('ComputerName', host);
    if ('error' in r) {
      warn(`Name resolution of ${host} failed`);
      if (quiet) { c.out.emit(false); return; }
      result.setProp('RemoteAddress', null);
      result.setProp('InterfaceAlias', null);
      result.setProp('SourceAddress', null);
      result.setProp('PingSucceeded', false);
      c.out.emit(result);
      return;
    }
    result.setProp('RemoteAddress', r.ip);
    const ping = async () => {
      const p = r.ip.startsWith('127.') || r.ip === iface?.ip ? { rttMs: 0, ttl: 128 } : await env.network.ping(r.ip);
      if (typeof p !== 'object') { await sleep(c.ps.ctx, 4000); warn(`Ping to ${r.ip} failed with status: ${p === 'timeout' ? 'TimedOut' : 'DestinationHostUnreachable'}`); }
      return p;
    };
    if (port !== undefined) {
      result.setProp('RemotePort', port);
      result.setProp('InterfaceAlias', iface?.name ?? null);
      result.setProp('SourceAddress', iface?.ip ?? null);
      const t = r.ip.startsWith('127.') ? 'refused' : await env.network.connect(r.ip, port);
      if (t === 'open') {
        if (quiet) { c.out.emit(true); return; }
        result.setProp('TcpTestSucceeded', true);
        c.out.emit(result);
        return;
      }
      if (t === 'timeout') await sleep(c.ps.ctx, 21_000);
      warn(`TCP connect to (${r.ip} : ${port}) failed`);
      if (quiet) { c.out.emit(false); return; }
      const p = await ping();
      result.setProp('PingSucceeded', typeof p === 'object');
      result.setProp('PingReplyDetails (RTT)', `${typeof p === 'object' ? Math.round(p.rttMs) : 0} ms`);
      result.setProp('TcpTestSucceeded', false);
      c.out.emit(result);
      return;
    }
    const p = await ping();
    if (quiet) { c.out.emit(typeof p === 'object'); return; }
    result.setProp('InterfaceAlias', iface?.name ?? null);
    result.setProp('SourceAddress', iface?.ip ?? null);
    result.setProp('PingSucceeded', typeof p === 'object');
    result.setProp('PingReplyDetails (RTT)', `${typeof p === 'object' ? Math.round(p.rttMs) : 0} ms`);
    c.out.emit(result);
  },
};

const testConnection: Cmdlet = {
  name: 'Test-Connection',
  params: [{ name: 'ComputerName', aliases: ['Destination', 'cn'], position: 0 }, { name: 'Count' }, { name: 'Quiet', switch: true }, { name: 'Delay' }, { name: 'BufferSize' }],
  async run(c) {
    const env = c.ps.ctx.env;
    const host = toStr(arg(c, 'ComputerName'));
    const count = has(c, 'Count') ? toNum(arg(c, 'Count')) : 4;
    const r = await resolveHost(env, host);
    let ok = 0;
    for (let i = 0; i < count; i++) {
      if (i) await sleep(c.ps.ctx, 1000);
      const p = 'error' in r ? 'unreachable' : await env.network.ping(r.ip);
      if (typeof p === 'object') {
        ok++;
        if (!has(c, 'Quiet')) c.out.emit(new PsObject(['System.Management.ManagementObject#root\\cimv2\\Win32_PingStatus'], { Source: env.hostname.toUpperCase().slice(0, 15), Destination: host, IPV4Address: 'error' in r ? '' : r.ip, IPV6Address: '', Bytes: 32, 'Time(ms)': Math.round(p.rttMs) }));
      }
    }
    if (has(c, 'Quiet')) { c.out.emit(ok > 0); return; }
    if (ok === 0) throw new PsError(`Testing connection to computer '${host}' failed: ${'error' in r ? 'No such host is known' : 'Error due to lack of resources'}`, 'ResourceUnavailable', `TestConnectionException,${cmdletFqid(c.name)}`, { command: c.name, target: host, exceptionType: 'PingException' });
  },
};

function adapters(c: CmdletCall): PsObject[] {
  return c.ps.ctx.env.network.interfaces.map((i, k) => new PsObject(['MSFT_NetAdapter'], {
    Name: i.name, InterfaceDescription: `Hyper-V Virtual Ethernet Container Adapter${k ? ` #${k + 1}` : ''}`, ifIndex: 17 + k, Status: 'Up',
    MacAddress: macWindows(i.mac), LinkSpeed: '10 Gbps', InterfaceAlias: i.name,
  }));
}

const getNetAdapter: Cmdlet = {
  name: 'Get-NetAdapter',
  params: [{ name: 'Name', position: 0 }, { name: 'InterfaceIndex', aliases: ['ifIndex'] }, { name: 'Physical', switch: true }],
  async run(c) {
    for (const a of adapters(c)) {
      if (has(c, 'Name') && toStr(a.getProp('Name') ?? null).toLowerCase() !== toStr(arg(c, 'Name')).toLowerCase()) continue;
      c.out.emit(a);
    }
  },
};

const ipProps = (ip: string, prefix: number, alias: string, index: number, family: 'IPv4' | 'IPv6', origin: string) => ({
  IPAddress: ip, InterfaceIndex: index, InterfaceAlias: alias, AddressFamily: family, Type: 'Unicast', PrefixLength: prefix,
  PrefixOrigin: origin, SuffixOrigin: origin === 'WellKnown' ? 'WellKnown' : family === 'IPv6' ? 'Link' : 'Manual', AddressState: 'Preferred',
  ValidLifetime: 'Infinite ([TimeSpan]::MaxValue)', PreferredLifetime: 'Infinite ([TimeSpan]::MaxValue)', SkipAsSource: 'False', PolicyStore: 'ActiveStore',
});

const getNetIPAddress: Cmdlet = {
  name: 'Get-NetIPAddress',
  params: [{ name: 'IPAddress', position: 0 }, { name: 'AddressFamily' }, { name: 'InterfaceAlias' }, { name: 'InterfaceIndex' }],
  async run(c) {
    const env = c.ps.ctx.env;
    const fam = toStr(arg(c, 'AddressFamily')).toLowerCase();
    const input = c.bound.input?.filter((x): x is PsObject => x instanceof PsObject);
    const ifaces = env.network.interfaces.map((i, k) => ({ i, k })).filter(({ i }) => !input || input.length === 0 || input.some((a) => toStr(a.getProp('Name') ?? null) === i.name));
    const out: PsObject[] = [];
    for (const { i, k } of ifaces) {
      if (fam !== 'ipv4') out.push(new PsObject(['MSFT_NetIPAddress'], ipProps(`${linkLocal(i.mac)}%${17 + k}`, 64, i.name, 17 + k, 'IPv6', 'WellKnown')));
      if (fam !== 'ipv6') out.push(new PsObject(['MSFT_NetIPAddress'], ipProps(i.ip, i.prefix, i.name, 17 + k, 'IPv4', 'Manual')));
    }
    if (!input || input.length === 0) {
      if (fam !== 'ipv4') out.push(new PsObject(['MSFT_NetIPAddress'], ipProps('::1', 128, 'Loopback Pseudo-Interface 1', 1, 'IPv6', 'WellKnown')));
      if (fam !== 'ipv6') out.push(new PsObject(['MSFT_NetIPAddress'], ipProps('127.0.0.1', 8, 'Loopback Pseudo-Interface 1', 1, 'IPv4', 'WellKnown')));
    }
    for (const o of out) {
      if (has(c, 'InterfaceAlias') && toStr(o.getProp('InterfaceAlias') ?? null).toLowerCase() !== toStr(arg(c, 'InterfaceAlias')).toLowerCase()) continue;
      if (has(c, 'InterfaceIndex') && toNum(o.getProp('InterfaceIndex') ?? 0) !== toNum(arg(c, 'InterfaceIndex'))) continue;
      c.out.emit(o);
    }
  },
};

export const NET_CMDLETS: Cmdlet[] = [resolveDnsName, testNetConnection, ...WEB_CMDLETS, testConnection, getNetAdapter, getNetIPAddress];
export const NET_ALIASES: Record<string, string> = { curl: 'invoke-webrequest', wget: 'invoke-webrequest', iwr: 'invoke-webrequest', irm: 'invoke-restmethod', tnc: 'test-netconnection' };
