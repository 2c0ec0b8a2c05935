import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, evaluate, type Declarations } from './compile.js';
import { SchemaTypes } from './schema-types.js';
import { toCel } from './values.js';

const dyn: Declarations = { variables: { self: 'dyn', object: 'dyn' } };

async function run(expr: string, vars: Record<string, unknown> = {}): Promise<unknown> {
  const c = compile(expr, dyn, []);
  if (!c.ok) throw new Error(c.detail);
  const r = await evaluate(c.program, Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, toCel(v)])));
  if (r.error !== undefined) throw new Error(r.error);
  return r.value;
}

describe('CEL libraries (kube extensions)', () => {
  const cases: [string, unknown, Record<string, unknown>?][] = [
    // strings (cel-go ext.Strings as kube enables it)
    ['"Hello".lowerAscii()', 'hello'],
    ['"a,b,c".split(",")', ['a', 'b', 'c']],
    ['["a", "b"].join("-")', 'a-b'],
    ['"hello".charAt(1)', 'e'],
    ['"hello".replace("l", "L")', 'heLLo'],
    ['"hello".replace("l", "L", 1)', 'heLlo'],
    ['"  x ".trim()', 'x'],
    ['"hello".indexOf("l")', 2n],
    ['"hello".substring(1, 3)', 'el'],
    // lists (pkg/cel/library/lists.go)
    ['[1, 2, 3].isSorted()', true],
    ['["b", "a"].isSorted()', false],
    ['[1, 2, 3].sum()', 6n],
    ['[1.5, 2.5].sum()', 4],
    ['[3, 1, 2].min()', 1n],
    ['[3, 1, 2].max()', 3n],
    ['[1, 2, 3].indexOf(2)', 1n],
    ['[1, 2, 1].lastIndexOf(1)', 2n],
    // regex (pkg/cel/library/regex.go)
    ['"abc 123".find("[0-9]+")', '123'],
    ['"a1b22c333".findAll("[0-9]+")', ['1', '22', '333']],
    ['"a1b22c333".findAll("[0-9]+", 2)', ['1', '22']],
    // quantity, url, ip, cidr (quantity.go, urls.go, ip.go, cidr.go)
    ['quantity("1Gi").isGreaterThan(quantity("1G"))', true],
    ['quantity("500m").add(quantity("500m")).asInteger()', 1n],
    ['isQuantity("Three")', false],
    ['url("https://example.com:8080/a/b?x=1").getHost()', 'example.com:8080'],
    ['url("https://example.com:8080/a/b?x=1").getQuery()["x"]', ['1']],
    ['isURL("not a url")', false],
    ['cidr("10.0.0.0/8").containsIP("10.1.2.3")', true],
    ['cidr("10.0.0.0/8").containsIP(ip("192.168.0.1"))', false],
    ['ip("fd00::1").family()', 6n],
    ['isCIDR("10.0.0.0/33")', false],
    // has(), optional and macros on JSON objects
    ['has(self.spec)', true, { self: { spec: {} } }],
    ['has(self.spec.replicas)', false, { self: { spec: {} } }],
    ['self.?spec.?replicas.orValue(1)', 1n, { self: { spec: {} } }],
    ['self.spec.replicas <= 5', false, { self: { spec: { replicas: 7 } } }],
    ['self.items.all(i, i.size() > 1)', true, { self: { items: ['ab', 'cd'] } }],
    ['self.items.map(i, i.upperAscii())', ['AB'], { self: { items: ['ab'] } }],
  ];
  for (const [expr, want, vars] of cases) {
    it(expr, async () => assert.deepEqual(await run(expr, vars), want));
  }

  it('reports runtime errors with cel-go wording', async () => {
    await assert.rejects(run('self.missing == 1', { self: {} }), /^Error: no such key: missing$/);
    await assert.rejects(run('[].min()'), /min called on empty list/);
  });
});

describe('compile errors', () => {
  it('formats syntax and reference errors as cel-go prints them', () => {
    const c = compile('object.spec.replicas <= ', dyn, ['bool']);
    assert.equal(c.ok, false);
    assert.match((c as { detail: string }).detail, /^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
    const u = compile('foo == 1', dyn, ['bool']);
    assert.equal((u as { detail: string }).detail, "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^");
  });

  it('checks the result type', () => {
    const c = compile('1 + 1', dyn, ['bool']);
    assert.equal((c as { detail: string }).detail, 'must evaluate to bool but got int');
  });

  it('checks fields against a structural schema (undefined field)', () => {
    const types = new SchemaTypes('Object');
    const self = types.typeOf({ type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, 'max-size': { type: 'integer' } } } } });
    const decls: Declarations = { variables: { self }, types: (env) => types.install(env) };
    assert.equal(compile('self.spec.size > 1 && self.spec.max__dash__size > 1', decls, ['bool']).ok, true);
    const bad = compile('self.spec.namespace == ""', decls, ['bool']);
    assert.equal((bad as { detail: string }).detail.split('\n')[0].replace(/:1:\d+:/, ':1:N:'), "compilation failed: ERROR: <input>:1:N: undefined field 'namespace'");
    const typed = compile('self.spec.size == "x"', decls, ['bool']);
    assert.match((typed as { detail: string }).detail, /found no matching overload for '_==_' applied to '\(int, string\)'/);
  });
});
