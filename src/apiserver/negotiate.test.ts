import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../api/errors.js';
import { decodeBody, decodeObjectBody, MAX_BODY_DEPTH } from './negotiate.js';

function rejects(fn: () => unknown, code: number, message: string | RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, code);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    return true;
  });
}

test('an object body in a media type the server does not decode is a 415; patches and empty bodies pass', () => {
  // apiserver handlers/negotiation NegotiateInputSerializer → errors.NewUnsupportedMediaTypeError.
  rejects(() => decodeBody('{"metadata":{}}', 'text/plain'), 415,
    'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  rejects(() => decodeBody('{}', 'application/merge-patch+json'), 415, /^the body of the request was in an unknown format/);
  assert.deepEqual(decodeBody('{}', 'application/merge-patch+json', true), {});
  assert.deepEqual(decodeBody('{"a":1}', 'application/json; charset=utf-8'), { a: 1 });
  assert.deepEqual(decodeBody('{"a":1}', undefined), { a: 1 });
  assert.equal(decodeBody('', 'text/plain'), undefined);
});

test('bodies nested deeper than the limit are a 400, not a stack overflow later', () => {
  const deep = '['.repeat(MAX_BODY_DEPTH + 1) + ']'.repeat(MAX_BODY_DEPTH + 1);
  // Go's scanner: "invalid character '[' exceeded max depth" (encoding/json scanner.go pushParseState).
  rejects(() => decodeBody(deep, 'application/json'), 400, /invalid character '\[' exceeded max depth$/);
  let obj: unknown = {};
  for (let i = 0; i < 5000; i++) obj = { a: obj };
  rejects(() => decodeBody(obj, undefined), 400, /invalid character '\{' exceeded max depth$/);
  const ok = '['.repeat(MAX_BODY_DEPTH - 1) + ']'.repeat(MAX_BODY_DEPTH - 1);
  assert.ok(Array.isArray(decodeBody(ok, 'application/json')));
  // A YAML alias that refers to itself makes a cycle: refused the same way instead of looping.
  rejects(() => decodeBody('&a [*a]', 'application/yaml'), 400, /exceeded max depth$/);
});

test('a "__proto__" key is refused: copies would turn it into a prototype and lose or corrupt data', () => {
  rejects(() => decodeBody('{"metadata":{"__proto__":{"name":"p"}}}', 'application/json'), 400, /"__proto__" is not supported/);
  rejects(() => decodeBody('{"data":{"__proto__":"x"}}', 'application/json', true), 400, /"__proto__" is not supported/);
});

test('YAML decodes to JSON values only: explicit !!binary, !!set and !!timestamp tags do not make Buffers, Sets or Dates', () => {
  assert.deepEqual(decodeBody('a: !!binary aGk=\nb: !!timestamp 2001-12-14\nc: !!set {x}', 'application/yaml'), { a: 'aGk=', b: '2001-12-14', c: { x: null } });
  assert.equal(decodeBody('!!binary ~~~', 'application/yaml'), '~~~');
});

test('decodeObjectBody: null is an empty object, anything but an object is kube\'s "unrecognized" 400', () => {
  assert.deepEqual(decodeObjectBody(null, 'ConfigMap'), {});
  rejects(() => decodeObjectBody(undefined, 'ConfigMap'), 400, 'the body of the request was empty');
  rejects(() => decodeObjectBody([1], 'ConfigMap'), 400, /^the object provided is unrecognized \(must be of type ConfigMap\): .* cannot unmarshal array into Go value of type struct/);
  rejects(() => decodeObjectBody(true, 'Scale'), 400, /cannot unmarshal bool into Go value/);
  rejects(() => decodeObjectBody(Buffer.from('x'), 'Binding'), 400, /must be of type Binding/);
});
