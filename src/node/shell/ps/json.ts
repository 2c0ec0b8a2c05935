// JSON text to PowerShell values: objects become PSCustomObjects (ConvertFrom-Json, Invoke-RestMethod).

import { PsObject, type PsValue } from './values.js';

export function fromJsonValue(x: unknown): PsValue {
  if (x === null || typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean') return x as PsValue;
  if (Array.isArray(x)) return x.map(fromJsonValue);
  const o = new PsObject();
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) o.setProp(k, fromJsonValue(v));
  return o;
}
