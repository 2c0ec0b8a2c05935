// The stored form of an allocation bitmap: a v1 RangeAllocation (`range` plus the bitmap as base64 `data`) at
// kube's keys (pkg/apis/core types.go RangeAllocation; pkg/registry/core/rangeallocation; controlplane storage).

import type { AllocationBitmap } from './bitmap.js';

/** Where kube-apiserver keeps the Service ClusterIP bitmaps (primary and secondary range) and the NodePort bitmap. */
export const SERVICE_IPS_KEY = '/registry/ranges/serviceips';
/** The second service CIDR's bitmap, by position not family (controlplane storage: /ranges/secondaryserviceips). */
export const SECONDARY_SERVICE_IPS_KEY = '/registry/ranges/secondaryserviceips';
export const SERVICE_NODE_PORTS_KEY = '/registry/ranges/servicenodeports';

export interface RangeAllocation {
  kind: 'RangeAllocation';
  apiVersion: 'v1';
  metadata: { creationTimestamp: null };
  /** The range the bitmap covers, e.g. `10.96.0.0/12` or `30000-32767`. */
  range: string;
  /** The bitmap (big.Int bytes), base64 as Go encodes a []byte in JSON. */
  data: string;
}

export function encodeRangeAllocation(bitmap: AllocationBitmap): string {
  const bytes = bitmap.toBytes();
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  // The same text JSON.stringify gives for a RangeAllocation, built by hand: base64 needs no escaping, and
  // stringify's scan of a /12's 175 KB of it cost more than everything else in an allocation together.
  return `{"kind":"RangeAllocation","apiVersion":"v1","metadata":{"creationTimestamp":null},"range":${JSON.stringify(bitmap.rangeSpec)},"data":"${data}"}`;
}

/** Parses a stored value; throws on anything that is not a RangeAllocation. */
export function decodeRangeAllocation(value: string): { range: string; data: Uint8Array } {
  const obj = JSON.parse(value) as Partial<RangeAllocation> | null;
  if (!obj || typeof obj !== 'object' || obj.kind !== 'RangeAllocation' || typeof obj.range !== 'string') {
    throw new Error('stored value is not a RangeAllocation');
  }
  const data = typeof obj.data === 'string' ? Buffer.from(obj.data, 'base64') : Buffer.alloc(0);
  return { range: obj.range, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/**
 * The stored bitmap loaded into a copy of `blank`; undefined when it covers another range (the service CIDR or
 * NodePort range was reconfigured: the repair pass rewrites it for the new range).
 */
export function loadRangeAllocation(value: string, blank: AllocationBitmap): AllocationBitmap | undefined {
  const { range, data } = decodeRangeAllocation(value);
  if (range !== blank.rangeSpec) return undefined;
  const bm = blank.blank();
  bm.loadBytes(data);
  return bm;
}
