// Static members of .NET types: [Environment], [Math], [string], [System.Text.Encoding]::UTF8, [System.Net.Dns],
// [System.IO.File]/[Path]/[Directory], [Convert], [DateTime]::Now, [Console]::WriteLine, [Threading.Thread]::Sleep.

import { sleep, type Ctx } from '../core/ctx.js';
import { resolveHost } from '../net/resolver.js';
import { computerName } from '../win/format.js';
import { DateTime, Encoding, IPAddress, norm, typeNotFound } from './dotnet.js';
import { enumerate, Hashtable, PsError, PsObject, toNum, toStr, type PsValue } from './values.js';
import { formatComposite } from './operators.js';

const KNOWN_TYPES = new Set(['environment', 'math', 'string', 'int', 'int32', 'datetime', 'text.encoding', 'io.file', 'io.path', 'io.directory', 'net.dns', 'threading.thread', 'console', 'guid', 'convert', 'net.servicepointmanager', 'net.securityprotocoltype', 'net.ipaddress', 'ipaddress', 'char', 'bool', 'double', 'int64', 'long', 'diagnostics.process', 'object', 'array', 'timespan', 'text.regularexpressions.regex', 'regex']);

export function staticMember(type: string, name: string, ctx: Ctx): PsValue {
  const t = norm(type);
  const n = name.toLowerCase();
  if (!KNOWN_TYPES.has(t)) throw typeNotFound(type);
  switch (t) {
    case 'text.encoding':
      if (n === 'utf8') return new Encoding('utf8');
      if (n === 'ascii' || n === 'default') return new Encoding('ascii');
      if (n === 'unicode') return new Encoding('utf16le');
      return null;
    case 'environment':
      switch (n) {
        case 'machinename': return computerName(ctx.env.hostname);
        case 'newline': return '\r\n';
        case 'processorcount': return ctx.env.system.cpus;
        case 'username': return ctx.vars.USERNAME ?? null;
        case 'userdomainname': return ctx.vars.USERDOMAIN ?? null;
        case 'currentdirectory': return ctx.cwd;
        case 'is64bitoperatingsystem': case 'is64bitprocess': return true;
        case 'osversion': return new PsObject(['System.OperatingSystem'], { Platform: 'Win32NT', ServicePack: '', Version: `${ctx.env.system.windowsBuild ?? '10.0.17763'}.0`, VersionString: `Microsoft Windows NT ${ctx.env.system.windowsBuild ?? '10.0.17763'}.0` });
        case 'tickcount': return Math.floor(ctx.env.clock.now() - ctx.env.system.bootTimeMs);
      }
      return null;
    case 'int': case 'int32': return n === 'maxvalue' ? 2147483647 : n === 'minvalue' ? -2147483648 : null;
    case 'int64': case 'long': return n === 'maxvalue' ? Number.MAX_SAFE_INTEGER : null;
    case 'string': return n === 'empty' ? '' : null;
    case 'math': return n === 'pi' ? Math.PI : n === 'e' ? Math.E : null;
    case 'datetime':
      if (n === 'now' || n === 'utcnow') return new DateTime(ctx.env.clock.now());
      if (n === 'today') { const d = new Date(ctx.env.clock.now()); return new DateTime(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())); }
      return null;
    case 'net.servicepointmanager': return n === 'securityprotocol' ? 'Ssl3, Tls' : null;
    case 'net.securityprotocoltype': return name;
    case 'io.path': return n === 'directoryseparatorchar' ? '\\' : n === 'pathseparator' ? ';' : null;
    case 'ipaddress': case 'net.ipaddress': return n === 'any' ? new IPAddress('0.0.0.0') : n === 'loopback' ? new IPAddress('127.0.0.1') : null;
    case 'bool': return null;
  }
  return null;
}

const ASSIGNABLE = new Set(['net.servicepointmanager']);
export function staticSet(type: string, name: string, _v: PsValue): void {
  if (ASSIGNABLE.has(norm(type))) return;
  throw new PsError(`'${name}' is a ReadOnly property.`, 'InvalidOperation', 'PropertyAssignmentException');
}

function methodError(method: string, argc: number, msg: string): PsError {
  return new PsError(`Exception calling "${method}" with "${argc}" argument(s): "${msg}"`, 'NotSpecified', 'ExtendedTypeSystemException', { exceptionType: 'MethodInvocationException' });
}

export interface StaticHost { writeHost(text: string): void }

