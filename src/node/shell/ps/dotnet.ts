// The .NET values scripts reach for: casts ([int], [pscustomobject], [ipaddress]), DateTime and its format strings,
// IPAddress (hashes by value), the text encodings and growable ArrayLists.

import { DotNet, enumerate, Hashtable, PsError, PsObject, toBool, toNum, toStr, type PsValue } from './values.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** System.DateTime (UTC: containers run in UTC). */
export class DateTime extends DotNet {
  readonly typeName = 'System.DateTime';
  constructor(readonly ms: number) { super(); }
  private d() { return new Date(this.ms); }
  override get(name: string): PsValue | undefined {
    const d = this.d();
    switch (name.toLowerCase()) {
      case 'year': return d.getUTCFullYear();
      case 'month': return d.getUTCMonth() + 1;
      case 'day': return d.getUTCDate();
      case 'hour': return d.getUTCHours();
      case 'minute': return d.getUTCMinutes();
      case 'second': return d.getUTCSeconds();
      case 'millisecond': return d.getUTCMilliseconds();
      case 'dayofweek': return DAYS[d.getUTCDay()];
      case 'dayofyear': return Math.floor((this.ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;
      case 'ticks': return this.ms * 10000 + 621355968000000000;
      case 'date': return new DateTime(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      case 'kind': return 'Local';
    }
    return undefined;
  }
  override call(name: string, args: PsValue[]): PsValue | undefined {
    const n = toNum(args[0] ?? 0);
    switch (name.toLowerCase()) {
      case 'tostring': return args.length ? dotnetDate(this.ms, toStr(args[0])) : this.toString();
      case 'addseconds': return new DateTime(this.ms + n * 1000);
      case 'addminutes': return new DateTime(this.ms + n * 60000);
      case 'addhours': return new DateTime(this.ms + n * 3600000);
      case 'adddays': return new DateTime(this.ms + n * 86400000);
      case 'addmilliseconds': return new DateTime(this.ms + n);
      case 'touniversaltime': case 'tolocaltime': return this;
      case 'toshortdatestring': return dotnetDate(this.ms, 'M/d/yyyy');
      case 'tolongdatestring': return dotnetDate(this.ms, 'dddd, MMMM d, yyyy');
      case 'toshorttimestring': return dotnetDate(this.ms, 'h:mm tt');
      case 'tolongtimestring': return dotnetDate(this.ms, 'h:mm:ss tt');
      case 'tofiletime': return this.ms * 10000 + 116444736000000000;
    }
    return undefined;
  }
  override toString(): string { return dotnetDate(this.ms, 'M/d/yyyy h:mm:ss tt'); }
  /** The console shows DateTime as long date and long time. */
  display(): string { return dotnetDate(this.ms, 'dddd, MMMM d, yyyy h:mm:ss tt'); }
}

/** .NET custom and standard date format strings (en-US). */
export function dotnetDate(ms: number, fmt: string): string {
  const d = new Date(ms);
  const std: Record<string, string> = { d: 'M/d/yyyy', D: 'dddd, MMMM d, yyyy', t: 'h:mm tt', T: 'h:mm:ss tt', f: 'dddd, MMMM d, yyyy h:mm tt', F: 'dddd, MMMM d, yyyy h:mm:ss tt', g: 'M/d/yyyy h:mm tt', G: 'M/d/yyyy h:mm:ss tt', s: "yyyy-MM-dd'T'HH:mm:ss", u: "yyyy-MM-dd HH:mm:ss'Z'" };
  if (fmt === 'o' || fmt === 'O') return `${d.toISOString().replace('Z', '')}0000Z`;
  if (fmt === 'r' || fmt === 'R') return d.toUTCString();
  const f = std[fmt] ?? fmt;
  const h12 = d.getUTCHours() % 12 || 12;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return f.replace(/'([^']*)'|yyyy|yy|MMMM|MMM|MM|M|dddd|ddd|dd|d|HH|H|hh|h|mm|m|ss|s|fff|ff|f|tt|zzz|K/g, (t, lit: string | undefined) => {
    if (lit !== undefined) return lit;
    switch (t) {
      case 'yyyy': return String(d.getUTCFullYear());
      case 'yy': return p(d.getUTCFullYear() % 100);
      case 'MMMM': return MONTHS[d.getUTCMonth()];
      case 'MMM': return MONTHS[d.getUTCMonth()].slice(0, 3);
      case 'MM': return p(d.getUTCMonth() + 1);
      case 'M': return String(d.getUTCMonth() + 1);
      case 'dddd': return DAYS[d.getUTCDay()];
      case 'ddd': return DAYS[d.getUTCDay()].slice(0, 3);
      case 'dd': return p(d.getUTCDate());
      case 'd': return String(d.getUTCDate());
      case 'HH': return p(d.getUTCHours());
      case 'H': return String(d.getUTCHours());
      case 'hh': return p(h12);
      case 'h': return String(h12);
      case 'mm': return p(d.getUTCMinutes());
      case 'm': return String(d.getUTCMinutes());
      case 'ss': return p(d.getUTCSeconds());
      case 's': return String(d.getUTCSeconds());
      case 'fff': return p(d.getUTCMilliseconds(), 3);
      case 'ff': return p(Math.floor(d.getUTCMilliseconds() / 10));
      case 'f': return String(Math.floor(d.getUTCMilliseconds() / 100));
      case 'tt': return d.getUTCHours() < 12 ? 'AM' : 'PM';
      case 'zzz': return '+00:00';
      case 'K': return 'Z';
    }
    return t;
  });
}

