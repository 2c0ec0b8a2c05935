import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { DEFAULT_TABLE, TABLES, tableFor } from './index.js';

describe('tableFor', () => {
  const cases: [string, string, string][] = [
    ['', 'pods', 'Ready'],
    ['apps', 'deployments', 'Up-to-date'],
    ['events.k8s.io', 'events', 'Last Seen'],
    ['', 'events', 'Last Seen'],
    ['discovery.k8s.io', 'endpointslices', 'AddressType'],
  ];
  for (const [group, plural, column] of cases) {
    it(`${group || 'core'}/${plural}`, () => assert.ok(tableFor(group, plural).columns.some((c) => c.name === column)));
  }
  it('falls back to the default table', () => {
    assert.equal(tableFor('', 'limitranges'), DEFAULT_TABLE);
    assert.equal(tableFor('example.com', 'widgets'), DEFAULT_TABLE);
    assert.equal(tableFor('', 'toString'), DEFAULT_TABLE);
    assert.equal(tableFor('', 'deployments'), DEFAULT_TABLE); // deployments live in apps
  });
});

describe('every printer', () => {
  // An object with nothing but metadata must still print one cell per column, never throw.
  for (const [key, table] of Object.entries(TABLES)) {
    it(`${key}: cells line up with columns on a bare object`, () => {
      const row = table.row({ metadata: { name: 'bare' } } as KubeObject, 0);
      assert.equal(row.length, table.columns.length);
      for (const cell of row) assert.ok(['string', 'number', 'boolean'].includes(typeof cell) || cell === null);
    });
    it(`${key}: one name column with format name, Name first unless events`, () => {
      // printers.go also marks VolumeAttachment's Attacher `format: name`; kubectl uses the first such column only.
      const named = table.columns.filter((c) => c.format === 'name' && !(key === 'storage.k8s.io/volumeattachments' && c.name === 'Attacher'));
      assert.equal(named.length, 1);
      assert.equal(named[0]!.name, 'Name');
      if (!key.endsWith('events')) assert.equal(table.columns[0], named[0]);
      for (const c of table.columns) assert.ok(c.description.length > 0, `${c.name} has a description`);
    });
  }
});

describe('DEFAULT_TABLE', () => {
  it('prints name and RFC 3339 creation time', () => {
    assert.deepEqual(DEFAULT_TABLE.columns.map((c) => [c.name, c.type, c.format ?? '']), [['Name', 'string', 'name'], ['Created At', 'date', '']]);
    assert.deepEqual(DEFAULT_TABLE.row({ metadata: { name: 'lr', creationTimestamp: '2026-01-01T00:00:00Z' } } as KubeObject, 0), ['lr', '2026-01-01T00:00:00Z']);
  });
  it('normalises to UTC seconds and prints Go zero time when absent', () => {
    assert.deepEqual(DEFAULT_TABLE.row({ metadata: { name: 'a', creationTimestamp: '2026-01-01T02:00:00.5+02:00' } } as KubeObject, 0), ['a', '2026-01-01T00:00:00Z']);
    assert.deepEqual(DEFAULT_TABLE.row({ metadata: { name: 'b' } } as KubeObject, 0), ['b', '0001-01-01T00:00:00Z']);
  });
});
