// Invoke-WebRequest and Invoke-RestMethod as Windows PowerShell 5.1 runs them: the BasicHtmlWebResponseObject list,
// "The response content cannot be parsed because the Internet Explorer engine is not available" without
// -UseBasicParsing on Server Core, error bodies as messages, JSON parsed by Invoke-RestMethod.

import { fetchUrl, STATUS_TEXT } from '../net/http-client.js';
import { cmdletFqid, type Cmdlet, type CmdletCall } from './cmdlet-api.js';
import { registerView } from './format.js';
import { fromJsonValue } from './json.js';
import { Hashtable, PsError, PsObject, toNum, toStr, type PsValue } from './values.js';

const arg = (c: CmdletCall, n: string): PsValue => c.bound.get(n) ?? null;
const has = (c: CmdletCall, n: string) => c.bound.has(n);

function webError(c: CmdletCall, message: string, category = 'InvalidOperation', id = 'WebCmdletWebResponseException'): PsError {
  return new PsError(message, category, `${id},${cmdletFqid(c.name)}`, { command: c.name, target: 'System.Net.HttpWebRequest', targetType: 'HttpWebRequest', exceptionType: 'WebException', pos: c.pos, end: c.end });
}

function truncated(s: string, n = 250): string {
  return s.length > n ? `${s.slice(0, n)}...` : s;
}

function webRequest(name: 'Invoke-WebRequest' | 'Invoke-RestMethod'): Cmdlet {
  return {
    name,
    params: [{ name: 'Uri', aliases: ['Url'], position: 0 }, { name: 'Method' }, { name: 'Headers' }, { name: 'Body', position: 1 }, { name: 'UseBasicParsing', switch: true }, { name: 'TimeoutSec' }, { name: 'OutFile' }, { name: 'ContentType' }, { name: 'MaximumRedirection' }, { name: 'UserAgent' }, { name: 'UseDefaultCredentials', switch: true }, { name: 'DisableKeepAlive', switch: true }, { name: 'PassThru', switch: true }],
    async run(c) {
      const headers: Record<string, string> = { 'User-Agent': has(c, 'UserAgent') ? toStr(arg(c, 'UserAgent')) : 'Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.17763.1' };
      const h = arg(c, 'Headers');
      if (h instanceof Hashtable) for (const [k, v] of h.entries()) headers[toStr(k)] = toStr(v);
      if (has(c, 'ContentType')) headers['Content-Type'] = toStr(arg(c, 'ContentType'));
      const body = has(c, 'Body') ? Buffer.from(toStr(arg(c, 'Body'))) : undefined;
      const method = has(c, 'Method') ? toStr(arg(c, 'Method')).toUpperCase() : body ? 'POST' : 'GET';
      const url = toStr(arg(c, 'Uri'));
      const r = await fetchUrl(c.ps.ctx, { method, url, headers, body, timeoutMs: has(c, 'TimeoutSec') ? toNum(arg(c, 'TimeoutSec')) * 1000 : 100_000, followRedirects: toNum(arg(c, 'MaximumRedirection') ?? 5) !== 0 });
      if (!r.ok) {
        const msg = r.error === 'resolve' ? `The remote name could not be resolved: '${r.host}'` : r.error === 'timeout' ? 'The operation has timed out.' : r.error === 'url' ? `Invalid URI: The hostname could not be parsed.` : 'Unable to connect to the remote server';
        throw webError(c, msg);
      }
      const text = r.body.toString();
      if (r.status >= 400) throw webError(c, text.trim() ? text.replace(/<[^>]+>/g, '').replace(/\s+\n/g, '\n').trim() : `The remote server returned an error: (${r.status}) ${STATUS_TEXT[r.status] ?? ''}.`);
      if (has(c, 'OutFile')) {
        c.ps.ctx.env.fs.writeFile(c.ps.ctx.env.fs.resolve(c.ps.ctx.cwd, toStr(arg(c, 'OutFile'))), r.body, { cred: c.ps.ctx.cred });
        if (!has(c, 'PassThru')) return;
      }
      if (name === 'Invoke-RestMethod') {
        const ct = r.headers['content-type'] ?? r.headers['Content-Type'] ?? '';
        if (/json/i.test(ct) || /^\s*[[{]/.test(text)) {
          try {
            c.out.emit(fromJsonValue(JSON.parse(text)));
            return;
          } catch { /* not JSON after all */ }
        }
        c.out.emit(text);
        return;
      }
      if (!has(c, 'UseBasicParsing') && c.ps.ctx.env.toolset !== 'hostprocess') {
        throw new PsError("The response content cannot be parsed because the Internet Explorer engine is not available, or Internet Explorer's first-launch configuration is not complete. Specify the UseBasicParsing parameter and try again.", 'NotImplemented', `WebCmdletIEDomNotSupportedException,${cmdletFqid(c.name)}`, { command: c.name, exceptionType: 'NotSupportedException', pos: c.pos, end: c.end });
      }
      const hdrs = new Hashtable();
      for (const [k, v] of Object.entries(r.headers)) hdrs.set(k, v);
      const raw = `HTTP/1.1 ${r.status} ${STATUS_TEXT[r.status] ?? ''}\r\n${Object.entries(r.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${text}`;
      const res = new PsObject(['Microsoft.PowerShell.Commands.BasicHtmlWebResponseObject']);
      res.setProp('StatusCode', r.status);
      res.setProp('StatusDescription', STATUS_TEXT[r.status] ?? '');
      res.setProp('Content', text);
      res.setProp('RawContent', raw);
      res.setProp('Forms', null);
      res.setProp('Headers', hdrs);
      res.setProp('Images', []);
      res.setProp('InputFields', []);
      res.setProp('Links', [...text.matchAll(/<a\s[^>]*href="([^"]*)"/gi)].map((m) => new PsObject(undefined, { href: m[1] })));
      res.setProp('ParsedHtml', null);
      res.setProp('RawContentLength', r.body.length);
      c.out.emit(res);
    },
  };
}

registerView('Microsoft.PowerShell.Commands.BasicHtmlWebResponseObject', {
  kind: 'list',
  columns: ['StatusCode', 'StatusDescription', 'Content', 'RawContent', 'Forms', 'Headers', 'Images', 'InputFields', 'Links', 'ParsedHtml', 'RawContentLength'].map((name) => ({
    name,
    value: (v: PsValue) => {
      const x = (v as PsObject).getProp(name) ?? null;
      if (name === 'Content' || name === 'RawContent') return truncated(toStr(x)).replace(/\r\n/g, '\n');
      if (name === 'Headers' && x instanceof Hashtable) return `{${x.entries().slice(0, 4).map(([k, y]) => `[${toStr(k)}, ${toStr(y)}]`).join(', ')}${x.size > 4 ? '...' : ''}}`;
      if (Array.isArray(x)) return `{${x.map(toStr).join(', ')}}`;
      return toStr(x);
    },
  })),
});

export const WEB_CMDLETS: Cmdlet[] = [webRequest('Invoke-WebRequest'), webRequest('Invoke-RestMethod')];
