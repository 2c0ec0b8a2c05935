// A Windows container's own event log (System, Application, ... channels) and its ETW sessions: what services and
// programs in the container record, and what LogMonitor (and Get-EventLog-style readers) subscribe to.

/** Event levels as the Windows event log numbers them (winmeta.xml: 1 Critical … 5 Verbose). */
export const EVENT_LEVELS = ['Unknown', 'Critical', 'Error', 'Warning', 'Information', 'Verbose'] as const;
export type EventLevelName = Exclude<(typeof EVENT_LEVELS)[number], 'Unknown'>;

export interface EventRecord {
  /** The channel as the event log names it (`System`, `Application`). */
  channel: string;
  /** The publisher (`Service Control Manager`, an application's source). */
  provider: string;
  eventId: number;
  /** 1 Critical, 2 Error, 3 Warning, 4 Information, 5 Verbose. */
  level: number;
  message: string;
  timeMs: number;
}

export interface EtwEvent {
  providerName: string;
  /** Upper-case GUID without braces. */
  providerGuid: string;
  eventId: number;
  level: number;
  keyword: bigint;
  processId: number;
  threadId: number;
  /** Manifest-based providers decode from the XML manifest (TDH's DecodingSourceXMLFile). */
  decodingSource: 'DecodingSourceXMLFile' | 'DecodingSourceWbem' | 'DecodingSourceTlg';
  data: [string, string][];
  timeMs: number;
}

type Listener<T> = (e: T) => void;

/** The container's event log: records kept from boot, and subscribers that get each new one. */
export class WindowsEventLog {
  private readonly records: EventRecord[] = [];
  private readonly listeners = new Set<Listener<EventRecord>>();
  private readonly etwListeners = new Set<Listener<EtwEvent>>();

  constructor(private readonly now: () => number) {}

  write(e: Omit<EventRecord, 'timeMs'> & { timeMs?: number }): void {
    const rec = { ...e, timeMs: e.timeMs ?? this.now() };
    this.records.push(rec);
    for (const l of [...this.listeners]) l(rec);
  }

  /** Records of the channel so far (the channel name is case-insensitive, as EvtQuery's path is). */
  read(channel: string): EventRecord[] {
    return this.records.filter((r) => r.channel.toLowerCase() === channel.toLowerCase());
  }

  /** EvtSubscribe: from the oldest record (replayed first) or only future ones; returns the unsubscribe. */
  subscribe(fn: Listener<EventRecord>, fromOldest: boolean): () => void {
    if (fromOldest) for (const r of [...this.records]) fn(r);
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** An ETW provider fires an event; only live sessions see it (ETW keeps no history). */
  emitEtw(e: Omit<EtwEvent, 'timeMs'>): void {
    const ev = { ...e, timeMs: this.now() };
    for (const l of [...this.etwListeners]) l(ev);
  }

  /** A real-time ETW session; returns the stop. */
  traceEtw(fn: Listener<EtwEvent>): () => void {
    this.etwListeners.add(fn);
    return () => this.etwListeners.delete(fn);
  }
}
