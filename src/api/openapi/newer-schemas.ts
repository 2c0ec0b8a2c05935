// Definitions the generated schemas lack: networking.k8s.io/v1 ServiceCIDR and IPAddress went GA in 1.33 with the
// fields of their v1alpha1 types (k8s.io/api v0.33 networking/v1/types.go), so they are the v1alpha1 definitions under
// v1 names; plus the `+listType` markers server-side apply reads from them and from ObjectMeta.finalizers (a set
// since k8s.io/apimachinery v0.30 meta/v1/types.go), which kube-openapi turns into x-kubernetes-list-type.

import type { Schema } from './schemas.js';

const REF = '#/components/schemas/';
const FROM = 'io.k8s.api.networking.v1alpha1.';
const TO = 'io.k8s.api.networking.v1.';
const PROMOTED = ['ServiceCIDR', 'ServiceCIDRList', 'ServiceCIDRSpec', 'ServiceCIDRStatus', 'IPAddress', 'IPAddressList', 'IPAddressSpec', 'ParentReference'];

/** `+listType` (and `+listMapKey`) markers by definition, then JSON field name. */
const LIST_TYPES: Record<string, Record<string, { type: 'atomic' | 'set' | 'map'; keys?: string[] }>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { finalizers: { type: 'set' } },
  'io.k8s.api.networking.v1.ServiceCIDRSpec': { cidrs: { type: 'atomic' } },
  'io.k8s.api.networking.v1.ServiceCIDRStatus': { conditions: { type: 'map', keys: ['type'] } },
};

/** A copy of `s` whose references into the v1alpha1 package point at v1, with v1 group-version-kinds. */
function promote(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(promote);
  if (!s || typeof s !== 'object') return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(`${REF}${FROM}`)) out[k] = `${REF}${TO}${v.slice(REF.length + FROM.length)}`;
    else if (k === 'x-kubernetes-group-version-kind' && Array.isArray(v)) out[k] = v.map((g: Record<string, unknown>) => ({ ...g, version: 'v1' }));
    else out[k] = promote(v);
  }
  return out;
}

/** Adds the missing definitions and list-type markers to `schemas` in place (run once, when they are loaded). */
export function addNewerSchemas(schemas: Record<string, Schema>): void {
  for (const name of PROMOTED) {
    if (!schemas[`${TO}${name}`] && schemas[`${FROM}${name}`]) schemas[`${TO}${name}`] = promote(schemas[`${FROM}${name}`]) as Schema;
  }
  for (const [def, fields] of Object.entries(LIST_TYPES)) {
    const props = schemas[def]?.properties as Record<string, Schema> | undefined;
    for (const [field, lt] of Object.entries(fields)) {
      const prop = props?.[field];
      if (!prop) continue;
      prop['x-kubernetes-list-type'] = lt.type;
      if (lt.keys) prop['x-kubernetes-list-map-keys'] = lt.keys;
    }
  }
}
