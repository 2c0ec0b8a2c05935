// Output cmdlets: Write-Host (straight to the console), Write-Output, Write-Error, Write-Warning, the quiet ones
// (Write-Verbose, Write-Progress, Set-ExecutionPolicy...), Out-Null/Host/String, Format-Table/List and JSON.

import { cmdletFqid, type Cmdlet, type CmdletCall } from './cmdlet-api.js';
import { DateTime } from './dotnet.js';
import { formatToString, registerView } from './format.js';
import { fromJsonValue } from './json.js';
import { getMember } from './members.js';
import { DotNet, enumerate, Hashtable, PsError, PsObject, toNum, toStr, type PsValue } from './values.js';

const arg = (c: CmdletCall, n: string): PsValue => c.bound.get(n) ?? null;
const has = (c: CmdletCall, n: string) => c.bound.has(n);

function lines(text: string): string[] {
  const l = text.split(/\r?\n/);
  if (l[l.length - 1] === '') l.pop();
  return l;
}

const writeHost: Cmdlet = {
  name: 'Write-Host',
  params: [{ name: 'Object', position: 0, remaining: true }, { name: 'NoNewline', switch: true }, { name: 'Separator' }, { name: 'ForegroundColor' }, { name: 'BackgroundColor' }],
  async run(c) {
    const sep = has(c, 'Separator') ? toStr(arg(c, 'Separator')) : ' ';
    const flat = (v: PsValue): string => (Array.isArray(v) ? v.map(flat).join(sep) : toStr(v));
    const v = c.bound.get('Object');
    const text = v === undefined ? (c.bound.input ?? []).map(flat).join(sep) : flat(v);
    c.ps.writeHost(text + (has(c, 'NoNewline') ? '' : '\r\n'));
  },
};

const writeOutput: Cmdlet = {
  name: 'Write-Output',
  params: [{ name: 'InputObject', position: 0, remaining: true }, { name: 'NoEnumerate', switch: true }],
  async run(c) {
    const v = c.bound.has('InputObject') ? arg(c, 'InputObject') : c.bound.input ?? [];
    if (has(c, 'NoEnumerate')) c.out.emit(v);
    else for (const x of enumerate(v)) c.out.emit(x);
  },
};

const writeError: Cmdlet = {
  name: 'Write-Error',
  params: [{ name: 'Message', aliases: ['Msg'], position: 0, remaining: true }, { name: 'Category' }, { name: 'ErrorId' }],
  async run(c) {
    const msg = toStr(arg(c, 'Message'));
    // WriteErrorCommand gives the record its caller's $MyInvocation: the error is the function's or script's (its
    // name heads the message and ends the error id, its call site is the position), and the activity Write-Error.
    // At the top level the caller is the command text itself, which has no position.
    const inv = c.ps.invocations.at(-1);
    const id = has(c, 'ErrorId') ? toStr(arg(c, 'ErrorId')) : 'Microsoft.PowerShell.Commands.WriteErrorException';
    const e = new PsError(msg, has(c, 'Category') ? toStr(arg(c, 'Category')) : 'NotSpecified', inv ? `${id},${inv.idName}` : id, {
      exceptionType: 'WriteErrorException', command: inv ? inv.name : c.ps.src.trim(), activity: 'Write-Error',
      ...(inv?.site ? { pos: inv.site.pos, end: inv.site.end } : {}),
    });
    if (inv?.site) e.origin = inv.site.origin;
    c.ps.writeError(e);
  },
};

const writeWarning: Cmdlet = {
  name: 'Write-Warning',
  params: [{ name: 'Message', position: 0, remaining: true }],
  async run(c) { c.ps.writeHost(`WARNING: ${toStr(arg(c, 'Message'))}\r\n`); },
};

const quiet: (name: string) => Cmdlet = (name) => ({ name, params: [{ name: 'Message', position: 0, remaining: true }, { name: 'Activity' }, { name: 'Status' }, { name: 'PercentComplete' }, { name: 'Completed', switch: true }, { name: 'Name' }, { name: 'Scope' }, { name: 'ExecutionPolicy' }, { name: 'Force', switch: true }, { name: 'Version' }, { name: 'Off', switch: true }], async run() { /* no visible effect */ } });

const outNull: Cmdlet = { name: 'Out-Null', params: [{ name: 'InputObject' }], async run() { /* discards */ } };
const outHost: Cmdlet = { name: 'Out-Host', params: [], async run(c) { for (const v of c.bound.input ?? []) c.ps.host.emit(v); c.ps.host.end(); } };
const outString: Cmdlet = {
  name: 'Out-String',
  params: [{ name: 'Stream', switch: true }, { name: 'InputObject' }, { name: 'Width' }],
  async run(c) {
    const text = formatToString(has(c, 'InputObject') ? enumerate(arg(c, 'InputObject')) : c.bound.input ?? []);
    if (has(c, 'Stream')) for (const l of lines(text)) c.out.emit(l); else c.out.emit(text);
  },
};