export async function staticCall(type: string, name: string, args: PsValue[], ctx: Ctx, host: StaticHost): Promise<PsValue> {
  const t = norm(type);
  const n = name.toLowerCase();
  const a = (i: number) => args[i] ?? null;
  const fs = ctx.env.fs;
  if (!KNOWN_TYPES.has(t)) throw typeNotFound(type);
  switch (t) {
    case 'environment':
      if (n === 'getenvironmentvariable') {
        const k = Object.keys(ctx.vars).find((x) => x.toLowerCase() === toStr(a(0)).toLowerCase());
        return k === undefined ? null : ctx.vars[k];
      }
      if (n === 'setenvironmentvariable') { ctx.vars[toStr(a(0))] = toStr(a(1)); return null; }
      if (n === 'getenvironmentvariables') { const h = new Hashtable(); for (const [k, v] of Object.entries(ctx.vars)) h.set(k, v); return h; }
      break;
    case 'math': {
      const x = toNum(a(0));
      switch (n) {
        case 'round': { const d = args.length > 1 ? toNum(a(1)) : 0; const f = 10 ** d; return Math.round(x * f) / f; }
        case 'floor': return Math.floor(x);
        case 'ceiling': return Math.ceil(x);
        case 'truncate': return Math.trunc(x);
        case 'abs': return Math.abs(x);
        case 'max': return Math.max(x, toNum(a(1)));
        case 'min': return Math.min(x, toNum(a(1)));
        case 'pow': return x ** toNum(a(1));
        case 'sqrt': return Math.sqrt(x);
      }
      break;
    }
    case 'string':
      if (n === 'isnullorempty') return a(0) === null || toStr(a(0)) === '';
      if (n === 'isnullorwhitespace') return a(0) === null || toStr(a(0)).trim() === '';
      if (n === 'join') return enumerate(args.length > 2 ? args.slice(1) : a(1)).map(toStr).join(toStr(a(0)));
      if (n === 'format') return formatComposite(toStr(a(0)), args.length === 2 && Array.isArray(a(1)) ? (a(1) as PsValue[]) : args.slice(1));
      if (n === 'concat') return args.map(toStr).join('');
      break;
    case 'io.file': {
      const p = fs.resolve(ctx.cwd, toStr(a(0)));
      try {
        switch (n) {
          case 'exists': return fs.stat(p)?.kind === 'file';
          case 'readalltext': return fs.readFile(p, ctx.cred).toString();
          case 'readalllines': return fs.readFile(p, ctx.cred).toString().split(/\r?\n/).filter((l, i, arr) => l !== '' || i < arr.length - 1);
          case 'readallbytes': return fs.readFile(p, ctx.cred);
          case 'writealltext': fs.writeFile(p, toStr(a(1)), { cred: ctx.cred }); return null;
          case 'appendalltext': fs.writeFile(p, toStr(a(1)), { append: true, cred: ctx.cred }); return null;
          case 'writeallbytes': fs.writeFile(p, Buffer.isBuffer(a(1)) ? a(1) as Buffer : Buffer.from(enumerate(a(1)).map((x) => toNum(x))), { cred: ctx.cred }); return null;
          case 'delete': fs.unlink(p, ctx.cred); return null;
        }
      } catch (e) {
        throw methodError(name, args.length, e instanceof Error && /EACCES|EROFS/.test(e.message) ? `Access to the path '${p}' is denied.` : `Could not find file '${p}'.`);
      }
      break;
    }
    case 'io.directory': {
      const p = fs.resolve(ctx.cwd, toStr(a(0)));
      if (n === 'exists') return fs.stat(p)?.kind === 'dir';
      if (n === 'createdirectory') { fs.mkdir(p, { parents: true, cred: ctx.cred }); return p; }
      if (n === 'getfiles') return fs.readdir(p).filter((x) => x.kind === 'file').map((x) => fs.resolve(p, x.name));
      break;
    }
    case 'io.path':
      if (n === 'combine') return args.map(toStr).reduce((x, y) => (/^[A-Za-z]:|^\\/.test(y) ? y : x.endsWith('\\') ? x + y : `${x}\\${y}`));
      if (n === 'getfilename') return toStr(a(0)).replace(/^.*[\\/]/, '');
      if (n === 'getdirectoryname') return toStr(a(0)).replace(/[\\/][^\\/]*$/, '');
      if (n === 'getextension') return /\.[^.\\/]*$/.exec(toStr(a(0)))?.[0] ?? '';
      if (n === 'gettemppath') return `${ctx.vars.TEMP ?? 'C:\\Windows\\Temp'}\\`;
      break;
    case 'net.dns': {
      if (n === 'gethostname') return ctx.env.hostname;
      if (n === 'gethostaddresses' || n === 'gethostentry' || n === 'resolve') {
        const r = await resolveHost(ctx.env, toStr(a(0)));
        if ('error' in r) throw methodError(name, args.length, 'No such host is known');
        const addr = new IPAddress(r.ip);
        if (n === 'gethostaddresses') return [addr];
        return new PsObject(['System.Net.IPHostEntry'], { HostName: r.name, Aliases: [], AddressList: [addr] });
      }
      break;
    }
    case 'threading.thread':
      if (n === 'sleep') { await sleep(ctx, toNum(a(0))); return null; }
      break;
    case 'console':
      if (n === 'writeline') { host.writeHost(`${args.length > 1 ? formatComposite(toStr(a(0)), args.slice(1)) : toStr(a(0))}\r\n`); return null; }
      if (n === 'write') { host.writeHost(toStr(a(0))); return null; }
      break;
    case 'guid':
      if (n === 'newguid') { const h = () => Math.floor(Math.random() * 16).toString(16); return 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, h); }
      break;
    case 'convert':
      if (n === 'tobase64string') return (Buffer.isBuffer(a(0)) ? a(0) as Buffer : Buffer.from(enumerate(a(0)).map((x) => toNum(x)))).toString('base64');
      if (n === 'frombase64string') return Buffer.from(toStr(a(0)), 'base64');
      if (n === 'toint32') return Math.trunc(toNum(a(0)));
      if (n === 'tostring') return toStr(a(0));
      break;
    case 'datetime':
      if (n === 'parse') return new DateTime(Date.parse(toStr(a(0))));
      break;
    case 'ipaddress': case 'net.ipaddress':
      if (n === 'parse') return new IPAddress(toStr(a(0)));
      break;
  }
  throw new PsError(`Method invocation failed because [${type.startsWith('System.') ? type : `System.${type}`}] does not contain a method named '${name}'.`, 'InvalidOperation', 'MethodNotFound');
}

