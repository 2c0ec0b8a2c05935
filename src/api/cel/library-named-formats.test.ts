// kube's format library: names, constant formats and validate's messages (staging/src/k8s.io/apiserver/pkg/cel/
// library/format.go; the messages are apimachinery validation's, Go net/url's and kube-openapi strfmt's).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, evaluate, type Declarations } from './compile.js';
import { isDate, isDateTime, parseRequestURIError } from './library-named-formats.js';

const decls: Declarations = { variables: { self: 'string' } };

async function run(expr: string, self = ''): Promise<{ value?: unknown; error?: string }> {
  const c = compile(expr, decls, []);
  if (!c.ok) return { error: c.detail };
  return evaluate(c.program, { self });
}

/** validate(...) as the list it holds, or [] when it is optional.none. */
const errors = (format: string, s: string) => run(`format.${format}.validate(self).orValue([])`, s);

const DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('format.<name>().validate(str) with kube messages', () => {
  const cases: [string, string, string[]][] = [
    ['dns1123Label()', 'my-label', []],
    ['dns1123Label()', 'My_Label', [DNS_LABEL]],
    ['dns1123Label()', 'a'.repeat(64), ['must be no more than 63 characters']],
    ['named("dns1123Label").value()', '-x', [DNS_LABEL]],
    ['dns1123Subdomain()', 'apiextensions.k8s.io', []],
    ['dns1123Subdomain()', 'Example.com', [SUBDOMAIN]],
    ['dns1035Label()', '1abc', [DNS1035]],
    ['qualifiedName()', 'apiextensions.k8s.io/v1beta1', []],
    ['qualifiedName()', '/name', ['prefix part must be non-empty']],
    // A generateName prefix may end in a dash; without the Prefix variant it may not.
    ['dns1123LabelPrefix()', 'my-label-prefix-', []],
    ['dns1123SubdomainPrefix()', 'mysubdomain.prefix.-', []],
    ['dns1123SubdomainPrefix()', 'Upper.prefix-', [SUBDOMAIN]],
    ['dns1123Subdomain()', 'mysubdomain.prefix.-', [SUBDOMAIN]],
    ['dns1035LabelPrefix()', 'my-prefix-', []],
    ['labelValue()', '', []],
    ['labelValue()', 'bad value', [LABEL_VALUE]],
    ['uri()', 'http://example.com/path?q=1', []],
    ['uri()', '/absolute/path', []],
    ['uri()', 'mailto:someone', []],
    ['uri()', 'example.com', ['parse "example.com": invalid URI for request']],
    ['uri()', '', ['parse "": empty url']],
    ['uri()', ':8080', ['parse ":8080": missing protocol scheme']],
    ['uri()', 'http://host:port/', ['parse "http://host:port/": invalid port ":port" after host']],
    ['uri()', 'http://exa mple.com/', ['parse "http://exa mple.com/": invalid character " " in host name']],
    ['uri()', '/a%zzb', ['parse "/a%zzb": invalid URL escape "%zz"']],
    ['uuid()', '123e4567-e89b-12d3-a456-426614174000', []],
    ['uuid()', '123E4567E89B12D3A456426614174000', []],
    ['uuid()', '123e4567-e89b-12d3-a456', ['does not match the UUID format']],
    ['byte()', 'aGVsbG8=', []],
    ['byte()', 'aGVsbG8', ['invalid base64']],
    ['date()', '2024-02-29', []],
    ['date()', '2023-02-29', ['invalid date']],
    ['datetime()', '2021-01-01T00:00:00Z', []],
    ['datetime()', '2021-01-01T10:20:30.5+02:00', []],
    ['datetime()', '2021-01-01 00:00:00Z', ['invalid datetime']],
  ];
  for (const [format, input, want] of cases) {
    it(`format.${format}.validate(${JSON.stringify(input)})`, async () => assert.deepEqual(await errors(format, input), { value: want }));
  }
});

describe('format.named and the NamedFormat type', () => {
  const cases: [string, unknown][] = [
    ['format.named("uuid").hasValue()', true],
    ['format.named("unknownFormat").hasValue()', false],
    ['format.named("dns1123Label").value() == format.dns1123Label()', true],
    ['format.dns1123Label() == format.dns1035Label()', false],
    ['format.labelValue().validate("ok").hasValue()', false],
    ['format.dns1123Label().validate("NO").value().size()', 1n],
  ];
  for (const [expr, value] of cases) it(expr, async () => assert.deepEqual(await run(expr), { value }));

  it('validate needs a string', () => {
    const c = compile('format.dns1123Label().validate(1)', decls, []);
    assert.equal(c.ok, false);
  });
});

describe('the Go parsers behind uri, date and datetime', () => {
  it('accepts what url.ParseRequestURI accepts', () => {
    for (const s of ['*', 'https://user@host.example:443/a/b', 'http://[::1]:80/', 'urn:isbn:0451450523']) assert.equal(parseRequestURIError(s), undefined, s);
  });
  it('checks calendar days and clock fields', () => {
    assert.deepEqual(['2023-04-31', '2023-13-01', '2000-02-29'].map(isDate), [false, false, true]);
    assert.deepEqual(['2023-04-30T24:00:00Z', '2023-04-30t23:59:59z', '2023-04-30T23:59'].map(isDateTime), [false, true, false]);
  });
});