function formatCmd(name: string, kind: 'table' | 'list'): Cmdlet {
  return {
    name,
    params: [{ name: 'Property', position: 0 }, { name: 'AutoSize', switch: true }, { name: 'Wrap', switch: true }, { name: 'HideTableHeaders', switch: true }],
    async run(c) {
      const props = has(c, 'Property') ? enumerate(arg(c, 'Property')).map(toStr) : undefined;
      const marker = `#${kind}:${props?.join(',') ?? ''}`;
      for (const it of c.bound.input ?? []) {
        const names = props ?? (it instanceof PsObject ? it.names() : it instanceof DotNet ? it.properties() : []);
        if (names.length === 0) { c.out.emit(it); continue; }
        const o = new PsObject([marker]);
        for (const p of names) o.setProp(p, getMember(it, p) ?? null);
        registerView(marker, { kind, columns: names.map((n) => ({ name: n })) });
        c.out.emit(o);
      }
    },
  };
}

function toJson(v: PsValue, depth: number, compress: boolean, indent: string): string {
  const nl = compress ? '' : '\r\n';
  const sp = compress ? '' : '    ';
  const sep = compress ? ':' : ':  ';
  if (v === null) return 'null';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof DateTime) return JSON.stringify(`\\/Date(${v.ms})\\/`).replace(/\\\\/g, '\\');
  if (Array.isArray(v) || Buffer.isBuffer(v)) {
    const items = Buffer.isBuffer(v) ? [...v] : v;
    if (items.length === 0) return '[]';
    return `[${nl}${items.map((x) => indent + sp + (depth <= 0 ? JSON.stringify(toStr(x)) : toJson(x, depth - 1, compress, indent + sp))).join(`,${nl}`)}${nl}${indent}]`;
  }
  let entries: [string, PsValue][];
  if (v instanceof Hashtable) entries = v.entries().map(([k, x]) => [toStr(k), x]);
  else if (v instanceof PsObject) entries = v.names().map((n) => [n, v.getProp(n) ?? null]);
  else if (v instanceof DotNet) entries = v.properties().map((n) => [n, v.get(n) ?? null]);
  else return JSON.stringify(toStr(v));
  if (depth < 0) return JSON.stringify(toStr(v));
  return `{${nl}${entries.map(([k, x]) => `${indent}${sp}${JSON.stringify(k)}${sep}${depth <= 0 && x !== null && typeof x === 'object' ? JSON.stringify(toStr(x)) : toJson(x, depth - 1, compress, indent + sp)}`).join(`,${nl}`)}${nl}${indent}}`;
}

const convertToJson: Cmdlet = {
  name: 'ConvertTo-Json',
  params: [{ name: 'InputObject', position: 0 }, { name: 'Depth' }, { name: 'Compress', switch: true }],
  async run(c) {
    const items = has(c, 'InputObject') ? [arg(c, 'InputObject')] : c.bound.input ?? [];
    const v = items.length === 1 ? items[0] : items;
    c.out.emit(toJson(v, has(c, 'Depth') ? toNum(arg(c, 'Depth')) : 2, has(c, 'Compress'), ''));
  },
};

const convertFromJson: Cmdlet = {
  name: 'ConvertFrom-Json',
  params: [{ name: 'InputObject', position: 0 }],
  async run(c) {
    const text = has(c, 'InputObject') ? toStr(arg(c, 'InputObject')) : (c.bound.input ?? []).map(toStr).join('\n');
    let parsed: unknown;
    try { parsed = JSON.parse(text); } catch (e) {
      c.ps.writeError(new PsError(`Invalid JSON primitive: ${text.slice(0, 20)}.`, 'NotSpecified', `System.ArgumentException,${cmdletFqid(c.name)}`, { command: c.name, exceptionType: 'ArgumentException' }));
      void e;
      return;
    }
    c.out.emit(fromJsonValue(parsed));
  },
};

export const OUTPUT_CMDLETS: Cmdlet[] = [
  writeHost, writeOutput, writeError, writeWarning, quiet('Write-Verbose'), quiet('Write-Debug'), quiet('Write-Progress'), quiet('Write-Information'),
  quiet('Set-ExecutionPolicy'), quiet('Import-Module'), quiet('Set-StrictMode'), outNull, outHost, outString,
  formatCmd('Format-Table', 'table'), formatCmd('Format-List', 'list'), convertToJson, convertFromJson,
];
