import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evalJsonPath, parseJsonPath } from './json-path.js';
import { crTable } from './printer-columns.js';

describe('printer columns', () => {
  const obj = {
    apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', creationTimestamp: '2024-01-01T00:00:00Z' },
    spec: { size: 3, tags: ['a', 'b'], ratio: 0.5 },
    status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Other', status: 'False' }] },
  };

  it('reads the JSONPath subset kube printer columns use', () => {
    assert.deepEqual(evalJsonPath(parseJsonPath('.spec.size'), obj), [3]);
    assert.deepEqual(evalJsonPath(parseJsonPath('.status.conditions[?(@.type=="Ready")].status'), obj), ['True']);
    assert.deepEqual(evalJsonPath(parseJsonPath('.spec.tags[*]'), obj), ['a', 'b']);
    assert.deepEqual(evalJsonPath(parseJsonPath('.spec.missing'), obj), []);
  });

  it('prints Name and Age when a version declares no columns', () => {
    const t = crTable(undefined);
    assert.deepEqual(t.columns.map((c) => c.name), ['Name', 'Age']);
    assert.deepEqual(t.row(obj, Date.parse('2024-01-01T00:05:00Z')), ['w', '5m']);
  });

  it('prints declared columns with their types', () => {
    const t = crTable([
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
      { name: 'Tags', type: 'string', jsonPath: '.spec.tags' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 1 },
      { name: 'Bad', type: 'integer', jsonPath: '.spec.tags' },
    ]);
    assert.deepEqual(t.columns.map((c) => [c.name, c.type, c.priority]), [['Name', 'string', 0], ['Size', 'integer', 0], ['Tags', 'string', 0], ['Ready', 'string', 1], ['Bad', 'integer', 0]]);
    assert.deepEqual(t.row(obj, 0), ['w', 3, '[a b]', 'True', null]);
  });
});
