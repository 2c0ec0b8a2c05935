// Core cmdlets of Windows PowerShell 5.1: Start-Sleep (on the container clock), Get-Date, the pipeline helpers
// (ForEach-Object and Where-Object run their block in the caller's scope), New-Object, Invoke-Expression and
// Get-Process; the lists of all core cmdlets and aliases.

import { sleep } from '../core/ctx.js';
import { cmdletFqid, type Cmdlet, type CmdletCall } from './cmdlet-api.js';
import { DateTime, GROWABLE, dotnetDate } from './dotnet.js';
import { registerView } from './format.js';
import { HttpListener, TcpClient, WebClient } from './net-objects.js';
import { PsParser } from './parser.js';
import { DotNet, enumerate, Hashtable, PsError, PsObject, ScriptBlock, toBool, toNum, toStr, type PsValue } from './values.js';
import { binary } from './operators.js';
import { getMember } from './members.js';
import { FlowSignal } from './signals.js';
import { exceptionObject, isExceptionType } from './exceptions.js';
import { FS_CMDLETS } from './cmdlets-fs.js';
import { forEachParallel } from './foreach-parallel.js';
import { OUTPUT_CMDLETS } from './cmdlets-output.js';

const arg = (c: CmdletCall, n: string): PsValue => c.bound.get(n) ?? null;
const has = (c: CmdletCall, n: string) => c.bound.has(n);

const startSleep: Cmdlet = {
  name: 'Start-Sleep',
  params: [{ name: 'Seconds', aliases: ['s'], position: 0 }, { name: 'Milliseconds', aliases: ['m'] }],
  async run(c) {
    const ms = has(c, 'Milliseconds') ? toNum(arg(c, 'Milliseconds')) : toNum(arg(c, 'Seconds')) * 1000;
    await sleep(c.ps.ctx, ms);
  },
};

const getDate: Cmdlet = {
  name: 'Get-Date',
  params: [{ name: 'Date', position: 0 }, { name: 'Format' }, { name: 'UFormat' }],
  async run(c) {
    const ms = has(c, 'Date') ? Date.parse(toStr(arg(c, 'Date'))) : c.ps.ctx.env.clock.now();
    if (has(c, 'Format')) { c.out.emit(dotnetDate(ms, toStr(arg(c, 'Format')))); return; }
    if (has(c, 'UFormat')) { c.out.emit(toStr(arg(c, 'UFormat')).replace(/%s/g, String(Math.floor(ms / 1000))).replace(/%Y/g, dotnetDate(ms, 'yyyy')).replace(/%m/g, dotnetDate(ms, 'MM')).replace(/%d/g, dotnetDate(ms, 'dd')).replace(/%H/g, dotnetDate(ms, 'HH')).replace(/%M/g, dotnetDate(ms, 'mm')).replace(/%S/g, dotnetDate(ms, 'ss'))); return; }
    c.out.emit(new DateTime(ms));
  },
};

const forEachObject: Cmdlet = {
  name: 'ForEach-Object',
  params: [{ name: 'Process', position: 0, remaining: true }, { name: 'Begin' }, { name: 'End' }, { name: 'MemberName' },
    { name: 'Parallel', edition: 'Core' }, { name: 'ThrottleLimit', edition: 'Core' }, { name: 'TimeoutSeconds', edition: 'Core' }],
  async run(c) {
    const parallel = arg(c, 'Parallel');
    if (parallel instanceof ScriptBlock) return forEachParallel(c, parallel);
    const process = arg(c, 'Process');
    const blocks = enumerate(process);
    if (has(c, 'Begin') && arg(c, 'Begin') instanceof ScriptBlock) await c.ps.callBlock(arg(c, 'Begin') as ScriptBlock, [], undefined, c.out, true);
    for (const item of c.bound.input ?? []) {
      if (typeof process === 'string') { const m = getMember(item, process); if (m !== undefined && m !== null) c.out.emit(m); continue; }
      for (const b of blocks) {
        if (!(b instanceof ScriptBlock)) continue;
        try {
          // ForEach-Object runs its block in the caller's scope: assignments stick.
          await c.ps.callBlock(b, [], undefined, c.out, true, item);
        } catch (e) {
          if (e instanceof FlowSignal && e.kind === 'continue' && e.label === undefined) continue;
          throw e;
        }
      }
    }
    if (has(c, 'End') && arg(c, 'End') instanceof ScriptBlock) await c.ps.callBlock(arg(c, 'End') as ScriptBlock, [], undefined, c.out, true);
  },
};

