import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain, nameIsPathSegment } from './names.js';
import { validateAnnotations, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

test('name formats', () => {
  const cases: [(v: string) => string[], string, string[]][] = [
    [isDNS1123Subdomain, 'example.com', []],
    [isDNS1123Subdomain, 'Foo', [SUBDOMAIN]],
    [isDNS1123Subdomain, 'a'.repeat(254), ['must be no more than 253 characters']],
    [isDNS1123Label, 'my-name', []],
    [isDNS1123Label, 'a.b', [LABEL]],
    [isDNS1123Label, 'a'.repeat(64), ['must be no more than 63 characters']],
    [isDNS1035Label, '1abc', [DNS1035]],
    [isQualifiedName, 'example.com/MyName', []],
    [isQualifiedName, '/a', ['prefix part must be non-empty']],
    [isQualifiedName, 'Bad_/x', [`prefix part ${SUBDOMAIN}`]],
    [isQualifiedName, 'a/b/c', ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]],
    [isQualifiedName, 'x/', ['name part must be non-empty', "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]],
  ];
  for (const [fn, v, want] of cases) assert.deepEqual(fn(v), want, `${fn.name}(${v.slice(0, 20)})`);
  assert.deepEqual(nameIsDNSSubdomain('web-', true), []);
  assert.deepEqual(nameIsPathSegment('a/b%', false), ["may not contain '/'", "may not contain '%'"]);
  assert.deepEqual(nameIsPathSegment('..', false), ["may not be '..'"]);
});

test('validateObjectMeta', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ name: 'ok' }, []],
    [{}, ['metadata.name: Required value: name or generateName is required']],
    [{ name: 'Foo' }, [`metadata.name: Invalid value: "Foo": ${SUBDOMAIN}`]],
    [{ name: 'x', generateName: 'Web-' }, [`metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN}`]],
    [{ name: 'x', generation: -1 }, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
    [{ name: 'x', labels: { a: 'b c' } }, ['metadata.labels: Invalid value: "b c": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')']],
    [{ name: 'x', ownerReferences: [{ apiVersion: 'v1', kind: 'A', name: 'a', uid: '1', controller: true }, { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2', controller: true }] },
      ['metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"A","name":"a","uid":"1","controller":true},{"apiVersion":"v1","kind":"B","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for A/a and B/b']],
    [{ name: 'x', ownerReferences: [{ apiVersion: '', kind: 'A', name: 'a', uid: '' }] },
      ['metadata.ownerReferences[0].apiVersion: Invalid value: "": version must not be empty', 'metadata.ownerReferences[0].uid: Invalid value: "": uid must not be empty']],
  ];
  for (const [m, want] of cases) assert.deepEqual(validateObjectMeta(m, nameIsDNSSubdomain).map(String), want, JSON.stringify(m));
});

test('annotations: keys checked lower-cased, 256 KiB total', () => {
  assert.deepEqual(validateAnnotations({ 'Example.com/Key': 'v' }, 'metadata.annotations'), []);
  const big = validateAnnotations({ a: 'x'.repeat(256 * 1024) }, 'metadata.annotations').map(String);
  assert.equal(big.length, 1);
  assert.match(big[0], /^metadata\.annotations: Too long: /);
  assert.match(big[0], /262144 bytes/);
});

test('validateObjectMetaUpdate', () => {
  const old = { name: 'a', namespace: 'ns', uid: 'u1', generation: 3, deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['x.io/a'] };
  const errs = validateObjectMetaUpdate({ ...old, name: 'b', uid: 'u2', generation: 2, finalizers: ['x.io/a', 'x.io/b'] }, old).map(String);
  assert.deepEqual(errs, [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x.io/b"}',
    'metadata.generation: Invalid value: 2: must not be decremented',
    'metadata.name: Invalid value: "b": field is immutable',
    'metadata.uid: Invalid value: "u2": field is immutable',
  ]);
});
