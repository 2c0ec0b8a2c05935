import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addQuantity, canonicalQuantity, compareQuantity, formatQuantity, milliValue, parseQuantity, QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR, unitValue,
} from './quantity.js';

test('canonical forms match Quantity.String()', () => {
  const cases: [string | number, string][] = [
    ['100m', '100m'], ['1.5', '1500m'], ['0.1', '100m'], ['2000m', '2'], ['1000', '1k'], ['1500', '1500'],
    ['1Gi', '1Gi'], ['1024Mi', '1Gi'], ['1536Mi', '1536Mi'], ['2048Ki', '2Mi'], ['0.5Gi', '512Mi'], ['100Ki', '100Ki'],
    ['1Ki', '1Ki'], ['512', '512'], ['0.1Ki', '102400m'], ['2e3', '2e3'], ['1.5e3', '1500'], ['1E6', '1e6'],
    ['0', '0'], ['-1', '-1'], ['-100m', '-100m'], ['1n', '1n'], ['0.5n', '1n'], [1, '1'], [0.25, '250m'],
    ['+3', '3'], ['1M', '1M'], ['1000k', '1M'], ['12e-3', '12e-3'], ['.5', '500m'], ['5.', '5'],
  ];
  for (const [input, want] of cases) assert.equal(canonicalQuantity(input), want, `canonical(${input})`);
});

test('values in milli-units and whole units round up', () => {
  const cases: [string, number, number][] = [
    ['100m', 100, 1], ['1.5', 1500, 2], ['1Gi', 1073741824000, 1073741824], ['1n', 1, 1], ['2', 2000, 2], ['0', 0, 0],
  ];
  for (const [s, milli, units] of cases) {
    assert.equal(milliValue(parseQuantity(s)), milli, `milli(${s})`);
    assert.equal(unitValue(parseQuantity(s)), units, `units(${s})`);
  }
});

test('malformed quantities give kube errors', () => {
  const cases: [string, string][] = [
    ['', QUANTITY_FORMAT_ERROR], ['abc', QUANTITY_FORMAT_ERROR], ['1 Gi', QUANTITY_FORMAT_ERROR], ['.', QUANTITY_FORMAT_ERROR],
    ['1.2.3', QUANTITY_FORMAT_ERROR], ['1K', QUANTITY_SUFFIX_ERROR], ['1e', QUANTITY_SUFFIX_ERROR], ['1Gb', QUANTITY_FORMAT_ERROR],
    ['1mi', QUANTITY_SUFFIX_ERROR],
  ];
  for (const [s, msg] of cases) assert.throws(() => parseQuantity(s), { message: msg }, `parse(${JSON.stringify(s)})`);
});

test('compare and add across formats', () => {
  assert.equal(compareQuantity(parseQuantity('1'), parseQuantity('1000m')), 0);
  assert.equal(compareQuantity(parseQuantity('500m'), parseQuantity('1')), -1);
  assert.equal(compareQuantity(parseQuantity('1Gi'), parseQuantity('1G')), 1);
  assert.equal(formatQuantity(addQuantity(parseQuantity('1Gi'), parseQuantity('512Mi'))), '1536Mi');
  assert.equal(formatQuantity(addQuantity(parseQuantity('250m'), parseQuantity('750m'))), '1');
});
