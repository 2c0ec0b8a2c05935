// Out-Default: how pipeline output reaches the console. Strings and numbers print as-is; objects use their type's
// view (table or list) or, without one, a table for up to four properties and a list for five or more; runs of
// objects of one type share one table header. Error records render in the console's error view.

import { DotNet, Hashtable, PsError, PsObject, toStr, typeName, type PsValue } from './values.js';

/** A formatting view for a type: columns (table) or properties (list), with optional value formatting. */
export interface View {
  kind: 'table' | 'list';
  /** Tables split into groups with a header line (Get-ChildItem's `    Directory: C:\`). */
  group?: { key(v: PsValue): string; header(v: PsValue): string };
  columns: { name: string; label?: string; width?: number; align?: 'left' | 'right'; value?: (v: PsValue) => string }[];
}

const VIEWS = new Map<string, View>();
export function registerView(type: string, view: View): void { VIEWS.set(type, view); }

function props(v: PsValue): string[] {
  if (v instanceof PsObject) return v.names();
  if (v instanceof DotNet) return v.properties();
  return [];
}

function prop(v: PsValue, name: string): PsValue {
  if (v instanceof PsObject) return v.getProp(name) ?? null;
  if (v instanceof DotNet) return v.get(name) ?? null;
  return null;
}

/** How a property value shows inside a table or list cell. */
export function cell(v: PsValue): string {
  if (v === null) return '';
  if (Array.isArray(v)) return `{${v.slice(0, 4).map(cell).join(', ')}${v.length > 4 ? '...' : ''}}`;
  if (Buffer.isBuffer(v)) return `{${[...v.subarray(0, 4)].join(', ')}${v.length > 4 ? '...' : ''}}`;
  if (v instanceof Hashtable) return `{${v.entries().slice(0, 4).map(([k, x]) => `[${toStr(k)}, ${toStr(x)}]`).join(', ')}${v.size > 4 ? '...' : ''}}`;
  return toStr(v);
}

function viewOf(v: PsValue): View | undefined {
  const t = (v as { viewKey?: string } | null)?.viewKey ?? typeName(v);
  const named = VIEWS.get(t);
  if (named) return named;
  const names = props(v);
  if (names.length === 0) return undefined;
  // Numbers are right-aligned in tables.
  return { kind: names.length <= 4 ? 'table' : 'list', columns: names.map((name) => ({ name, align: typeof prop(v, name) === 'number' ? 'right' as const : undefined })) };
}

export function listText(v: PsValue, view: View): string[] {
  const cols = view.columns;
  const w = Math.max(...cols.map((c) => (c.label ?? c.name).length));
  const lines: string[] = [];
  for (const c of cols) {
    const raw = prop(v, c.name);
    const text = c.value ? c.value(v) : cell(raw);
    const parts = text.split(/\r?\n/);
    lines.push(`${(c.label ?? c.name).padEnd(w)} : ${parts[0]}`);
    for (const p of parts.slice(1)) lines.push(`${' '.repeat(w + 3)}${p}`);
  }
  return lines;
}

function tableHeader(view: View, rows: PsValue[]): { header: string[]; widths: number[] } {
  const widths = view.columns.map((c) => c.width ?? Math.max((c.label ?? c.name).length, ...rows.map((r) => (c.value ? c.value(r) : cell(prop(r, c.name))).length)));
  const pad = (s: string, i: number) => (view.columns[i].align === 'right' ? s.padStart(widths[i]) : s.padEnd(widths[i]));
  const header = [
    view.columns.map((c, i) => pad(c.label ?? c.name, i)).join(' ').trimEnd(),
    view.columns.map((c, i) => pad('-'.repeat((c.label ?? c.name).length), i)).join(' ').trimEnd(),
  ];
  return { header, widths };
}

function tableRow(view: View, widths: number[], v: PsValue): string {
  return view.columns.map((c, i) => {
    let s = c.value ? c.value(v) : cell(prop(v, c.name));
    if (i < view.columns.length - 1 && s.length > widths[i]) s = `${s.slice(0, Math.max(0, widths[i] - 3))}...`;
    return c.align === 'right' ? s.padStart(widths[i]) : i === view.columns.length - 1 ? s : s.padEnd(widths[i]);
  }).join(' ').trimEnd();
}

/** Streams formatted output to the console, keeping one table header per run of same-typed objects. */
export class HostFormatter {
  private group?: { type: string; view: View; widths: number[]; groupKey?: string };
  constructor(private readonly write: (s: string) => void, private readonly nl = '\r\n') {}

