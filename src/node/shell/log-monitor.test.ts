// LogMonitor.exe in a Windows container: its configuration, the wrapped process's output and the file, event log and
// ETW sources, in LogMonitor 2.x's line formats (microsoft/windows-container-tools LogMonitor).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, fakeEnv, request, run, until, type FakeEnv } from './testing/fake-env.js';
import { WindowsEventLog } from './win/event-log.js';
import { dosWildcard, parseConfig } from './win/log-monitor.js';
import { eventLine, fileLine, processLine, traceLine } from './win/log-monitor-format.js';
import { LOGMONITOR_IIS_CONFIG } from './fs/seed-extras.js';

/** A clock whose sleeps wait until the test advances it (LogMonitor's pollers would otherwise spin time forward). */
class ManualClock extends FakeClock {
  private waiting: { at: number; resolve(): void; reject(e: unknown): void }[] = [];
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal?.reason);
      const w = { at: this.t + ms, resolve: () => { signal?.removeEventListener('abort', onAbort); resolve(); }, reject };
      this.waiting.push(w);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await new Promise((r) => setImmediate(r));
      const next = this.waiting.filter((w) => w.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.t = Math.max(this.t, next.at);
      this.waiting.splice(this.waiting.indexOf(next), 1);
      next.resolve();
    }
    this.t = end;
    await new Promise((r) => setImmediate(r));
  }
}

function iisEnv(config?: string): FakeEnv & { clock: ManualClock; eventLog: WindowsEventLog } {
  const env = fakeEnv({ os: 'windows', toolset: 'servercore', extras: ['iis', 'logmonitor'], user: 'ContainerAdministrator' });
  const clock = new ManualClock();
  const out = Object.assign(env, { clock, eventLog: new WindowsEventLog(() => clock.now()) });
  if (config !== undefined) env.fs.writeFile('C:\\LogMonitor\\LogMonitorConfig.json', config);
  return out;
}

function start(env: FakeEnv, argv: string[]) {
  const ctl = new AbortController();
  let out = '';
  const p = run(env, argv, { signal: ctl.signal, onStdout: (s) => { out += s; } });
  return { out: () => out, stop: () => { ctl.abort('SIGTERM'); return p; }, done: p };
}

// LogMonitor ProcessMonitor.cpp FormatStandardLog / LogFileMonitor.cpp WriteToConsole / EventMonitor.cpp / LogWriter.h
test('line formats: process, file, event log and trace lines as LogMonitor 2.x writes them', () => {
  const t = Date.UTC(2024, 5, 1, 12, 0, 0, 450);
  assert.equal(processLine('json', " Service 'w3svc' started", t), '{"Source":"Process","LogEntry":{"Logline":" Service \'w3svc\' started"},"SchemaVersion":"1.0.0"}');
  assert.equal(processLine('xml', 'hi', t), '<Log><Source>Process</Source><LogEntry><Logline>hi</Logline></LogEntry></Log>');
  assert.equal(fileLine('json', 'a "quoted" line', 'W3SVC1\\u_ex240601.log', t), '{"Source": "File","LogEntry": {"Logline": "a \\"quoted\\" line","FileName": "W3SVC1\\\\u_ex240601.log"},"SchemaVersion":"1.0.0"}');
  assert.equal(fileLine('custom', 'x', 'a.log', t, '%TimeStamp% %fileName%: %Message%'), '2024-06-01T12:00:00.000Z a.log: x');
  assert.equal(eventLine('json', { channel: 'System', provider: 'Service Control Manager', eventId: 7036, level: 4, message: 'The W3 service entered the running state.', timeMs: t }, false),
    '{"Source": "EventLog","LogEntry": {"EventSource": "Service Control Manager","Time": "2024-06-01T12:00:00.000Z","Channel": "System","Level": "Information","EventId": 7036,"Message": "The W3 service entered the running state."}}');
  assert.equal(traceLine('WARNING', t, 'LogFormat not found in LogConfig. Using default log format.'), '[2024-06-01T12:00:00.000Z][LOGMONITOR] WARNING: LogFormat not found in LogConfig. Using default log format.');
});

