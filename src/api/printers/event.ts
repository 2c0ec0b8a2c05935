// Table printing for events, core/v1 and events.k8s.io/v1 (kube prints both from the same internal Event).

import type { Event as CoreEvent, EventSeries, EventSource, ObjectReference } from 'kubernetes-types/core/v1.js';
import type { Event as EventsV1Event } from 'kubernetes-types/events/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { column } from './columns.js';
import { parseTimestamp, translateTimestampSince } from './duration.js';

/** The fields printEvent reads, named as in the internal core Event. */
interface EventView {
  name: string;
  type?: string;
  reason?: string;
  message?: string;
  involvedObject?: ObjectReference;
  source?: EventSource;
  reportingController?: string;
  reportingInstance?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  count?: number;
  series?: EventSeries;
}

function fromCore(e: CoreEvent): EventView {
  return {
    name: e.metadata?.name ?? '',
    type: e.type,
    reason: e.reason,
    message: e.message,
    involvedObject: e.involvedObject,
    source: e.source,
    // core/v1 serialises ReportingController as `reportingComponent`.
    reportingController: e.reportingComponent,
    reportingInstance: e.reportingInstance,
    firstTimestamp: e.firstTimestamp,
    lastTimestamp: e.lastTimestamp,
    eventTime: e.eventTime,
    count: e.count,
    series: e.series,
  };
}

/** pkg/apis/events/v1 conversion: regarding → involvedObject, note → message, deprecated* → the old fields. */
function fromEventsV1(e: EventsV1Event): EventView {
  return {
    name: e.metadata?.name ?? '',
    type: e.type,
    reason: e.reason,
    message: e.note,
    involvedObject: e.regarding,
    source: e.deprecatedSource,
    reportingController: e.reportingController,
    reportingInstance: e.reportingInstance,
    firstTimestamp: e.deprecatedFirstTimestamp,
    lastTimestamp: e.deprecatedLastTimestamp,
    eventTime: e.eventTime,
    count: e.deprecatedCount,
    series: e.series,
  };
}

/** printers.go formatEventSource: component (or reportingController), then `, host` (or reportingInstance). */
function formatSource(ev: EventView): string {
  const component = ev.source?.component || ev.reportingController || '';
  const instance = ev.source?.host || ev.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

/** printers.go printEvent, always with the wide cells (the server prints wide). */
function eventCells(ev: EventView, now: number): TableCell[] {
  const firstSeen =
    parseTimestamp(ev.firstTimestamp) === undefined
      ? translateTimestampSince(ev.eventTime, now)
      : translateTimestampSince(ev.firstTimestamp, now);
  let lastSeen = parseTimestamp(ev.lastTimestamp) === undefined ? firstSeen : translateTimestampSince(ev.lastTimestamp, now);
  let count = ev.count ?? 0;
  if (ev.series) {
    lastSeen = translateTimestampSince(ev.series.lastObservedTime, now);
    count = ev.series.count ?? 0;
  } else if (count === 0) {
    count = 1; // singleton events of the new API carry no count
  }
  const kind = (ev.involvedObject?.kind ?? '').toLowerCase();
  const target = ev.involvedObject?.name ? `${kind}/${ev.involvedObject.name}` : kind;
  return [
    lastSeen,
    ev.type ?? '',
    ev.reason ?? '',
    target,
    ev.involvedObject?.fieldPath ?? '',
    formatSource(ev),
    (ev.message ?? '').trim(),
    firstSeen,
    count,
    ev.name,
  ];
}

const EVENT_COLUMNS = [
  column('Last Seen', 'string', 'When the event was last seen (lastTimestamp, series or first time).'),
  column('Type', 'string', 'Normal or Warning.'),
  column('Reason', 'string', 'Short machine-readable reason for the event.'),
  column('Object', 'string', 'The object the event is about, as kind/name.'),
  column('Subobject', 'string', 'The part of the object, e.g. spec.containers{app}.', true),
  column('Source', 'string', 'The component (and host) that reported the event.', true),
  column('Message', 'string', 'Human-readable description of the event.'),
  column('First Seen', 'string', 'When the event was first seen.', true),
  column('Count', 'string', 'How many times the event has occurred.', true),
  { ...column('Name', 'string', 'Name of the event object.', true), format: 'name' as const },
];

export const EVENT_TABLE: TableDef = {
  columns: EVENT_COLUMNS,
  row: (obj: KubeObject, now: number) => eventCells(fromCore(obj as unknown as CoreEvent), now),
};

export const EVENTS_V1_TABLE: TableDef = {
  columns: EVENT_COLUMNS,
  row: (obj: KubeObject, now: number) => eventCells(fromEventsV1(obj as unknown as EventsV1Event), now),
};