/** System.Net.IPAddress: compares and hashes by value. */
export class IPAddress extends DotNet {
  readonly typeName = 'System.Net.IPAddress';
  constructor(readonly ip: string) { super(); }
  override get(name: string): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'addressfamily': return this.ip.includes(':') ? 'InterNetworkV6' : 'InterNetwork';
      case 'ipaddresstostring': return this.ip;
      case 'isipv6linklocal': return this.ip.toLowerCase().startsWith('fe80');
    }
    return undefined;
  }
  override call(name: string): PsValue | undefined {
    if (name.toLowerCase() === 'tostring') return this.ip;
    if (name.toLowerCase() === 'getaddressbytes') return Buffer.from(this.ip.split('.').map(Number));
    return undefined;
  }
  override toString(): string { return this.ip; }
  override hashKey(): string { return `ip:${this.ip}`; }
  override properties(): string[] { return ['AddressFamily', 'IPAddressToString']; }
}

export class Encoding extends DotNet {
  readonly typeName = 'System.Text.UTF8Encoding';
  constructor(readonly enc: 'utf8' | 'ascii' | 'utf16le') { super(); }
  override call(name: string, args: PsValue[]): PsValue | undefined {
    switch (name.toLowerCase()) {
      case 'getbytes': return Buffer.from(toStr(args[0] ?? null), this.enc === 'ascii' ? 'latin1' : this.enc);
      case 'getstring': {
        const v = args[0] ?? null;
        const buf = Buffer.isBuffer(v) ? v : Buffer.from(enumerate(v).map((x) => toNum(x)));
        return buf.toString(this.enc === 'ascii' ? 'latin1' : this.enc);
      }
      case 'getbytecount': return Buffer.byteLength(toStr(args[0] ?? null), this.enc === 'ascii' ? 'latin1' : this.enc);
    }
    return undefined;
  }
  override get(name: string): PsValue | undefined {
    if (name.toLowerCase() === 'encodingname') return this.enc === 'utf8' ? 'Unicode (UTF-8)' : this.enc === 'ascii' ? 'US-ASCII' : 'Unicode';
    if (name.toLowerCase() === 'webname') return this.enc === 'utf8' ? 'utf-8' : this.enc === 'ascii' ? 'us-ascii' : 'utf-16';
    return undefined;
  }
}

/** ArrayLists are JavaScript arrays marked growable (Add works; on arrays it fails as on fixed-size arrays). */
export const GROWABLE = new WeakSet<PsValue[]>();

export function norm(type: string): string {
  return type.toLowerCase().replace(/^system\./, '').replace(/\s+/g, '');
}

/** A type the emulation does not model: .NET's own namespaces get winkube's message, other names do not exist. */
export function typeNotFound(type: string): PsError {
  if (/^(system\.|net\.|io\.|text\.|security\.|diagnostics\.|collections\.|microsoft\.)/i.test(type)) {
    return new PsError(`winkube: "[${type}]" is not available in this emulated container`, 'NotImplemented', 'WinkubeUnavailable', { target: type, exceptionType: 'NotSupportedException' });
  }
  return new PsError(`Unable to find type [${type}].`, 'InvalidOperation', 'TypeNotFound', { target: type, exceptionType: 'RuntimeException' });
}

export function castTo(type: string, v: PsValue): PsValue {
  const t = norm(type);
  switch (t) {
    case 'int': case 'int32': case 'int16': case 'int64': case 'long': case 'byte': case 'uint32': case 'uint64': {
      if (Array.isArray(v)) throw new PsError(`Cannot convert the "System.Object[]" value of type "System.Object[]" to type "System.Int32".`, 'InvalidArgument', 'ConvertToFinalInvalidCastException');
      const n = toNum(v);
      const r = Math.round(n);
      return Math.abs(n % 1) === 0.5 ? (r % 2 === 0 ? r : r - 1) : r;
    }
    case 'double': case 'single': case 'float': case 'decimal': return toNum(v);
    case 'string': return v === null ? '' : toStr(v);
    case 'bool': case 'boolean': return toBool(v);
    case 'char': return typeof v === 'number' ? String.fromCharCode(v) : toStr(v).slice(0, 1);
    case 'array': case 'object[]': case 'string[]': case 'int[]': return v === null ? null : (Array.isArray(v) ? v : [v]).map((x) => (t === 'string[]' ? toStr(x) : t === 'int[]' ? toNum(x) : x));
    case 'byte[]': return Buffer.isBuffer(v) ? v : Buffer.from(enumerate(v).map((x) => toNum(x)));
    case 'hashtable': case 'collections.hashtable': return v instanceof Hashtable ? v : new Hashtable();
    case 'ordered': {
      const h = new Hashtable(true);
      if (v instanceof Hashtable) for (const [k, x] of v.entries()) h.set(k, x);
      return h;
    }
    case 'pscustomobject': case 'psobject': case 'management.automation.pscustomobject': {
      if (!(v instanceof Hashtable)) return v;
      const o = new PsObject();
      for (const [k, x] of v.entries()) o.setProp(toStr(k), x);
      return o;
    }
    case 'datetime': return v instanceof DateTime ? v : new DateTime(Date.parse(toStr(v)));
    case 'ipaddress': case 'net.ipaddress': return new IPAddress(toStr(v));
    case 'void': return null;
    case 'object': return v;
    case 'scriptblock': return v;
    case 'regex': return toStr(v);
    case 'uri': return toStr(v);
    case 'version': return toStr(v);
  }
  throw typeNotFound(type);
}
