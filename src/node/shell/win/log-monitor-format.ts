// LogMonitor's output lines (microsoft/windows-container-tools LogMonitor 2.x): one line per entry in the configured
// logFormat — JSON (the default), XML or a custom %Field% pattern — and its own [time][LOGMONITOR] trace lines.

import { EVENT_LEVELS, type EtwEvent, type EventRecord } from './event-log.js';

export type LogFormat = 'json' | 'xml' | 'custom';

/** LogMonitor's timestamps: UTC, whole seconds, `yyyy-MM-ddTHH:mm:ss.000Z` (Utility::SystemTimeToString). */
export function lmTime(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}.000Z`;
}

/** Its own messages (LogWriter TraceInfo / TraceWarning / TraceError). */
export function traceLine(level: 'INFO' | 'WARNING' | 'ERROR', ms: number, message: string): string {
  return `[${lmTime(ms)}][LOGMONITOR] ${level}: ${message}`;
}

/** JSON string escaping without the quotes, as nlohmann::json::dump does it (SanitizeJson). */
export function jsonEscape(s: string): string {
  return JSON.stringify(s.replace(/\0[\s\S]*$/, '')).slice(1, -1);
}

/** %Field% substitution of a custom format; field names match case-insensitively (Utility::FormatEventLineLog). */
export function customLine(pattern: string, fields: Record<string, string>): string {
  const sanitize = /\|json$/i.test(pattern);
  const body = sanitize ? pattern.replace(/\|json$/i, '') : pattern;
  const lower = new Map(Object.entries(fields).map(([k, v]) => [k.toLowerCase(), v]));
  return body.replace(/%([A-Za-z]+)%/g, (m, name: string) => {
    const v = lower.get(name.toLowerCase());
    if (v === undefined) return m;
    return sanitize ? jsonEscape(v) : v;
  });
}

/** Default custom patterns per source (LoggerSettings.h). */
export const DEFAULT_CUSTOM: Record<'EventLog' | 'File' | 'ETW' | 'Process', string> = {
  EventLog: '[%TimeStamp%] [%Source%] [%Severity%] %Message%',
  File: '[%TimeStamp%] [%Source%] [%FileName%] %Message%',
  ETW: '[%TimeStamp%] [%Source%] [%Severity%] [%ProviderId%] [%ProviderName%] [%EventId%] %EventData%',
  Process: '[%TimeStamp%] [%Source%] [%Message%]',
};

/** A line of the wrapped process's output (ProcessMonitor FormatStandardLog: the text is not escaped). */
export function processLine(format: LogFormat, line: string, nowMs: number, custom?: string): string {
  // Bytes outside 7-bit ASCII become '?' in the standard formats.
  const clean = line.replace(/[^\x00-\x7f]/g, '?');
  if (format === 'xml') return `<Log><Source>Process</Source><LogEntry><Logline>${clean}</Logline></LogEntry></Log>`;
  if (format === 'custom') return customLine(custom ?? DEFAULT_CUSTOM.Process, { TimeStamp: lmTime(nowMs), Source: 'Process', Message: line });
  return `{"Source":"Process","LogEntry":{"Logline":"${clean}"},"SchemaVersion":"1.0.0"}`;
}

/** A line appended to a monitored file; fileName is relative to the monitored directory (LogFileMonitor::WriteToConsole). */
export function fileLine(format: LogFormat, line: string, fileName: string, nowMs: number, custom?: string): string {
  const name = fileName.replace(/\\/g, '\\\\');
  if (format === 'xml') return `<Log><Source>File</Source><LogEntry><Logline>${line}</Logline><FileName>${name}</FileName></LogEntry></Log>`;
  if (format === 'custom') return customLine(custom ?? DEFAULT_CUSTOM.File, { TimeStamp: lmTime(nowMs), Source: 'File', FileName: name, Message: line });
  return `{"Source": "File","LogEntry": {"Logline": "${jsonEscape(line)}","FileName": "${name}"},"SchemaVersion":"1.0.0"}`;
}

/** An event log record (EventMonitor::PrintEvent); the JSON form carries no SchemaVersion. */
export function eventLine(format: LogFormat, e: EventRecord, multiLine: boolean, custom?: string): string {
  const level = EVENT_LEVELS[e.level] ?? 'Unknown';
  const message = multiLine ? e.message : e.message.replace(/\r?\n/g, ' ');
  if (format === 'xml') {
    return `<Log><Source>EventLog</Source><LogEntry><EventSource>${e.provider}</EventSource><Time>${lmTime(e.timeMs)}</Time><Channel>${e.channel}</Channel><Level>${level}</Level><EventId>${e.eventId}</EventId><Message>${message}</Message></LogEntry></Log>`;
  }
  if (format === 'custom') {
    return customLine(custom ?? DEFAULT_CUSTOM.EventLog, { TimeStamp: lmTime(e.timeMs), Source: 'EventLog', EventSource: e.provider, EventID: String(e.eventId), Severity: level, Message: message });
  }
  return `{"Source": "EventLog","LogEntry": {"EventSource": "${e.provider}","Time": "${lmTime(e.timeMs)}","Channel": "${e.channel}","Level": "${level}","EventId": ${e.eventId},"Message": "${jsonEscape(message)}"}}`;
}

const isJsonNumber = (v: string) => /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(v);

/** An ETW event (EtwMonitor EtwJsonFormat / EtwXMLFormat); numbers in EventData stay unquoted. */
export function etwLine(format: LogFormat, e: EtwEvent, custom?: string): string {
  const level = EVENT_LEVELS[e.level] ?? 'Unknown';
  const id = `{${e.providerGuid.toUpperCase()}}`;
  const keyword = `0x${e.keyword.toString(16)}`;
  if (format === 'xml') {
    return `<Log><Source>ETW</Source><LogEntry><Time>${lmTime(e.timeMs)}</Time><ProviderName>${e.providerName}</ProviderName><ProviderId>${id}</ProviderId><DecodingSource>${e.decodingSource}</DecodingSource><Execution><ProcessId>${e.processId}</ProcessId><ThreadId>${e.threadId}</ThreadId></Execution><Level>${level}</Level><Keyword>${keyword}</Keyword><EventId>${e.eventId}</EventId><EventData>${e.data.map(([k, v]) => `<${k}>${v}</${k}>`).join('')}</EventData></LogEntry></Log>`;
  }
  const data = e.data.map(([k, v]) => `"${jsonEscape(k)}":${isJsonNumber(v) ? v : `"${jsonEscape(v)}"`}`).join(',');
  if (format === 'custom') {
    return customLine(custom ?? DEFAULT_CUSTOM.ETW, {
      TimeStamp: lmTime(e.timeMs), Source: 'ETW', Severity: level, ProviderId: id, ProviderName: e.providerName, DecodingSource: e.decodingSource,
      ExecutionProcessId: String(e.processId), ExecutionThreadId: String(e.threadId), Keyword: keyword, EventId: String(e.eventId), EventData: `{${data}}`,
    });
  }
  return `{"Source":"ETW","LogEntry":{"Time":"${lmTime(e.timeMs)}","ProviderName":"${e.providerName}","ProviderId":"${id}","DecodingSource":"${e.decodingSource}","Execution":{"ProcessId":${e.processId},"ThreadId":${e.threadId}},"Level":"${level}","Keyword":"${keyword}","EventId":"${e.eventId}","EventData":{${data}}},"SchemaVersion":"1.0.0"}`;
}
