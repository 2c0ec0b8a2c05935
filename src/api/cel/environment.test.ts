// kube's two CEL environments on a 1.33 server: new expressions get the libraries introduced up to the
// compatibility version 1.32, stored ones everything 1.33 knows — so semver (introduced 1.33) is refused in a new
// expression with cel-go's undeclared-reference errors and accepted in a stored one
// (staging/src/k8s.io/apiserver/pkg/cel/environment/base.go; component-base/compatibility/version.go; cel-go checker.go).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, evaluate, type Declarations } from './compile.js';
import { COMPATIBILITY_MINOR, SERVER_MINOR, storedOnlyFunctions } from './environment.js';
import { toCel } from './values.js';

const decls: Declarations = { variables: { self: 'dyn' } };

describe('CEL environments of a 1.33 server', () => {
  it('takes the compatibility version one minor below the server', () => {
    assert.equal(SERVER_MINOR, 33);
    assert.equal(COMPATIBILITY_MINOR, 32);
    assert.deepEqual([...storedOnlyFunctions()].sort(), ['isSemver', 'major', 'minor', 'patch', 'semver']);
  });

  // Libraries introduced at or before 1.32 compile in both environments.
  const everywhere: [string, string][] = [
    ['ext.Strings v2 format (1.29)', "'%s of %d'.format(['a', 1]) == 'a of 1'"],
    ['ext.Sets (1.29)', 'sets.contains([1, 2], [1])'],
    ['IP and CIDR (1.30)', "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))"],
    ['quantity (1.28)', "quantity('1Gi').isGreaterThan(quantity('1Mi'))"],
    ['format library (1.31)', "format.dns1123Label().validate('ok').hasValue() == false"],
    ['two-variable comprehensions (1.32)', '[1, 2].all(i, v, v > i)'],
    ['global matches (cel-go standard library)', "matches('abc', '^a')"],
  ];
  for (const [name, expr] of everywhere) {
    it(`compiles ${name} in both environments`, async () => {
      for (const kind of ['new', 'stored'] as const) {
        const c = compile(expr, decls, ['bool'], undefined, kind);
        assert.ok(c.ok, `${kind}: ${c.ok ? '' : c.detail}`);
        assert.deepEqual(await evaluate(c.program, { self: toCel({}) }), { value: true });
      }
    });
  }

  const semverOnlyStored: [string, string][] = [
    ["semver('1.2.3').major() == 1",
      "compilation failed: ERROR: <input>:1:7: undeclared reference to 'semver' (in container '')\n | semver('1.2.3').major() == 1\n | ......^\n"
      + "ERROR: <input>:1:22: undeclared reference to 'major' (in container '')\n | semver('1.2.3').major() == 1\n | .....................^"],
    ["isSemver(self.v) && semver(self.v).isGreaterThan(semver('1.27.0'))",
      "compilation failed: ERROR: <input>:1:9: undeclared reference to 'isSemver' (in container '')\n | isSemver(self.v) && semver(self.v).isGreaterThan(semver('1.27.0'))\n | ........^\n"
      + "ERROR: <input>:1:27: undeclared reference to 'semver' (in container '')\n | isSemver(self.v) && semver(self.v).isGreaterThan(semver('1.27.0'))\n | ..........................^\n"
      + "ERROR: <input>:1:56: undeclared reference to 'semver' (in container '')\n | isSemver(self.v) && semver(self.v).isGreaterThan(semver('1.27.0'))\n | .......................................................^"],
    ["semver('1.2.3') . minor ( ) == 2",
      "compilation failed: ERROR: <input>:1:7: undeclared reference to 'semver' (in container '')\n | semver('1.2.3') . minor ( ) == 2\n | ......^\n"
      + "ERROR: <input>:1:25: undeclared reference to 'minor' (in container '')\n | semver('1.2.3') . minor ( ) == 2\n | ........................^"],
  ];
  for (const [expr, refused] of semverOnlyStored) {
    it(`refuses ${expr} as a new expression and runs it as a stored one`, async () => {
      const fresh = compile(expr, decls, ['bool'], undefined, 'new');
      assert.deepEqual(fresh.ok ? 'accepted' : fresh.detail, refused);
      const stored = compile(expr, decls, ['bool'], undefined, 'stored');
      assert.ok(stored.ok, stored.ok ? '' : stored.detail);
      assert.deepEqual(await evaluate(stored.program, { self: toCel({ v: '1.28.0' }) }), { value: true });
    });
  }

  it('keeps the prefix of the field it compiles for', () => {
    const c = compile("'v' + string(semver('1.0.0').patch())", decls, ['string'], 'messageExpression compilation failed: ', 'new');
    assert.equal(c.ok ? '' : c.detail.split('\n')[0], "messageExpression compilation failed: ERROR: <input>:1:20: undeclared reference to 'semver' (in container '')");
  });
});