// JsonProcessor.cpp: keys are case-insensitive; a missing logFormat is JSON with a warning; a missing file is an error.
test('configuration: the IIS sample parses; a missing file and a missing LogConfig are LogMonitor\'s errors', () => {
  const ok = parseConfig(LOGMONITOR_IIS_CONFIG);
  assert.deepEqual(ok.errors, []);
  assert.equal(ok.config?.format, 'json');
  assert.deepEqual(ok.config?.sources.map((s) => s.type), ['EventLog', 'File', 'ETW']);
  assert.deepEqual(parseConfig('{"logconfig":{"SOURCES":[]}}').warnings, ['LogFormat not found in LogConfig. Using default log format.']);
  assert.deepEqual(parseConfig('{"x":1}').errors, ["Missing 'LogConfig' section in JSON."]);
  assert.equal(parseConfig(undefined).errors[0], 'Failed to open JSON file.');
  assert.ok(dosWildcard('*.log').test('U_EX240601.LOG'));
  assert.ok(!dosWildcard('*.log').test('u_ex240601.txt'));
});

// seed 001 "Capturing logs from workloads": without LogMonitor IIS's request log stays in its files, not stdout.
test('IIS without LogMonitor: requests are logged to C:\\inetpub\\logs\\LogFiles\\W3SVC1, not to stdout', async () => {
  const env = iisEnv();
  const s = start(env, ['C:\\ServiceMonitor.exe', 'w3svc']);
  await until(() => env.listening.some((l) => l.port === 80));
  await request(env, 80, '/');
  assert.doesNotMatch(s.out(), /GET/);
  const logs = env.fs.readdir('C:\\inetpub\\logs\\LogFiles\\W3SVC1').map((n) => n.name);
  assert.deepEqual(logs, ['u_ex240601.log']);
  const text = env.fs.readFile('C:\\inetpub\\logs\\LogFiles\\W3SVC1\\u_ex240601.log').toString();
  assert.match(text, /^#Software: Microsoft Internet Information Services 10\.0\r\n#Version: 1\.0\r\n/);
  assert.match(text, /\r\n2024-06-01 12:00:00 10\.244\.1\.5 GET \/ - 80 - 10\.244\.0\.7 curl\/7\.88\.1 - 200 0 0 0\r\n$/);
  await s.stop();
});

// LogMonitor README: ENTRYPOINT ["C:\\LogMonitor\\LogMonitor.exe", "C:\\ServiceMonitor.exe", "w3svc"]
test('LogMonitor wrapping ServiceMonitor: its output, the SCM events and new IIS log lines reach stdout', async () => {
  const env = iisEnv();
  const s = start(env, ['C:\\LogMonitor\\LogMonitor.exe', 'C:\\ServiceMonitor.exe', 'w3svc']);
  await until(() => env.listening.some((l) => l.port === 80));
  await env.clock.advance(1000);
  const lines = s.out().split('\n');
  assert.ok(lines.includes('{"Source":"Process","LogEntry":{"Logline":" Service \'w3svc\' has been stopped"},"SchemaVersion":"1.0.0"}'));
  assert.ok(lines.includes('{"Source":"Process","LogEntry":{"Logline":" Service \'w3svc\' started"},"SchemaVersion":"1.0.0"}'));
  assert.ok(lines.some((l) => l.startsWith('{"Source": "EventLog","LogEntry": {"EventSource": "Service Control Manager"') && l.includes('"Message": "The World Wide Web Publishing Service service entered the running state."')));
  // C:\inetpub\logs exists in the image; W3SVC1 and its file appear with the first request.
  assert.ok(!s.out().includes('does not exist'), s.out());
  await request(env, 80, '/');
  await env.clock.advance(16_000);
  const fileLines = s.out().split('\n').filter((l) => l.startsWith('{"Source": "File"'));
  assert.ok(fileLines.some((l) => l.includes('"Logline": "2024-06-01 12:00:01 10.244.1.5 GET / - 80 - 10.244.0.7 curl/7.88.1 - 200 0 0 0","FileName": "LogFiles\\\\W3SVC1\\\\u_ex240601.log"')), s.out());
  assert.ok(fileLines.some((l) => l.includes('"Logline": "#Software: Microsoft Internet Information Services 10.0"')), 'a file created after LogMonitor started is read from its start');
  await s.stop();
});

test('LogMonitor File source: an exec appending to a monitored file shows up; existing content does not', async () => {
  const env = iisEnv(JSON.stringify({ LogConfig: { logFormat: 'json', sources: [{ type: 'File', directory: 'C:\\app\\logs', filter: '*.log', includeFileNames: false }] } }));
  env.fs.mkdir('C:\\app\\logs', { parents: true });
  env.fs.writeFile('C:\\app\\logs\\app.log', 'old line\r\n');
  const s = start(env, ['C:\\LogMonitor\\LogMonitor.exe', 'cmd', '/c', 'echo hello from cmd & ping -n 100 127.0.0.1 > nul']);
  await env.clock.advance(1000);
  const r = await run(env, ['cmd', '/c', 'echo new line>> C:\\app\\logs\\app.log']);
  assert.equal(r.code, 0);
  await env.clock.advance(1000);
  const out = s.out();
  assert.match(out, /\{"Source":"Process","LogEntry":\{"Logline":"hello from cmd "\},"SchemaVersion":"1\.0\.0"\}\n/);
  assert.match(out, /\{"Source": "File","LogEntry": \{"Logline": "new line","FileName": "app\.log"\},"SchemaVersion":"1\.0\.0"\}\n/);
  assert.doesNotMatch(out, /old line/);
  await s.stop();
});

test('LogMonitor EventLog source: level filters per channel; ETW events of configured providers only', async () => {
  const cfg = { LogConfig: { sources: [
    { type: 'EventLog', startAtOldestRecord: false, channels: [{ name: 'application', level: 'Warning' }] },
    { type: 'ETW', providers: [{ providerGuid: '7E8AD27F-B271-4EA2-A783-A47BDE29143B', level: 'Information' }] },
  ] } };
  const env = iisEnv(JSON.stringify(cfg));
  const s = start(env, ['C:\\LogMonitor\\LogMonitor.exe']);
  await env.clock.advance(10);
  env.eventLog.write({ channel: 'Application', provider: 'MyApp', eventId: 1000, level: 2, message: 'boom' });
  env.eventLog.write({ channel: 'Application', provider: 'MyApp', eventId: 1001, level: 4, message: 'fine' });
  env.eventLog.write({ channel: 'System', provider: 'Disk', eventId: 7, level: 2, message: 'other channel' });
  env.eventLog.emitEtw({ providerName: 'Microsoft-Windows-IIS-Logging', providerGuid: '7E8AD27F-B271-4EA2-A783-A47BDE29143B', eventId: 6200, level: 4, keyword: 0x8000000000000000n, processId: 4, threadId: 1, decodingSource: 'DecodingSourceXMLFile', data: [['sc-status', '200'], ['cs-method', 'GET']] });
  env.eventLog.emitEtw({ providerName: 'Other', providerGuid: '00000000-0000-0000-0000-000000000001', eventId: 1, level: 4, keyword: 0n, processId: 4, threadId: 1, decodingSource: 'DecodingSourceXMLFile', data: [] });
  await env.clock.advance(10);
  const lines = s.out().trim().split('\n');
  assert.equal(lines[0], '[2024-06-01T12:00:00.000Z][LOGMONITOR] WARNING: LogFormat not found in LogConfig. Using default log format.');
  assert.match(lines[1], /^\{"Source": "EventLog","LogEntry": \{"EventSource": "MyApp","Time": "2024-06-01T12:00:00\.000Z","Channel": "Application","Level": "Error","EventId": 1000,"Message": "boom"\}\}$/);
  assert.equal(lines[2], '{"Source":"ETW","LogEntry":{"Time":"2024-06-01T12:00:00.000Z","ProviderName":"Microsoft-Windows-IIS-Logging","ProviderId":"{7E8AD27F-B271-4EA2-A783-A47BDE29143B}","DecodingSource":"DecodingSourceXMLFile","Execution":{"ProcessId":4,"ThreadId":1},"Level":"Information","Keyword":"0x8000000000000000","EventId":"6200","EventData":{"sc-status":200,"cs-method":"GET"}},"SchemaVersion":"1.0.0"}');
  assert.equal(lines.length, 3);
  await s.stop();
});

test('LogMonitor ends with the wrapped command\'s exit code, and says so; a missing config is reported', async () => {
  const env = iisEnv();
  env.fs.unlink('C:\\LogMonitor\\LogMonitorConfig.json');
  const r = await run(env, ['C:\\LogMonitor\\LogMonitor.exe', 'cmd', '/c', 'exit 3']);
  assert.equal(r.code, 3);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines[0], '[2024-06-01T12:00:00.000Z][LOGMONITOR] ERROR: Failed to open JSON file.');
  assert.equal(lines.at(-2), '[2024-06-01T12:00:00.000Z][LOGMONITOR] ERROR: Invalid configuration file.');
  assert.equal(lines.at(-1), '[2024-06-01T12:00:00.000Z][LOGMONITOR] INFO: Entrypoint processs exit code: 3');
  const missing = await run(env, ['C:\\LogMonitor\\LogMonitor.exe', 'C:\\nope.exe']);
  assert.equal(missing.code, 2);
  assert.match(missing.stdout, /\[LOGMONITOR\] ERROR: Failed to start entrypoint process\. Error: 2\n$/);
});
