// The Table metrics-server prints for NodeMetrics and PodMetrics (pkg/api/table.go): Name, one quantity column per
// resource (cpu, memory), Window; a pod's row sums its containers.

import { formatQuantity, parseQuantity } from '../../api/quantity.js';
import type { KubeObject } from '../../api/types.js';
import type { ServerRequest } from '../interfaces.js';

/** Sum of a pod's container usage, or a node's usage. */
function usageOf(o: KubeObject): { cpu: string; memory: string } {
  if (o.usage) return o.usage as { cpu: string; memory: string };
  const cs = (o.containers as { usage: { cpu: string; memory: string } }[]) ?? [];
  return sumUsage(cs.map((c) => c.usage));
}

function sumUsage(list: { cpu: string; memory: string }[]): { cpu: string; memory: string } {
  let cpu = 0n;
  let memory = 0n;
  for (const u of list) {
    cpu += parseQuantity(u.cpu).nano;
    memory += parseQuantity(u.memory).nano;
  }
  return { cpu: formatQuantity({ nano: cpu, format: 'DecimalSI' }), memory: formatQuantity({ nano: memory, format: 'BinarySI' }) };
}

/** metrics-server's table (pkg/api/table.go): Name, one quantity column per resource, Window. */
export function metricsTable(items: KubeObject[], tableVersion: string, req: ServerRequest): object {
  const include = (Array.isArray(req.query?.includeObject) ? req.query?.includeObject[0] : req.query?.includeObject) ?? 'Metadata';
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${tableVersion}`,
    metadata: {},
    columnDefinitions: items.length ? [
      { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
      { name: 'cpu', type: 'string', format: 'quantity', description: '', priority: 0 },
      { name: 'memory', type: 'string', format: 'quantity', description: '', priority: 0 },
      { name: 'Window', type: 'string', format: 'duration', description: '', priority: 0 },
    ] : [],
    rows: items.map((o) => {
      const u = usageOf(o);
      const row: Record<string, unknown> = { cells: [o.metadata.name, u.cpu, u.memory, o.window] };
      if (include === 'Object') row.object = o;
      else if (include !== 'None') row.object = { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${tableVersion}`, metadata: o.metadata };
      return row;
    }),
  };
}
