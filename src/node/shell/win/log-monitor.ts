// LogMonitor.exe (microsoft/windows-container-tools LogMonitor 2.x), the seeds' way to get a Windows workload's event
// log, ETW and log files into `kubectl logs` (seed 000/001/003 "Capturing logs from workloads"): it reads
// LogMonitorConfig.json, starts one monitor per source, runs the wrapped command with its output piped through, and
// writes every entry to STDOUT in the configured logFormat. It ends with the wrapped command's exit code.

import { sleep, untilAborted, type Ctx } from '../core/ctx.js';
import { FuncOutput } from '../core/streams.js';
import { EVENT_LEVELS } from './event-log.js';
import { etwLine, eventLine, fileLine, processLine, traceLine, type LogFormat } from './log-monitor-format.js';

/** Where LogMonitor looks for its configuration without /Config (LoggerSettings.h DEFAULT_CONFIG_FILENAME). */
export const DEFAULT_CONFIG_PATH = 'C:\\LogMonitor\\LogMonitorConfig.json';

/** The file monitor's poll: LogFileMonitor re-reads changed files on a one-second timer. */
const FILE_POLL_MS = 1000;
/** How often it retries a missing directory (FileMonitorUtilities: every 15 s) and how long by default (300 s). */
const DIR_RETRY_MS = 15_000;
const DEFAULT_WAIT_S = 300;

interface ChannelConf { name: string; level: number }
interface EventSource { type: 'EventLog'; startAtOldestRecord: boolean; multiLine: boolean; channels: ChannelConf[]; custom?: string }
interface FileSource { type: 'File'; directory: string; filter: string; recursive: boolean; waitS: number; custom?: string }
interface EtwSource { type: 'ETW'; providers: { name?: string; guid: string; level: number }[]; custom?: string }
interface ProcessSource { type: 'Process'; custom?: string }
type Source = EventSource | FileSource | EtwSource | ProcessSource;
interface Config { format: LogFormat; sources: Source[] }

