// Builds API URL paths the way client-go's REST client does: /api/v1/... for core, /apis/<group>/<version>/... otherwise.

import type { ResourceType } from './interfaces.js';

export function collectionPath(rt: ResourceType, namespace?: string): string {
  const base = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
  const ns = rt.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${rt.resource}`;
}

export function objectPath(rt: ResourceType, namespace: string | undefined, name: string, subresource?: string): string {
  return `${collectionPath(rt, namespace)}/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}`;
}
