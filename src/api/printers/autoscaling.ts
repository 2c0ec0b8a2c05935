// Table printing for HorizontalPodAutoscalers and ReplicationControllers
// (pkg/printers/internalversion/printers.go printHorizontalPodAutoscaler, formatHPAMetrics, printReplicationController).
// Server-side printing, so the API server's release decides the TARGETS format: from v1.30 (kubernetes#122804) a
// Resource or ContainerResource metric is prefixed with its resource name (`cpu: 40%/50%`); winkube serves v1.33.

import type { ReplicationController } from 'kubernetes-types/core/v1.js';
import { hpaV1ToV2, isHpaV1 } from '../conversions/autoscaling.js';
import type { TableCell, TableDef } from '../interfaces.js';
import { canonicalQuantity } from '../quantity.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, column, layoutContainerCells } from './columns.js';
import { translateTimestampSince } from './duration.js';
import { formatLabels } from './selector-string.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const UNKNOWN = '<unknown>';
/** formatHPAMetrics shows at most this many metrics, then ` + N more...`. */
const MAX_SHOWN = 2;

const q = (v: unknown): string => {
  if (v === undefined || v === null) return UNKNOWN;
  try {
    return canonicalQuantity(v as string);
  } catch {
    return String(v);
  }
};

function valueOrAverage(target: Json | undefined, current: Json | undefined): string {
  if (target?.averageValue != null) return `${current?.averageValue != null ? q(current.averageValue) : UNKNOWN}/${q(target.averageValue)} (avg)`;
  return `${current?.value != null ? q(current.value) : UNKNOWN}/${q(target?.value)}`;
}

function resourceCell(name: string, target: Json | undefined, current: Json | undefined): string {
  if (target?.averageValue != null) {
    return `${name}: ${current?.averageValue != null ? q(current.averageValue) : UNKNOWN}/${q(target.averageValue)}`;
  }
  const now = current?.averageUtilization != null ? `${current.averageUtilization}%` : UNKNOWN;
  const want = target?.averageUtilization != null ? `${target.averageUtilization}%` : '<auto>';
  return `${name}: ${now}/${want}`;
}

/** formatHPAMetrics: one `current/target` per metric spec, matched to the status by position. */
export function formatHpaMetrics(specs: Json[] | undefined, statuses: Json[] | undefined): string {
  if (!specs?.length) return '<none>';
  const list = specs.map((spec, i) => {
    const st = statuses?.[i];
    switch (spec.type) {
      case 'External':
        return valueOrAverage(spec.external?.target, st?.external?.current);
      case 'Pods':
        return `${st?.pods?.current?.averageValue != null ? q(st.pods.current.averageValue) : UNKNOWN}/${q(spec.pods?.target?.averageValue)}`;
      case 'Object':
        return valueOrAverage(spec.object?.target, st?.object?.current);
      case 'Resource':
        return resourceCell(spec.resource?.name ?? '', spec.resource?.target, st?.resource?.current);
      case 'ContainerResource':
        // Only the resource name, not the container: printers.go prints ContainerResource.Name as for Resource.
        return resourceCell(spec.containerResource?.name ?? '', spec.containerResource?.target, st?.containerResource?.current);
      default:
        return '<unknown type>';
    }
  });
  if (list.length > MAX_SHOWN) return `${list.slice(0, MAX_SHOWN).join(', ')} + ${list.length - MAX_SHOWN} more...`;
  return list.join(', ');
}

function hpaRow(obj: KubeObject, now: number): TableCell[] {
  const h = (isHpaV1(obj) ? hpaV1ToV2(obj) : obj) as Json;
  const ref = h.spec?.scaleTargetRef ?? {};
  return [
    h.metadata?.name ?? '',
    `${ref.kind ?? ''}/${ref.name ?? ''}`,
    formatHpaMetrics(h.spec?.metrics, h.status?.currentMetrics),
    h.spec?.minReplicas != null ? String(h.spec.minReplicas) : '<unset>',
    h.spec?.maxReplicas ?? 0,
    h.status?.currentReplicas ?? 0,
    translateTimestampSince(h.metadata?.creationTimestamp, now),
  ];
}

export const HPA_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Reference', 'string', 'reference to the target resource (scaleTargetRef).'),
    column('Targets', 'string', 'the current and target metrics of the autoscaler.'),
    column('MinPods', 'string', 'lower limit for the number of pods (spec.minReplicas).'),
    // kube declares these two `string` while their cells are integers.
    column('MaxPods', 'string', 'upper limit for the number of pods (spec.maxReplicas).'),
    column('Replicas', 'string', 'current number of replicas of pods managed by this autoscaler.'),
    AGE_COLUMN,
  ],
  row: hpaRow,
};

function rcRow(obj: KubeObject, now: number): TableCell[] {
  const rc = obj as unknown as ReplicationController;
  const [names, images] = layoutContainerCells(rc.spec?.template?.spec?.containers);
  return [
    rc.metadata?.name ?? '',
    rc.spec?.replicas ?? 1,
    rc.status?.replicas ?? 0,
    rc.status?.readyReplicas ?? 0,
    translateTimestampSince(rc.metadata?.creationTimestamp, now),
    names,
    images,
    formatLabels(rc.spec?.selector),
  ];
}

export const REPLICATION_CONTROLLER_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'Number of desired pods (spec.replicas).'),
    column('Current', 'integer', 'Number of pods the controller currently owns (status.replicas).'),
    column('Ready', 'integer', 'Number of ready pods (status.readyReplicas).'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', 'The label selector of the pods the controller manages.', true),
  ],
  row: rcRow,
};
