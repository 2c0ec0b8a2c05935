// kube's format library (in the base environment from 1.31): `format.named(name)` → optional format,
// `format.dns1123Label()` and its siblings, and `<format>.validate(str)` → optional list of kube's error messages
// (staging/src/k8s.io/apiserver/pkg/cel/library/format.go ConstantFormats; pkg/cel/format.go kubernetes.NamedFormat).
// Not cel-go's `"%s".format([...])`, which is library-format.ts.

import { Optional, type Environment } from '@marcbachmann/cel-js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNS1035Label,
  nameIsDNSLabel, nameIsDNSSubdomain } from '../validation/names.js';

/** kubernetes.NamedFormat: equal when the names are (format.go Equal). */
export class NamedFormat {
  constructor(readonly name: string, readonly validate: (s: string) => string[]) {}
}

/** Go's strconv.Quote for the ASCII texts url errors carry. */
const goQuote = (s: string) => JSON.stringify(s);

/** Go's url.ParseRequestURI error text, or undefined when `s` parses (net/url url.go parse with viaRequest). */
export function parseRequestURIError(s: string): string | undefined {
  const fail = (msg: string) => `parse ${goQuote(s)}: ${msg}`;
  if (/[\x00-\x1f\x7f]/.test(s)) return fail('net/url: invalid control character in URL');
  if (s === '') return fail('empty url');
  if (s === '*') return undefined;
  let scheme = '';
  let rest = s;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return fail('missing protocol scheme');
      scheme = s.slice(0, i);
      rest = s.slice(i + 1);
    }
    break;
  }
  rest = rest.endsWith('?') && rest.split('?').length === 2 ? rest.slice(0, -1) : rest.split('?')[0];
  if (!rest.startsWith('/')) return scheme ? undefined : fail('invalid URI for request');
  if (scheme && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const hostErr = hostError(authority.slice(authority.lastIndexOf('@') + 1));
    if (hostErr) return fail(hostErr);
  }
  const esc = badEscape(rest);
  return esc ? fail(`invalid URL escape ${goQuote(esc)}`) : undefined;
}

/** url.go parseHost: a port must be digits; host characters outside the allowed set are refused. */
function hostError(host: string): string | undefined {
  let name = host;
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) return "missing ']' in host";
    const port = host.slice(end + 1);
    if (port && !/^:[0-9]*$/.test(port)) return `invalid port ${goQuote(port)} after host`;
    name = host.slice(1, end);
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) {
      const port = host.slice(colon);
      if (!/^:[0-9]*$/.test(port)) return `invalid port ${goQuote(port)} after host`;
      name = host.slice(0, colon);
    }
  }
  const esc = badEscape(name);
  if (esc) return `invalid URL escape ${goQuote(esc)}`;
  // shouldEscape in host mode: ASCII letters, digits and -._~!$&'()*+,;=:[]<>" stay.
  const bad = [...name].find((c) => c.charCodeAt(0) < 0x80 && c !== '%' && !/[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]/.test(c));
  return bad ? `invalid character ${goQuote(bad)} in host name` : undefined;
}

/** The first malformed %-escape (Go's EscapeError keeps at most three bytes of it). */
function badEscape(s: string): string | undefined {
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) {
    if (!/^%[0-9a-fA-F]{2}/.test(s.slice(i, i + 3))) return s.slice(i, i + 3);
  }
  return undefined;
}

/** kube-openapi strfmt: UUIDPattern, govalidator's Base64, RFC3339FullDate and the date-time pattern. */
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;

/** time.Parse("2006-01-02"): exact digits, a real month and a day that month has. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
}

/** strfmt IsDateTime: a date, a `t`, then hh:mm:ss[.frac] and `z` or an offset, compared loosely as strfmt does. */
export function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = TIME.exec(parts[1]);
  return !!m && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

const check = (ok: (s: string) => boolean, msg: string) => (s: string) => (ok(s) ? [] : [msg]);

/** ConstantFormats, keyed by the name `format.named` takes; the display names are kube's. */
export const CONSTANT_FORMATS: ReadonlyMap<string, NamedFormat> = new Map([
  ['dns1123Label', new NamedFormat('DNS1123Label', isDNS1123Label)],
  ['dns1123Subdomain', new NamedFormat('DNS1123Subdomain', isDNS1123Subdomain)],
  ['dns1035Label', new NamedFormat('DNS1035Label', isDNS1035Label)],
  ['qualifiedName', new NamedFormat('QualifiedName', isQualifiedName)],
  ['dns1123LabelPrefix', new NamedFormat('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true))],
  ['dns1123SubdomainPrefix', new NamedFormat('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true))],
  ['dns1035LabelPrefix', new NamedFormat('DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true))],
  ['labelValue', new NamedFormat('LabelValue', isValidLabelValue)],
  ['uri', new NamedFormat('URI', (s) => {
    const err = parseRequestURIError(s);
    return err ? [err] : [];
  })],
  ['uuid', new NamedFormat('uuid', check((s) => UUID.test(s), 'does not match the UUID format'))],
  ['byte', new NamedFormat('byte', check((s) => BASE64.test(s), 'invalid base64'))],
  ['date', new NamedFormat('date', check(isDate, 'invalid date'))],
  ['datetime', new NamedFormat('datetime', check(isDateTime, 'invalid datetime'))],
]);

/** The `format` namespace object, so `format.dns1123Label()` resolves as a call on it. */
export class FormatNamespace {}

export function registerNamedFormatLibrary(env: Environment): void {
  const NS = 'kubernetes.FormatNamespace';
  const F = 'kubernetes.NamedFormat';
  env.registerType(F, NamedFormat);
  env.registerType(NS, FormatNamespace);
  env.registerConstant('format', NS, new FormatNamespace());
  env.registerFunction(`${NS}.named(string): optional<${F}>`, (_ns: FormatNamespace, name: string) => {
    const f = CONSTANT_FORMATS.get(name);
    return f ? Optional.of(f) : Optional.none();
  });
  for (const [name, f] of CONSTANT_FORMATS) env.registerFunction(`${NS}.${name}(): ${F}`, () => f);
  env.registerFunction(`${F}.validate(string): optional<list<string>>`, (f: NamedFormat, s: string) => {
    const errs = f.validate(s);
    return errs.length ? Optional.of(errs) : Optional.none();
  });
  env.registerOperator(`${F} == ${F}`, (a: NamedFormat, b: NamedFormat) => a.name === b.name);
}
