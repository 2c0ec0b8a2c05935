// Table printing for core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlices.

import type { Endpoints } from 'kubernetes-types/core/v1.js';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column, joinHostPort, listWithMore } from './columns.js';
import { translateTimestampSince } from './duration.js';

/**
 * printers.go formatEndpoints (all ports): `ip:port` per address and port, the first three shown,
 * then ` + N more...`; subsets without ports list bare IPs (headless services).
 */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(a.ip);
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(joinHostPort(a.ip, port.port));
      }
    }
  }
  const joined = list.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

/** printers.go formatDiscoveryPorts: the port number, else its name, else `*`. */
export function formatSlicePorts(slice: EndpointSlice): string {
  return listWithMore((slice.ports ?? []).map((p) => (p.port != null ? String(p.port) : p.name != null ? p.name : '*')));
}

/** printers.go formatDiscoveryEndpoints: every address of every endpoint. */
export function formatSliceEndpoints(slice: EndpointSlice): string {
  return listWithMore((slice.endpoints ?? []).flatMap((e) => e.addresses ?? []));
}

function endpointsRow(obj: KubeObject, now: number): TableCell[] {
  const ep = obj as unknown as Endpoints;
  return [ep.metadata?.name ?? '', formatEndpoints(ep), translateTimestampSince(ep.metadata?.creationTimestamp, now)];
}

function sliceRow(obj: KubeObject, now: number): TableCell[] {
  const slice = obj as unknown as EndpointSlice;
  return [
    slice.metadata?.name ?? '',
    slice.addressType ?? '',
    formatSlicePorts(slice),
    formatSliceEndpoints(slice),
    translateTimestampSince(slice.metadata?.creationTimestamp, now),
  ];
}

export const ENDPOINTS_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Endpoints', 'string', 'Ready addresses and ports of the service backends.'), AGE_COLUMN],
  row: endpointsRow,
};

export const ENDPOINT_SLICE_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('AddressType', 'string', 'The address family of the slice: IPv4, IPv6 or FQDN.'),
    column('Ports', 'string', 'Ports exposed by the endpoints in the slice.'),
    column('Endpoints', 'string', 'Addresses of the endpoints in the slice.'),
    AGE_COLUMN,
  ],
  row: sliceRow,
};