  emit(v: PsValue): void {
    if (v === null) return;
    if (Array.isArray(v)) { for (const x of v) this.emit(x); return; }
    if (v instanceof Hashtable) {
      this.end();
      const rows = v.entries();
      const nw = Math.max(4, ...rows.map(([k]) => toStr(k).length));
      const w = Math.max(nw, 30);
      this.write(`${this.nl}${'Name'.padEnd(w)} Value${this.nl}${'----'.padEnd(w)} -----${this.nl}${rows.map(([k, x]) => `${toStr(k).padEnd(w)} ${cell(x)}${this.nl}`).join('')}${this.nl}`);
      return;
    }
    const display = (v as { display?: () => string }).display;
    if (v instanceof DotNet && typeof display === 'function') {
      this.end();
      this.write(`${this.nl}${display.call(v)}${this.nl}${this.nl}`);
      return;
    }
    const view = viewOf(v);
    if (!view) {
      this.end();
      this.write(toStr(v) + this.nl);
      return;
    }
    const type = (v as { viewKey?: string }).viewKey ?? typeName(v);
    const groupKey = view.group?.key(v);
    if (view.group && this.group?.type === type && this.group.groupKey !== groupKey) this.end();
    if (view.kind === 'list') {
      if (this.group?.type !== type) { this.end(); this.write(this.nl); }
      this.group = { type, view, widths: [] };
      this.write(`${this.nl}${listText(v, view).join(this.nl)}${this.nl}`);
      return;
    }
    if (this.group?.type !== type) {
      this.end();
      const { header, widths } = tableHeader(view, [v]);
      this.group = { type, view, widths, groupKey };
      if (view.group) this.write(`${this.nl}${this.nl}${view.group.header(v)}${this.nl}${this.nl}`);
      this.write(`${this.nl}${header.join(this.nl)}${this.nl}`);
    }
    this.write(tableRow(view, this.group.widths, v) + this.nl);
  }

  /** Closes a table or list run (the blank lines PowerShell ends them with). */
  end(): void {
    if (!this.group) return;
    this.write(this.group.view.kind === 'list' || this.group.view.group ? `${this.nl}${this.nl}` : this.nl);
    this.group = undefined;
  }
}

/** Formats values as Out-String does (for Format-Table | Out-String and capture into strings). */
export function formatToString(values: PsValue[], nl = '\r\n'): string {
  let out = '';
  const f = new HostFormatter((s) => { out += s; }, nl);
  for (const v of values) f.emit(v);
  f.end();
  return out;
}

/** Word-wraps a message at the console width, breaking after spaces as the console host does. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let rest = line;
    while (rest.length > width) {
      let cut = rest.lastIndexOf(' ', width - 1);
      if (cut <= 0) cut = width - 1;
      out.push(rest.slice(0, cut + 1));
      rest = rest.slice(cut + 1);
    }
    out.push(rest);
  }
  return out;
}

/** An error's InvocationInfo.PositionMessage: `At <script or line>:<n> char:<c>`, the line, the underline. */
export function positionMessage(e: PsError, src: string, width: number): { lines: string[]; lineNo: number; path?: string } | undefined {
  if (e.pos === undefined) return undefined;
  const path = e.origin?.path;
  if (e.origin) src = e.origin.src;
  const before = src.slice(0, e.pos);
  const lineNo = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = src.indexOf('\n', e.pos) < 0 ? src.length : src.indexOf('\n', e.pos);
  const text = src.slice(lineStart, lineEnd).replace(/\r$/, '');
  const col = e.pos - lineStart;
  const len = Math.max(1, Math.min((e.end ?? e.pos + 1) - e.pos, text.length - col));
  const lines = [`At ${path ?? 'line'}:${lineNo} char:${col + 1}`];
  const max = width - 3;
  if (text.length <= max) {
    lines.push(`+ ${text}`, `+ ${' '.repeat(col)}${'~'.repeat(len)}`);
  } else {
    const start = Math.max(0, col - 45);
    const shown = text.slice(start, start + max - 8);
    lines.push(`+ ${start > 0 ? '... ' : ''}${shown}${start + max - 8 < text.length ? ' ...' : ''}`, `+ ${' '.repeat((start > 0 ? 4 : 0) + col - start)}${'~'.repeat(Math.min(len, max - col))}`);
  }
  return { lines, lineNo, path };
}

/** CategoryInfo.ToString(): `NotSpecified: (:) [Write-Error], WriteErrorException`. */
export function categoryInfo(e: PsError): string {
  const target = e.target || '';
  return `${e.category}: (${target}:${e.targetType || (target ? 'String' : '')}) [${e.activity ?? e.command}], ${e.exceptionType}`;
}

/**
 * The console's "NormalView" of an error record: the command prefix, the message, the position message, then the
 * CategoryInfo and FullyQualifiedErrorId lines (PowerShell's DefaultFormatters PowerShellCore_format_ps1xml.cs,
 * ErrorInstance). Windows PowerShell 5.1 indents those two lines by four and ends the record with a line holding one
 * space; PowerShell 7 does neither.
 */
export function errorView(e: PsError, src: string, width: number, edition: 'Desktop' | 'Core' = 'Desktop'): string {
  const lines: string[] = [];
  const head = e.command ? `${e.command} : ${e.message}` : e.target && e.exceptionType === 'CommandNotFoundException' ? `${e.target} : ${e.message}` : e.message;
  lines.push(...wrap(head, width));
  lines.push(...positionMessage(e, src, width)?.lines ?? []);
  const indent = edition === 'Desktop' ? '    ' : '';
  lines.push(`${indent}+ CategoryInfo          : ${categoryInfo(e)}`);
  lines.push(`${indent}+ FullyQualifiedErrorId : ${e.errorId}`);
  if (edition === 'Desktop') lines.push(' ');
  return lines.join('\r\n') + '\r\n';
}
