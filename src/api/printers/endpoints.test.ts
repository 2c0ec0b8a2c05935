import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Endpoints } from 'kubernetes-types/core/v1.js';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1.js';
import type { KubeObject } from '../types.js';
import { ENDPOINTS_TABLE, ENDPOINT_SLICE_TABLE, formatEndpoints, formatSliceEndpoints, formatSlicePorts } from './endpoints.js';

const ips = (...list: string[]) => list.map((ip) => ({ ip }));

describe('formatEndpoints', () => {
  const cases: [string, Endpoints['subsets'], string][] = [
    ['no subsets', undefined, '<none>'],
    ['one address', [{ addresses: ips('10.0.0.1'), ports: [{ port: 80 }] }], '10.0.0.1:80'],
    ['two addresses', [{ addresses: ips('10.0.0.1', '10.0.0.2'), ports: [{ port: 80 }] }], '10.0.0.1:80,10.0.0.2:80'],
    [
      'more than three',
      [{ addresses: ips('10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5'), ports: [{ port: 80 }] }],
      '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 2 more...',
    ],
    [
      'every port of every address counts',
      [{ addresses: ips('10.0.0.1', '10.0.0.2'), ports: [{ port: 80 }, { port: 443 }] }],
      '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...',
    ],
    ['headless without ports', [{ addresses: ips('10.0.0.1', '10.0.0.2') }], '10.0.0.1,10.0.0.2'],
    [
      'several subsets',
      [
        { addresses: ips('10.0.0.1'), ports: [{ port: 80 }] },
        { addresses: ips('10.0.1.1', '10.0.1.2', '10.0.1.3'), ports: [{ port: 8080 }] },
      ],
      '10.0.0.1:80,10.0.1.1:8080,10.0.1.2:8080 + 1 more...',
    ],
    ['IPv6 brackets', [{ addresses: ips('fd00::1'), ports: [{ port: 80 }] }], '[fd00::1]:80'],
    ['only not-ready addresses', [{ notReadyAddresses: ips('10.0.0.1'), ports: [{ port: 80 }] }], ''],
  ];
  for (const [name, subsets, want] of cases) {
    it(name, () => assert.equal(formatEndpoints({ metadata: { name: 'e' }, ...(subsets ? { subsets } : {}) }), want));
  }
});

describe('endpoint slices', () => {
  const slice = (ports: EndpointSlice['ports'], addrs: string[][]): EndpointSlice => ({
    metadata: { name: 's-abc', creationTimestamp: '2026-01-01T00:00:00Z' },
    addressType: 'IPv4',
    ports,
    endpoints: addrs.map((addresses) => ({ addresses })),
  });
  const portCases: [string, EndpointSlice['ports'], string][] = [
    ['none', undefined, '<unset>'],
    ['numbers', [{ port: 80 }, { port: 443 }], '80,443'],
    ['name when no number', [{ name: 'http' }], 'http'],
    ['star when neither', [{}], '*'],
    ['more', [{ port: 1 }, { port: 2 }, { port: 3 }, { port: 4 }], '1,2,3 + 1 more...'],
  ];
  for (const [name, ports, want] of portCases) {
    it(`ports: ${name}`, () => assert.equal(formatSlicePorts(slice(ports, [])), want));
  }
  const endpointCases: [string, string[][], string][] = [
    ['none', [], '<unset>'],
    ['flattened', [['10.0.0.1'], ['10.0.0.2', '10.0.0.3']], '10.0.0.1,10.0.0.2,10.0.0.3'],
    ['more', [['1.1.1.1'], ['2.2.2.2'], ['3.3.3.3'], ['4.4.4.4'], ['5.5.5.5']], '1.1.1.1,2.2.2.2,3.3.3.3 + 2 more...'],
  ];
  for (const [name, addrs, want] of endpointCases) {
    it(`endpoints: ${name}`, () => assert.equal(formatSliceEndpoints(slice([], addrs)), want));
  }

  it('rows line up with columns', () => {
    const now = Date.parse('2026-01-01T00:00:30Z');
    const row = ENDPOINT_SLICE_TABLE.row(slice([{ port: 80 }], [['10.0.0.1']]) as unknown as KubeObject, now);
    assert.deepEqual(row, ['s-abc', 'IPv4', '80', '10.0.0.1', '30s']);
    assert.equal(row.length, ENDPOINT_SLICE_TABLE.columns.length);
    const ep = ENDPOINTS_TABLE.row({ metadata: { name: 'e', creationTimestamp: '2026-01-01T00:00:00Z' } } as KubeObject, now);
    assert.deepEqual(ep, ['e', '<none>', '30s']);
  });
});