const whereObject: Cmdlet = {
  name: 'Where-Object',
  params: [{ name: 'FilterScript', position: 0 }, { name: 'Value', position: 1 }, { name: 'EQ', switch: true }, { name: 'NE', switch: true }, { name: 'Like', switch: true }, { name: 'Match', switch: true }, { name: 'GT', switch: true }, { name: 'LT', switch: true }],
  async run(c) {
    const f = arg(c, 'FilterScript');
    for (const item of c.bound.input ?? []) {
      let keep: boolean;
      if (f instanceof ScriptBlock) {
        const vals: PsValue[] = [];
        await c.ps.callBlock(f, [], undefined, { emit: (v) => vals.push(v) }, true, item);
        keep = toBool(vals.length === 1 ? vals[0] : vals);
      } else {
        const prop = getMember(item, toStr(f)) ?? null;
        const op = ['EQ', 'NE', 'Like', 'Match', 'GT', 'LT'].find((o) => has(c, o))?.toLowerCase();
        keep = op ? toBool(binary(op, prop, arg(c, 'Value'))) : toBool(prop);
      }
      if (keep) c.out.emit(item);
    }
  },
};

const selectObject: Cmdlet = {
  name: 'Select-Object',
  params: [{ name: 'Property', position: 0 }, { name: 'First' }, { name: 'Last' }, { name: 'Skip' }, { name: 'ExpandProperty' }, { name: 'Unique', switch: true }, { name: 'InputObject' }],
  async run(c) {
    let items = has(c, 'InputObject') ? enumerate(arg(c, 'InputObject')) : c.bound.input ?? [];
    if (has(c, 'Skip')) items = items.slice(toNum(arg(c, 'Skip')));
    if (has(c, 'First')) items = items.slice(0, toNum(arg(c, 'First')));
    if (has(c, 'Last')) items = items.slice(Math.max(0, items.length - toNum(arg(c, 'Last'))));
    if (has(c, 'Unique')) items = items.filter((x, i) => items.findIndex((y) => toStr(y) === toStr(x)) === i);
    for (const it of items) {
      if (has(c, 'ExpandProperty')) { for (const v of enumerate(getMember(it, toStr(arg(c, 'ExpandProperty'))) ?? null)) c.out.emit(v); continue; }
      if (has(c, 'Property')) {
        const o = new PsObject(['Selected.' + (it instanceof DotNet ? it.typeName : 'System.Management.Automation.PSCustomObject')]);
        for (const p of enumerate(arg(c, 'Property')).map(toStr)) o.setProp(p, getMember(it, p) ?? null);
        c.out.emit(o);
        continue;
      }
      c.out.emit(it);
    }
  },
};

const sortObject: Cmdlet = {
  name: 'Sort-Object',
  params: [{ name: 'Property', position: 0 }, { name: 'Descending', switch: true }, { name: 'Unique', switch: true }],
  async run(c) {
    const key = (v: PsValue) => (has(c, 'Property') ? getMember(v, toStr(arg(c, 'Property'))) ?? null : v);
    const items = [...(c.bound.input ?? [])].sort((a, b) => {
      const x = key(a); const y = key(b);
      return typeof x === 'number' && typeof y === 'number' ? x - y : toStr(x).toLowerCase().localeCompare(toStr(y).toLowerCase());
    });
    if (has(c, 'Descending')) items.reverse();
    for (const it of items) c.out.emit(it);
  },
};

const measureObject: Cmdlet = {
  name: 'Measure-Object',
  params: [{ name: 'Property', position: 0 }, { name: 'Sum', switch: true }, { name: 'Average', switch: true }, { name: 'Maximum', switch: true }, { name: 'Minimum', switch: true }, { name: 'Line', switch: true }],
  async run(c) {
    const items = (c.bound.input ?? []).map((v) => (has(c, 'Property') ? getMember(v, toStr(arg(c, 'Property'))) ?? null : v));
    // Only the statistics asked for convert to numbers: a plain count takes objects of any type.
    const numeric = ['Sum', 'Average', 'Maximum', 'Minimum'].some((k) => has(c, k));
    const nums = numeric ? items.map((x) => toNum(x, false)) : [];
    const o = new PsObject(['Microsoft.PowerShell.Commands.GenericMeasureInfo']);
    o.setProp('Count', items.length);
    o.setProp('Average', has(c, 'Average') ? nums.reduce((a, b) => a + b, 0) / (nums.length || 1) : null);
    o.setProp('Sum', has(c, 'Sum') ? nums.reduce((a, b) => a + b, 0) : null);
    o.setProp('Maximum', has(c, 'Maximum') ? Math.max(...nums) : null);
    o.setProp('Minimum', has(c, 'Minimum') ? Math.min(...nums) : null);
    o.setProp('Property', has(c, 'Property') ? toStr(arg(c, 'Property')) : null);
    c.out.emit(o);
  },
};

