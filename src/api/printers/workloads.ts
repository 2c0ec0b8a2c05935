// Table printing for apps/v1 workloads: Deployments, ReplicaSets, StatefulSets and DaemonSets.

import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, column, layoutContainerCells } from './columns.js';
import { translateTimestampSince } from './duration.js';
import { formatLabelSelector, formatLabels, selectorString } from './selector-string.js';

// spec.replicas defaults to 1 in apps/v1 (SetDefaults_Deployment/ReplicaSet/StatefulSet), applied on decode.
const DEFAULT_REPLICAS = 1;

/** printers.go printDeployment: the selector via LabelSelectorAsSelector().String(), `<invalid>` on error. */
function deploymentRow(obj: KubeObject, now: number): TableCell[] {
  const d = obj as unknown as Deployment;
  const [names, images] = layoutContainerCells(d.spec?.template?.spec?.containers);
  const sel = selectorString(d.spec?.selector);
  return [
    d.metadata?.name ?? '',
    `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? DEFAULT_REPLICAS}`,
    d.status?.updatedReplicas ?? 0,
    d.status?.availableReplicas ?? 0,
    translateTimestampSince(d.metadata?.creationTimestamp, now),
    names,
    images,
    sel instanceof Error ? '<invalid>' : sel,
  ];
}

function replicaSetRow(obj: KubeObject, now: number): TableCell[] {
  const rs = obj as unknown as ReplicaSet;
  const [names, images] = layoutContainerCells(rs.spec?.template?.spec?.containers);
  return [
    rs.metadata?.name ?? '',
    rs.spec?.replicas ?? DEFAULT_REPLICAS,
    rs.status?.replicas ?? 0,
    rs.status?.readyReplicas ?? 0,
    translateTimestampSince(rs.metadata?.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(rs.spec?.selector),
  ];
}

function statefulSetRow(obj: KubeObject, now: number): TableCell[] {
  const ss = obj as unknown as StatefulSet;
  const [names, images] = layoutContainerCells(ss.spec?.template?.spec?.containers);
  return [
    ss.metadata?.name ?? '',
    `${ss.status?.readyReplicas ?? 0}/${ss.spec?.replicas ?? DEFAULT_REPLICAS}`,
    translateTimestampSince(ss.metadata?.creationTimestamp, now),
    names,
    images,
  ];
}

function daemonSetRow(obj: KubeObject, now: number): TableCell[] {
  const ds = obj as unknown as DaemonSet;
  const st = ds.status;
  const [names, images] = layoutContainerCells(ds.spec?.template?.spec?.containers);
  return [
    ds.metadata?.name ?? '',
    st?.desiredNumberScheduled ?? 0,
    st?.currentNumberScheduled ?? 0,
    st?.numberReady ?? 0,
    st?.updatedNumberScheduled ?? 0,
    st?.numberAvailable ?? 0,
    formatLabels(ds.spec?.template?.spec?.nodeSelector),
    translateTimestampSince(ds.metadata?.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(ds.spec?.selector),
  ];
}

const SELECTOR_COLUMN = column('Selector', 'string', 'Label selector of the pods the controller owns.', true);

export const DEPLOYMENT_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Ready pods out of desired replicas.'),
    column('Up-to-date', 'string', 'Pods that run the current pod template.'),
    column('Available', 'string', 'Pods available for at least minReadySeconds.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  row: deploymentRow,
};

export const REPLICA_SET_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'Desired number of replicas (spec.replicas).'),
    column('Current', 'integer', 'Pods the replica set currently owns (status.replicas).'),
    column('Ready', 'integer', 'Pods that are ready (status.readyReplicas).'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  row: replicaSetRow,
};

export const STATEFUL_SET_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Ready', 'string', 'Ready pods out of desired replicas.'), AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  row: statefulSetRow,
};

export const DAEMON_SET_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'Nodes that should run the daemon pod.'),
    column('Current', 'integer', 'Nodes that run at least one daemon pod.'),
    column('Ready', 'integer', 'Nodes whose daemon pod is ready.'),
    column('Up-to-date', 'integer', 'Nodes that run the current pod template.'),
    column('Available', 'integer', 'Nodes whose daemon pod is available.'),
    column('Node Selector', 'string', 'The node selector of the pod template.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  row: daemonSetRow,
};
