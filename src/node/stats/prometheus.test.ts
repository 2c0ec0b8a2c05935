import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFamilies, formatFloat, parseText } from './prometheus.js';

test("formatFloat: Go's strconv.FormatFloat(v, 'g', -1, 64)", () => {
  const cases: [number, string][] = [
    [0, '0'],
    [1, '1'],
    [0.195744, '0.195744'],
    [123456, '123456'],
    [1234567, '1.234567e+06'],
    [8577024, '8.577024e+06'],
    [574291968, '5.74291968e+08'],
    [1.6922661e9, '1.6922661e+09'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1e21, '1e+21'],
    [-2.5, '-2.5'],
    [Infinity, '+Inf'],
    [NaN, 'NaN'],
  ];
  for (const [v, want] of cases) assert.equal(formatFloat(v), want, String(v));
});

test('formatFamilies: sorted families and samples, sorted and escaped labels, timestamps, empty families left out', () => {
  const text = formatFamilies([
    { name: 'zeta', help: 'Last.', type: 'gauge', samples: [{ value: 1 }] },
    { name: 'empty', help: 'Nothing.', type: 'gauge', samples: [] },
    {
      name: 'alpha_total', help: 'Has a \\ backslash\nand a newline.', type: 'counter',
      samples: [
        { labels: { pod: 'b', namespace: 'x' }, value: 2, timestampMs: 1700000000123 },
        { labels: { pod: 'a"q', namespace: 'x' }, value: 1.5, timestampMs: 1700000000123 },
      ],
    },
  ]);
  assert.equal(text, [
    '# HELP alpha_total Has a \\\\ backslash\\nand a newline.',
    '# TYPE alpha_total counter',
    'alpha_total{namespace="x",pod="a\\"q"} 1.5 1700000000123',
    'alpha_total{namespace="x",pod="b"} 2 1700000000123',
    '# HELP zeta Last.',
    '# TYPE zeta gauge',
    'zeta 1',
    '',
  ].join('\n'));
  assert.deepEqual(parseText(text).map((s) => [s.name, s.labels.pod ?? '', s.value, s.timestampMs]), [
    ['alpha_total', 'a"q', 1.5, 1700000000123],
    ['alpha_total', 'b', 2, 1700000000123],
    ['zeta', '', 1, undefined],
  ]);
});
