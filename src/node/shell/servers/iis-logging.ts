// What IIS records about itself and its requests inside a container: Service Control Manager events in the System
// log when ServiceMonitor stops and starts W3SVC, W3C log files under C:\inetpub\logs\LogFiles\W3SVC1 (the default
// site), and Microsoft-Windows-IIS-Logging ETW events when the site logs to ETW too (logTargetW3C "File,ETW").
// None of it reaches stdout: that takes LogMonitor (seed 000/001/003 "Capturing logs from workloads").

import type { ContainerEnv, HttpRequest, HttpResponse } from '../interfaces.js';

/** The default site's log directory (IIS: %SystemDrive%\inetpub\logs\LogFiles\W3SVC<siteId>). */
export const IIS_LOG_DIR = 'C:\\inetpub\\logs\\LogFiles\\W3SVC1';
const APPHOST_CONFIG = 'C:\\Windows\\System32\\inetsrv\\config\\applicationHost.config';
/** Microsoft-Windows-IIS-Logging, whose event 6200 carries one request's W3C fields. */
export const IIS_LOGGING_PROVIDER = { name: 'Microsoft-Windows-IIS-Logging', guid: '7E8AD27F-B271-4EA2-A783-A47BDE29143B' };

const SERVICE_DISPLAY: Record<string, string> = { w3svc: 'World Wide Web Publishing Service', was: 'Windows Process Activation Service' };

/** SCM event 7036 ("The <display name> service entered the <state> state."), as every service state change writes. */
export function serviceStateEvent(env: ContainerEnv, service: string, state: 'running' | 'stopped'): void {
  const display = SERVICE_DISPLAY[service.toLowerCase()] ?? service;
  env.eventLog?.write({ channel: 'System', provider: 'Service Control Manager', eventId: 7036, level: 4, message: `The ${display} service entered the ${state} state.` });
}

const pad = (n: number) => String(n).padStart(2, '0');

/** W3C extended log: u_exYYMMDD.log (UTF-8, daily rollover), started with its directives. */
export function w3cLog(env: ContainerEnv, req: HttpRequest, res: HttpResponse, tookMs: number): void {
  const d = new Date(env.clock.now());
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const [stem, query] = req.path.split('?', 2);
  const ua = (req.headers['User-Agent'] ?? req.headers['user-agent'] ?? '-').replace(/ /g, '+');
  const referer = req.headers.Referer ?? req.headers.referer ?? '-';
  const status = res.status;
  // sc-win32-status: ERROR_FILE_NOT_FOUND (2) for a 404 of a static file.
  const win32 = status === 404 ? 2 : 0;
  const fs = env.fs;
  const file = `${IIS_LOG_DIR}\\u_ex${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}.log`;
  try {
    if (!fs.exists(IIS_LOG_DIR)) fs.mkdir(IIS_LOG_DIR, { parents: true });
    if (!fs.exists(file)) {
      fs.writeFile(file, `#Software: Microsoft Internet Information Services 10.0\r\n#Version: 1.0\r\n#Date: ${date} ${time}\r\n#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken\r\n`);
    }
    fs.writeFile(file, `${date} ${time} ${req.localAddress} ${req.method} ${stem} ${query || '-'} ${req.localPort} - ${req.remoteAddress} ${ua} ${referer} ${status} 0 ${win32} ${tookMs}\r\n`, { append: true });
  } catch { /* a read-only C:\inetpub (a mount over it): IIS logs nothing */ }
  if (!etwEnabled(env)) return;
  env.eventLog?.emitEtw({
    providerName: IIS_LOGGING_PROVIDER.name, providerGuid: IIS_LOGGING_PROVIDER.guid, eventId: 6200, level: 4, keyword: 0x8000000000000000n,
    processId: 4, threadId: 1, decodingSource: 'DecodingSourceXMLFile',
    data: [
      ['EnabledFieldsFlags', '2478031'], ['date', date], ['time', time], ['c-ip', req.remoteAddress], ['cs-username', '-'], ['s-sitename', 'W3SVC1'],
      ['s-computername', env.hostname.toUpperCase()], ['s-ip', req.localAddress], ['cs-method', req.method], ['cs-uri-stem', stem], ['cs-uri-query', query || '-'],
      ['sc-status', String(status)], ['sc-win32-status', String(win32)], ['sc-bytes', String(res.body.length)], ['cs-bytes', String(req.body.length)],
      ['time-taken', String(tookMs)], ['s-port', String(req.localPort)], ['csUser-Agent', ua], ['csCookie', '-'], ['csReferer', referer],
      ['cs-version', 'HTTP/1.1'], ['cs-host', req.headers.Host ?? req.headers.host ?? '-'], ['sc-substatus', '0'], ['CustomFields', ''],
    ],
  });
}

/** The site's logTargetW3C: File by default; "File,ETW" or "ETW" sends each request to the IIS-Logging provider too. */
function etwEnabled(env: ContainerEnv): boolean {
  try {
    return /logTargetW3C\s*=\s*"[^"]*\bETW\b/i.test(env.fs.readFile(APPHOST_CONFIG).toString());
  } catch {
    return false;
  }
}
