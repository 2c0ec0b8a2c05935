// Shared column definitions and cell helpers for the printers (pkg/printers/internalversion/printers.go).

import type { TableColumn } from '../interfaces.js';

/** The Name column every printer starts with; `format: 'name'` lets kubectl add the `kind/` prefix. */
export const NAME_COLUMN: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name is unique within a namespace and identifies the object.',
  priority: 0,
};

export const AGE_COLUMN: TableColumn = {
  name: 'Age',
  type: 'string',
  description: 'Time since the object was created (metadata.creationTimestamp).',
  priority: 0,
};

/** A column with kube's name and type; `wide` marks priority 1 (shown only with -o wide). */
export function column(name: string, type: TableColumn['type'], description: string, wide = false): TableColumn {
  return { name, type, description, priority: wide ? 1 : 0 };
}

/** The wide Containers/Images pair of the workload printers. */
export const CONTAINERS_COLUMN = column('Containers', 'string', 'Names of each container in the template.', true);
export const IMAGES_COLUMN = column('Images', 'string', 'Images referenced by each container in the template.', true);

/** printers.go layoutContainerCells: names and images, comma-joined, in spec order. */
export function layoutContainerCells(containers: { name: string; image?: string }[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}

/** printers.go listWithMoreString: up to `max` items, then ` + N more...`; `<unset>` when empty. */
export function listWithMore(items: string[], max = 3): string {
  if (items.length > max) return `${items.slice(0, max).join(',')} + ${items.length - max} more...`;
  return items.length === 0 ? '<unset>' : items.join(',');
}

/** net.JoinHostPort: brackets around IPv6 literals. */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