/** Looks a key up case-insensitively (JsonProcessor findJsonKeyCaseInsensitive). */
function key(o: unknown, name: string): unknown {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return undefined;
  const k = Object.keys(o).find((x) => x.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : (o as Record<string, unknown>)[k];
}

/** Level names are case-insensitive; absent or unknown means Error (LoggerSettings.h). */
function levelOf(v: unknown): number {
  const i = typeof v === 'string' ? EVENT_LEVELS.findIndex((l) => l.toLowerCase() === v.toLowerCase()) : -1;
  return i >= 1 ? i : 2;
}

const bool = (v: unknown, dflt: boolean) => (typeof v === 'boolean' ? v : typeof v === 'string' ? v.toLowerCase() === 'true' : dflt);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function waitSeconds(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return /^(inf|infinity|\+?∞)$/i.test(v.trim()) ? Infinity : Number(v);
  return DEFAULT_WAIT_S;
}

/** Reads the configuration; the errors are LogMonitor's trace messages, in order. */
export function parseConfig(text: string | undefined): { config?: Config; errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (text === undefined) errors.push('Failed to open JSON file.');
  let json: unknown;
  try {
    json = JSON.parse((text ?? '').replace(/^\uFEFF/, ''));
  } catch {
    // nlohmann::json's parse_error wording for an empty or malformed document.
    errors.push(text?.trim()
      ? 'Error parsing JSON: [json.exception.parse_error.101] parse error: syntax error while parsing value'
      : 'Error parsing JSON: [json.exception.parse_error.101] parse error at line 1, column 1: syntax error while parsing value - unexpected end of input; expected \'[\', \'{\', or a literal');
    return { errors, warnings };
  }
  const lc = key(json, 'LogConfig');
  if (lc === undefined) return { errors: [...errors, "Missing 'LogConfig' section in JSON."], warnings };
  const fmt = str(key(lc, 'logFormat'));
  if (fmt === undefined) warnings.push('LogFormat not found in LogConfig. Using default log format.');
  const format: LogFormat = fmt?.toLowerCase() === 'xml' ? 'xml' : fmt?.toLowerCase() === 'custom' ? 'custom' : 'json';
  const sources = key(lc, 'sources');
  if (!Array.isArray(sources)) return { errors: [...errors, 'Sources array not found or invalid in LogConfig.', 'Failed to fully process LogConfig.'], warnings };
  const out: Source[] = [];
  for (const s of sources) {
    const type = str(key(s, 'type'))?.toLowerCase();
    const custom = str(key(s, 'customLogFormat'));
    if (type === 'eventlog') {
      const channels = key(s, 'channels');
      out.push({
        type: 'EventLog', startAtOldestRecord: bool(key(s, 'startAtOldestRecord'), false), multiLine: bool(key(s, 'eventFormatMultiLine'), true), custom,
        channels: (Array.isArray(channels) ? channels : []).map((c) => ({ name: str(key(c, 'name')) ?? '', level: levelOf(key(c, 'level')) })),
      });
    } else if (type === 'file') {
      out.push({
        type: 'File', directory: (str(key(s, 'directory')) ?? '').replace(/[\\/]+$/, ''), filter: str(key(s, 'filter')) || '*',
        recursive: bool(key(s, 'includeSubdirectories'), false), waitS: waitSeconds(key(s, 'waitInSeconds')), custom,
      });
    } else if (type === 'etw') {
      const providers = key(s, 'providers');
      out.push({
        type: 'ETW', custom,
        providers: (Array.isArray(providers) ? providers : []).map((p) => ({ name: str(key(p, 'providerName')), guid: (str(key(p, 'providerGuid')) ?? '').replace(/[{}]/g, '').toUpperCase(), level: levelOf(key(p, 'level')) })),
      });
    } else if (type === 'process') {
      out.push({ type: 'Process', custom });
    }
  }
  return { config: { format, sources: out }, errors, warnings };
}

/** MS-DOS wildcards (`*`, `?`), case-insensitive, as PathMatchSpec matches a file name. */
export function dosWildcard(filter: string): RegExp {
  return new RegExp(`^${filter.split('').map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`, 'i');
}

/** Files under dir matching the filter, by path relative to dir. */
function listFiles(ctx: Ctx, dir: string, match: RegExp, recursive: boolean, rel = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let entries;
  try { entries = ctx.env.fs.readdir(rel ? `${dir}\\${rel}` : dir); } catch { return out; }
  for (const n of entries) {
    const r = rel ? `${rel}\\${n.name}` : n.name;
    if (n.kind === 'dir') {
      if (recursive) for (const [k, v] of listFiles(ctx, dir, match, recursive, r)) out.set(k, v);
    } else if (n.kind === 'file' && match.test(n.name)) out.set(r, n.data);
  }
  return out;
}

class Monitor {
  private readonly stops: (() => void)[] = [];
  constructor(private readonly ctx: Ctx, private readonly format: LogFormat, private readonly done: AbortSignal) {}

  emit(line: string): void {
    this.ctx.stdout.write(`${line}\n`);
  }

  trace(level: 'INFO' | 'WARNING' | 'ERROR', message: string): void {
    this.emit(traceLine(level, this.ctx.env.clock.now(), message));
  }

  start(s: Source): void {
    if (s.type === 'EventLog') this.events(s);
    else if (s.type === 'File') void this.files(s).catch(() => { /* ends with the monitor */ });
    else if (s.type === 'ETW') this.etw(s);
  }

  private events(s: EventSource): void {
    const log = this.ctx.env.eventLog;
    if (!log) return;
    const wanted = new Map(s.channels.map((c) => [c.name.toLowerCase(), c.level]));
    this.stops.push(log.subscribe((e) => {
      const max = wanted.get(e.channel.toLowerCase());
      if (max !== undefined && e.level >= 1 && e.level <= max) this.emit(eventLine(this.format, e, s.multiLine, s.custom));
    }, s.startAtOldestRecord));
  }

  private etw(s: EtwSource): void {
    const log = this.ctx.env.eventLog;
    if (!log) return;
    this.stops.push(log.traceEtw((e) => {
      const p = s.providers.find((x) => x.guid === e.providerGuid.toUpperCase());
      if (p && e.level <= p.level) this.emit(etwLine(this.format, e, s.custom));
    }));
  }

  /** LogFileMonitor: files present at start are read from their end; new files, and all once a late directory appears, from the start. */
  private async files(s: FileSource): Promise<void> {
    const fs = this.ctx.env.fs;
    const wait = { signal: this.done, env: this.ctx.env };
    let fromStart = false;
    if (!fs.stat(s.directory) || fs.stat(s.directory)?.kind !== 'dir') {
      this.trace('INFO', Number.isFinite(s.waitS)
        ? `Log directory ${s.directory} does not exist. LogMonitor will wait for ${Math.round(s.waitS)} seconds for the directory to be created.`
        : `Log directory ${s.directory} does not exist. LogMonitor will wait infinitely for the directory to be created.`);
      let waited = 0;
      while (fs.stat(s.directory)?.kind !== 'dir') {
        if (waited >= s.waitS * 1000) {
          this.trace('ERROR', `Failed to open log directory handle. Directory: ${s.directory} Error=3`);
          return;
        }
        await sleep(wait, DIR_RETRY_MS);
        waited += DIR_RETRY_MS;
      }
      this.trace('INFO', `Log directory ${s.directory} found after ${Math.round(waited / 1000)} seconds.`);
      fromStart = true;
    }
    const match = dosWildcard(s.filter);
    const offsets = new Map<string, number>();
    for (const [name, data] of listFiles(this.ctx, s.directory, match, s.recursive)) offsets.set(name, fromStart ? 0 : data.length);
    for (;;) {
      for (const [name, data] of listFiles(this.ctx, s.directory, match, s.recursive)) {
        let at = offsets.get(name) ?? 0;
        if (data.length < at) at = 0; // truncated or replaced: read again from the start
        if (data.length > at) {
          for (const line of data.subarray(at).toString('utf8').split('\n')) {
            const text = line.replace(/\r$/, '');
            if (text) this.emit(fileLine(this.format, text, name, this.ctx.env.clock.now(), s.custom));
          }
        }
        offsets.set(name, data.length);
      }
      await sleep(wait, FILE_POLL_MS);
    }
  }

  stop(): void {
    for (const s of this.stops) s();
  }
}

/** Splits the child's output into lines (either line break ends one; empty lines are dropped, as ReadFromPipe does). */
function lineSplitter(emit: (line: string) => void): { write(chunk: string | Buffer): void; flush(): void } {
  let partial = '';
  return {
    write(chunk) {
      partial += chunk.toString();
      const parts = partial.split(/[\r\n]+/);
      partial = parts.pop() ?? '';
      for (const p of parts) if (p) emit(p);
    },
    flush() {
      if (partial) emit(partial);
      partial = '';
    },
  };
}

export async function logMonitor(argv: string[], ctx: Ctx): Promise<number> {
  const exeDir = 'C:\\LogMonitor';
  let configPath = DEFAULT_CONFIG_PATH;
  let cmdIndex = 1;
  if (argv.length >= 3 && argv[1].toLowerCase() === '/config') {
    const name = argv[2];
    if (/\.\.|[/\\:]/.test(name)) {
      ctx.stdout.write(`${traceLine('ERROR', ctx.env.clock.now(), 'Invalid configuration file name.')}\n`);
      return 0;
    }
    // The name is anchored to the directory LogMonitor.exe runs from.
    configPath = `${exeDir}\\${name}`;
    cmdIndex = 3;
  }
  const ended = new AbortController();
  const done = AbortSignal.any([ctx.signal, ended.signal]);
  const mon = new Monitor(ctx, 'json', done);
  let text: string | undefined;
  try { text = ctx.env.fs.readFile(configPath).toString('utf8'); } catch { text = undefined; }
  const parsed = parseConfig(text);
  for (const e of parsed.errors) mon.trace('ERROR', e);
  for (const w of parsed.warnings) mon.trace('WARNING', w);
  const format = parsed.config?.format ?? 'json';
  const running = new Monitor(ctx, format, done);
  if (parsed.config) for (const s of parsed.config.sources) running.start(s);
  else mon.trace('ERROR', 'Invalid configuration file.');
  const processCustom = parsed.config?.sources.find((s): s is ProcessSource => s.type === 'Process')?.custom;
  try {
    if (argv.length <= cmdIndex) {
      await untilAborted(ctx.signal);
      return 0;
    }
    const child = argv.slice(cmdIndex);
    const lines = lineSplitter((l) => running.emit(processLine(format, l, ctx.env.clock.now(), processCustom)));
    // The child's stdout and stderr share one pipe, so its lines do not interleave (ProcessMonitor.cpp).
    const out = new FuncOutput((c) => lines.write(c));
    const r = await ctx.spawn(child, { stdout: out, stderr: out, cmdline: child.join(' ') });
    lines.flush();
    if (typeof r !== 'number') {
      // CreateProcess failed: ERROR_FILE_NOT_FOUND (2), ERROR_PATH_NOT_FOUND (3), ERROR_BAD_EXE_FORMAT (193), ERROR_ACCESS_DENIED (5).
      const code = r.error === 'no-such-file' ? 2 : r.error === 'not-found' ? (/[\\/]/.test(child[0]) ? 3 : 2) : r.error === 'exec-format' ? 193 : 5;
      running.trace('ERROR', `Failed to start entrypoint process. Error: ${code}`);
      return code;
    }
    running.trace('INFO', `Entrypoint processs exit code: ${r}`);
    return r;
  } finally {
    ended.abort();
    running.stop();
  }
}
