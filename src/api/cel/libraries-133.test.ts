// kube 1.33's CEL libraries beyond cel-js: string format and quote (cel-go ext/strings_test.go TestStringFormat
// cases), sets (ext/sets.go), semver (apiserver pkg/cel/library/semverlib.go), and cel-go's compile-time checks
// of has() fields and constant format strings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, evaluate, type Declarations } from './compile.js';
import { SchemaTypes } from './schema-types.js';
import { toCel } from './values.js';

const dyn: Declarations = { variables: { self: 'dyn' } };

async function run(expr: string, self: unknown = {}): Promise<{ value?: unknown; error?: string }> {
  const c = compile(expr, dyn, []);
  if (!c.ok) throw new Error(c.detail);
  return evaluate(c.program, { self: toCel(self) });
}

describe('string.format (cel-go v0.23 formatting.go as kube 1.33 runs it)', () => {
  const cases: [string, string][] = [
    ['"str is %s and some more".format(["filler"])', 'str is filler and some more'],
    ['"%% and also %%".format([])', '% and also %'],
    ['"%d %d %d, %s %s %s".format([1, 2, 3, "A", "B", "C"])', '1 2 3, A B C'],
    ['"%.3f".format([1.2345])', '1.234'],
    ['"%.2f".format([1234567.891])', '1,234,567.89'],
    ['"this is 5 in binary: %b".format([5])', 'this is 5 in binary: 101'],
    ['"%b".format([-5])', '-101'],
    ['"bit set from bool: %b".format([true])', 'bit set from bool: 1'],
    ['"%o".format([11])', '13'],
    ['"%o".format([uint(65535)])', '177777'],
    ['"%x is 30 in hexadecimal".format([30])', '1e is 30 in hexadecimal'],
    ['"%X".format([-30])', '-1E'],
    ['"%x".format(["Hello world!"])', '48656c6c6f20776f726c6421'],
    ['"%X".format([b"byte string"])', '6279746520737472696E67'],
    ['"%.6e".format([1052.032911275])', '1.052033\u202f\u00d7\u202f10\u2070\u00b3'],
    ['"%e".format([2.71828])', '2.718280\u202f\u00d7\u202f10\u2070\u2070'],
    ['"%f".format([2.71828])', '2.718280'],
    ['"%f".format(["NaN"])', 'NaN'],
    ['"%f".format(["-Infinity"])', '-∞'],
    ['"%s".format([2.71])', '2.71'],
    ['"%s".format([0.000000002])', '2e-09'],
    ['"%s".format([[2.71]])', '[2.710000]'],
    ['"%s".format([double("-Inf")])', '-Inf'],
    ['"null: %s".format([null])', 'null: null'],
    ['"%s".format([999999999999])', '999999999999'],
    ['"some bytes: %s".format([b"xyz"])', 'some bytes: xyz'],
    ['"%s".format([timestamp("2023-02-03T23:31:20+00:00")])', '2023-02-03T23:31:20Z'],
    ['"%s".format([duration("1h45m47s")])', '6347s'],
    ['"%s".format([["abc", 3.14, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]])', '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]'],
    ['"%s".format([{"key1": b"xyz", "key5": null, "key2": duration("2h"), "key4": true, "key3": 2.71828}])', '{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}'],
    ['"true bool: %s, false bool: %s".format([true, false])', 'true bool: true, false bool: false'],
    ['"%s replicas of %s".format([self.n, self.name])', '3 replicas of web'],
    ['strings.quote("single-quote with \\"double quote\\"")', '"single-quote with \\"double quote\\""'],
    ['strings.quote("two escape sequences \\a\\n")', '"two escape sequences \\a\\n"'],
  ];
  for (const [expr, want] of cases) {
    it(expr, async () => assert.deepEqual(await run(expr, { n: 3, name: 'web' }), { value: want }));
  }

  // Arguments only known at run time fail at run time with cel-go's texts.
  const runtime: [string, string][] = [
    ['"%d %d %d".format(self.l)', 'index 2 out of range'],
    ['"string is %b".format([self.s])', 'error during formatting: only integers and bools can be formatted as binary, was given string'],
    ['"octal: %o".format([self.s])', 'error during formatting: octal clause can only be used on integers, was given string'],
    ['"double is %x".format([self.d])', 'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double'],
    ['"null: %d".format([self.z])', 'error during formatting: decimal clause can only be used on integers, was given null_type'],
    ['"null: %f".format([self.z])', 'error during formatting: fixed-point clause can only be used on doubles, was given null_type'],
    ['"null: %e".format([self.z])', 'error during formatting: scientific clause can only be used on doubles, was given null_type'],
  ];
  for (const [expr, want] of runtime) {
    it(`${expr} fails`, async () => assert.deepEqual(await run(expr, { l: [1, 2], s: 'abc', d: 0.5, z: null }), { error: want }));
  }
});

