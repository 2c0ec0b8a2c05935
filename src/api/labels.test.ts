import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLabelSelector, labelSelectorAsSelector, parseSelector, validateLabelSelector } from './labels.js';

const QN_ERR = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

test('parses and prints selectors sorted by key', () => {
  const cases: [string, string][] = [
    ['a=b,c!=d,e in (y,x),f notin (z),g,!h', 'a=b,c!=d,e in (x,y),f notin (z),g,!h'],
    ['z=1,a==2', 'a==2,z=1'],
    ['  env  in  ( prod , dev ) ', 'env in (dev,prod)'],
    ['x>5,y<3', 'x>5,y<3'],
    ['a=', 'a='],
    ['a in (),b', 'a in (),b'],
    ['', ''],
    ['example.com/tier=web', 'example.com/tier=web'],
  ];
  for (const [input, want] of cases) assert.equal(parseSelector(input).toString(), want, input);
});

test('matches label sets', () => {
  const labels = { app: 'web', tier: 'front', n: '7' };
  const cases: [string, boolean][] = [
    ['app=web', true], ['app!=web', false], ['app in (web,db)', true], ['app notin (web)', false], ['missing!=x', true],
    ['missing notin (x)', true], ['app', true], ['!app', false], ['!missing', true], ['n>5', true], ['n<5', false],
    ['app=web,tier=back', false], ['', true], ['missing', false],
  ];
  for (const [sel, want] of cases) assert.equal(parseSelector(sel).matches(labels), want, sel);
});

test('parse errors carry kube messages', () => {
  const cases: [string, string][] = [
    ['a=b,', "found '', expected: identifier after ','"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['=b', "found '=', expected: !, identifier, or 'end of string'"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a b=c', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['A B=c', "unable to parse requirement: found 'B', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['x>a', "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['-a=b', `unable to parse requirement: <nil>: Invalid value: "-a": ${QN_ERR}`],
    ['a=-b', 'unable to parse requirement: values[0][a]: Invalid value: "-b": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')'],
  ];
  for (const [input, msg] of cases) assert.throws(() => parseSelector(input), { message: msg }, input);
});

test('LabelSelector objects: nil selects nothing, empty selects everything', () => {
  assert.equal(labelSelectorAsSelector(undefined).matches({ a: 'b' }), false);
  assert.equal(labelSelectorAsSelector({}).matches({ a: 'b' }), true);
  const s = labelSelectorAsSelector({ matchLabels: { app: 'x' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] });
  assert.equal(s.toString(), 'app=x,tier notin (db)');
  assert.equal(s.matches({ app: 'x', tier: 'web' }), true);
  assert.equal(s.matches({ app: 'x', tier: 'db' }), false);
  assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }), { message: '"Foo" is not a valid label selector operator' });
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector({ matchLabels: { b: '2', a: '1' } }), 'a=1,b=2');
});

test('validateLabelSelector paths and messages', () => {
  const errs = validateLabelSelector({
    matchLabels: { 'bad key!': 'v' },
    matchExpressions: [
      { key: 'a', operator: 'In' },
      { key: 'b', operator: 'Exists', values: ['x'] },
      { key: 'c', operator: 'Near', values: ['-'] },
    ],
  }, 'spec.selector').map(String);
  assert.deepEqual(errs, [
    `spec.selector.matchLabels: Invalid value: "bad key!": ${QN_ERR}`,
    "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    'spec.selector.matchExpressions[2].operator: Invalid value: "Near": not a valid selector operator',
    'spec.selector.matchExpressions[2].values[0]: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
  ]);
});

test('a selector matches `labels: null` as no labels (a stored object may hold the JSON null)', () => {
  assert.equal(parseSelector('a').matches(null as unknown as undefined), false);
  assert.equal(parseSelector('!a').matches(null as unknown as undefined), true);
  assert.equal(parseSelector('a!=b').matches(null as unknown as undefined), true);
});