const newObject: Cmdlet = {
  name: 'New-Object',
  params: [{ name: 'TypeName', position: 0 }, { name: 'ArgumentList', aliases: ['Args'], position: 1, remaining: true }, { name: 'Property' }],
  async run(c) {
    const t = toStr(arg(c, 'TypeName')).toLowerCase().replace(/^system\./, '');
    const args = enumerate(arg(c, 'ArgumentList'));
    const ctx = c.ps.ctx;
    switch (t) {
      case 'net.httplistener': c.out.emit(new HttpListener(ctx)); return;
      case 'net.webclient': c.out.emit(new WebClient(ctx)); return;
      case 'net.sockets.tcpclient':
        if (args.length >= 2) { c.out.emit(await TcpClient.connect(ctx, toStr(args[0]), toNum(args[1]))); return; }
        c.out.emit(new TcpClient());
        return;
      case 'collections.arraylist': case 'collections.generic.list[string]': case 'collections.generic.list[object]': {
        const a: PsValue[] = [];
        GROWABLE.add(a);
        c.out.emit(a);
        return;
      }
      case 'collections.hashtable': c.out.emit(new Hashtable()); return;
      case 'psobject': case 'pscustomobject': case 'object': case 'management.automation.psobject': {
        const o = new PsObject();
        const p = arg(c, 'Property');
        if (p instanceof Hashtable) for (const [k, v] of p.entries()) o.setProp(toStr(k), v);
        c.out.emit(o);
        return;
      }
      case 'datetime': c.out.emit(new DateTime(Date.UTC(toNum(args[0] ?? 1), toNum(args[1] ?? 1) - 1, toNum(args[2] ?? 1)))); return;
    }
    if (isExceptionType(t)) { c.out.emit(exceptionObject(t, args.length ? toStr(args[0]) : undefined, args[1] ?? null)); return; }
    throw new PsError(`Cannot find type [${toStr(arg(c, 'TypeName'))}]: verify that the assembly containing this type is loaded.`, 'InvalidType', `TypeNotFound,${cmdletFqid(c.name)}`, { command: c.name, exceptionType: 'PSArgumentException' });
  },
};

const invokeExpression: Cmdlet = {
  name: 'Invoke-Expression',
  params: [{ name: 'Command', position: 0 }],
  async run(c) {
    const src = toStr(arg(c, 'Command'));
    const body = PsParser.parse(src, c.ps.edition);
    const savedSrc = c.ps.src;
    c.ps.src = src;
    try { await c.ps.runBlock(body, c.out); } finally { c.ps.src = savedSrc; }
  },
};

registerView('System.Diagnostics.Process', {
  kind: 'table',
  columns: [
    { name: 'Handles', width: 7, align: 'right', value: () => '    210' },
    { name: 'NPM(K)', width: 7, align: 'right', value: () => '13' },
    { name: 'PM(K)', width: 8, align: 'right', value: (v) => String(Math.round(toNum(getMember(v, 'WS') ?? 0) / 2048)) },
    { name: 'WS(K)', width: 10, align: 'right', value: (v) => String(Math.round(toNum(getMember(v, 'WS') ?? 0) / 1024)) },
    { name: 'CPU(s)', width: 10, align: 'right', value: () => '0.06' },
    { name: 'Id', width: 6, align: 'right', value: (v) => toStr(getMember(v, 'Id') ?? null) },
    { name: 'SI', width: 3, align: 'right', value: () => '1' },
    { name: 'ProcessName', value: (v) => toStr(getMember(v, 'ProcessName') ?? null) },
  ],
});

const getProcess: Cmdlet = {
  name: 'Get-Process',
  params: [{ name: 'Name', position: 0 }, { name: 'Id' }],
  async run(c) {
    const procs = c.ps.ctx.env.processes();
    procs.push({ pid: Math.max(0, ...procs.map((p) => p.pid)) + 4, name: 'powershell.exe', memKB: 65_000 });
    const want = has(c, 'Name') ? toStr(arg(c, 'Name')).toLowerCase() : undefined;
    for (const p of procs) {
      const name = p.name.replace(/\.exe$/i, '');
      if (want && name.toLowerCase() !== want) continue;
      if (has(c, 'Id') && toNum(arg(c, 'Id')) !== p.pid) continue;
      c.out.emit(new PsObject(['System.Diagnostics.Process'], { ProcessName: name, Id: p.pid, WS: p.memKB * 1024 }));
    }
  },
};

const clearHost: Cmdlet = { name: 'Clear-Host', params: [], async run() { /* nothing to clear in a log */ } };

export const CORE_CMDLETS: Cmdlet[] = [
  ...OUTPUT_CMDLETS, ...FS_CMDLETS,
  startSleep, getDate, forEachObject, whereObject, selectObject, sortObject, measureObject, newObject, invokeExpression, getProcess, clearHost,
];

export const CORE_ALIASES: Record<string, string> = {
  '%': 'foreach-object', foreach: 'foreach-object', '?': 'where-object', where: 'where-object', echo: 'write-output', write: 'write-output',
  dir: 'get-childitem', ls: 'get-childitem', gci: 'get-childitem', cat: 'get-content', type: 'get-content', gc: 'get-content',
  cd: 'set-location', sl: 'set-location', chdir: 'set-location', pwd: 'get-location', gl: 'get-location', sleep: 'start-sleep',
  rm: 'remove-item', del: 'remove-item', ri: 'remove-item', erase: 'remove-item', rd: 'remove-item', rmdir: 'remove-item', ni: 'new-item',
  select: 'select-object', sort: 'sort-object', measure: 'measure-object', ft: 'format-table', fl: 'format-list', iex: 'invoke-expression',
  ps: 'get-process', gps: 'get-process', cls: 'clear-host', clear: 'clear-host', sc: 'set-content', ac: 'add-content',
};
