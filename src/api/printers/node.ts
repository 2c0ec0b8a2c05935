// Table printing for nodes: Ready/NotReady/Unknown status, SchedulingDisabled, roles from labels, and node info columns.

import type { Node } from 'kubernetes-types/core/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

// printers.go labelNodeRolePrefix and nodeLabelRole.
const ROLE_PREFIX = 'node-role.kubernetes.io/';
const ROLE_LABEL = 'kubernetes.io/role';

/** printers.go printNode: only the Ready condition decides; a missing one prints Unknown. */
export function nodeStatus(node: Node): string {
  const status: string[] = [];
  // conditionMap keeps the last condition of a type.
  const readyConds = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready');
  const ready = readyConds[readyConds.length - 1];
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  else status.push('Unknown');
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** printers.go findNodeRoles: sorted, de-duplicated; `<none>` when there are none. */
export function nodeRoles(node: Node): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith(ROLE_PREFIX)) {
      const role = k.slice(ROLE_PREFIX.length);
      if (role.length > 0) roles.add(role);
    } else if (k === ROLE_LABEL && v !== '') {
      roles.add(v);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function address(node: Node, type: string): string {
  return (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
}

function nodeRow(obj: KubeObject, now: number): TableCell[] {
  const node = obj as unknown as Node;
  const info = node.status?.nodeInfo;
  return [
    node.metadata?.name ?? '',
    nodeStatus(node),
    nodeRoles(node),
    translateTimestampSince(node.metadata?.creationTimestamp, now),
    info?.kubeletVersion ?? '',
    address(node, 'InternalIP'),
    address(node, 'ExternalIP'),
    info?.osImage || '<unknown>',
    info?.kernelVersion || '<unknown>',
    info?.containerRuntimeVersion || '<unknown>',
  ];
}

export const NODE_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    AGE_COLUMN,
    column('Version', 'string', 'Kubelet version reported by the node.'),
    column('Internal-IP', 'string', 'First InternalIP address of the node.', true),
    column('External-IP', 'string', 'First ExternalIP address of the node.', true),
    column('OS-Image', 'string', 'OS image reported by the node (e.g. Windows Server 2022 Datacenter).', true),
    column('Kernel-Version', 'string', 'Kernel version reported by the node.', true),
    column('Container-Runtime', 'string', 'Container runtime name and version (e.g. containerd://1.7.0).', true),
  ],
  row: nodeRow,
};