describe('string.format compile-time checks (stringFormatValidator)', () => {
  const cases: [string, string][] = [
    ['"%a".format([1])', 'ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause "a"\n | "%a".format([1])\n | ...........^'],
    ['"double is %E".format([0.5])', 'ERROR: <input>:1:22: could not parse formatting clause: unrecognized formatting clause "E"\n | "double is %E".format([0.5])\n | .....................^'],
    ['"%s %s".format(["abc"])', 'ERROR: <input>:1:15: index 1 out of range\n | "%s %s".format(["abc"])\n | ..............^'],
    ['"%s".format(["a", "b"])', 'ERROR: <input>:1:12: too many arguments supplied to string.format (expected 1, got 2)\n | "%s".format(["a", "b"])\n | ...........^'],
    ['"%d".format(["a"])', 'ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string\n | "%d".format(["a"])\n | .............^'],
  ];
  for (const [expr, want] of cases) {
    it(expr, () => assert.deepEqual(compile(expr, dyn, []), { ok: false, detail: `compilation failed: ${want}` }));
  }
});

describe('sets and semver', () => {
  const cases: [string, unknown][] = [
    ['sets.contains([1, 2, 3], [3, 1])', true],
    ['sets.contains([1], [])', true],
    ['sets.contains([1, 2], [2, 4])', false],
    // cel-go's doc example mixes int and double in one literal, which kube's homogeneous literals refuse.
    ['sets.contains([1.0, 2.0], [2])', true],
    ['sets.equivalent([1, 2, 2], [2, 1])', true],
    ['sets.equivalent([1], [1, 2])', false],
    ['sets.intersects([1, 2], [2, 3])', true],
    ['sets.intersects([], [1])', false],
    ['semver("1.2.3").major()', 1n],
    ['semver("1.2.3").minor()', 2n],
    ['semver("1.2.3").patch()', 3n],
    ['semver("1.2.3").compareTo(semver("2.0.0"))', -1n],
    ['semver("1.2.3").compareTo(semver("0.1.2"))', 1n],
    ['semver("1.2.3").compareTo(semver("1.2.3+build.7"))', 0n],
    ['semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta"))', true],
    ['semver("1.0.0-rc.1").isLessThan(semver("1.0.0"))', true],
    ['semver("1.10.0").isGreaterThan(semver("1.9.9"))', true],
    ['isSemver("1.0.0")', true],
    ['isSemver("hello")', false],
    ['isSemver("v1.0")', false],
    ['isSemver("v1.0", true)', true],
    ['semver("01.01.01", true).minor()', 1n],
    ['semver("v1.0", true).patch()', 0n],
  ];
  for (const [expr, want] of cases) it(expr, async () => assert.deepEqual(await run(expr), { value: want }));

  const errors: [string, string][] = [
    ['semver("200K")', 'No Major.Minor.Patch elements found'],
    ['semver("01.2.3")', 'Major number must not contain leading zeroes "01"'],
    ['semver("1.x.3")', 'Invalid character(s) found in minor number "x"'],
    ['semver("1.0-rc", true)', 'short version cannot contain PreRelease/Build meta data'],
  ];
  for (const [expr, want] of errors) it(`${expr} fails`, async () => assert.deepEqual(await run(expr), { error: want }));

  it('reverse is not in kube 1.33 (ext.Strings version 2)', () => assert.equal(compile('"abc".reverse() == "cba"', dyn, []).ok, false));
});

describe('has() on a field the schema does not declare', () => {
  const types = new SchemaTypes('Object');
  const self = types.typeOf({ type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } } } });
  const decls: Declarations = { variables: { self }, types: (env) => types.install(env) };
  const cases: [string, string | undefined][] = [
    ['has(self.spec.size)', undefined],
    ['has(self.spec.labels.anything)', undefined],
    ['has(self.spec.foo)', "ERROR: <input>:1:4: undefined field 'foo'\n | has(self.spec.foo)\n | ...^"],
    ['self.spec.size > 1 || !has(self.spec.replicas)', "ERROR: <input>:1:27: undefined field 'replicas'\n | self.spec.size > 1 || !has(self.spec.replicas)\n | ..........................^"],
  ];
  for (const [expr, want] of cases) {
    it(expr, () => {
      const c = compile(expr, decls, ['bool']);
      assert.deepEqual(c.ok ? undefined : c.detail, want === undefined ? undefined : `compilation failed: ${want}`);
    });
  }
});
