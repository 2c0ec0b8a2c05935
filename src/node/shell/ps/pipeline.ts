// Pipelines: redirections (>, >>, 2>, *>, 2>&1, > $null), the elements in order with each one's output as the
// next one's input, and Out-File's way of writing files.

import type { PipeElem, Pipeline } from './ast.js';
import type { Sink } from './cmdlet-api.js';
import type { Ps } from './interp.js';
import { formatToString } from './format.js';
import { enumerate, PsError, toStr, unwrap, type PsValue } from './values.js';
import { FsError } from '../fs/vfs.js';
import { Capture, type Output } from '../core/streams.js';

export type FileEncoding = 'unicode' | 'utf8' | 'ascii';

/** A pipeline's output as one value ($null, an item or an array). */
export async function pipelineValue(ps: Ps, p: Pipeline): Promise<PsValue> {
  const vals: PsValue[] = [];
  await ps.runPipeline(p, { emit: (v) => vals.push(v) });
  return unwrap(vals);
}

export async function runPipeline(ps: Ps, p: Pipeline, out: Sink): Promise<void> {
  if (p.chain) {
    // `a && b || c` runs left to right; each link runs when `$?` after the previous one is true (&&) or false (||).
    await runPipeline(ps, { ...p, chain: undefined }, out);
    for (const link of p.chain) if (ps.lastOk === (link.op === '&&')) await runPipeline(ps, link.p, out);
    return;
  }
  if (p.assign) { out.emit(await ps.assign(p.assign)); ps.lastOk = true; return; }
  let sink = out;
  const savedErr = ps.errorStream;
  const finishers: (() => void)[] = [];
  const discard: Output = { write: () => undefined, isTTY: false };
  for (const r of p.redirs) {
    if (r.op === '>&1') {
      ps.errorStream = out.host ? ps.ctx.stdout : { write: (c) => { for (const l of c.toString().replace(/\r\n$/, '').split(/\r?\n/)) out.emit(l); }, isTTY: false };
      continue;
    }
    const toNull = r.target?.t === 'var' && r.target.name.toLowerCase() === 'null';
    if (toNull) {
      if (r.fd === 2 || r.fd === '*') ps.errorStream = discard;
      if (r.fd !== 2) sink = { emit: () => undefined };
      continue;
    }
    const target = r.target ? toStr(await ps.eval(r.target)) : '';
    const append = r.op === '>>';
    if (r.fd === 2) {
      const cap = new Capture();
      ps.errorStream = cap;
      finishers.push(() => writeFile(ps, target, cap.text(), append, 'Out-File'));
      continue;
    }
    const vals: PsValue[] = [];
    sink = { emit: (v) => vals.push(v) };
    if (r.fd === '*') ps.errorStream = discard;
    finishers.push(() => writeFile(ps, target, formatToString(vals), append, 'Out-File'));
  }
  try {
    await runElements(ps, p.elems, sink);
  } finally {
    ps.errorStream = savedErr;
  }
  for (const f of finishers) f();
}

/** Writes text the way Out-File / `>` does in Windows PowerShell 5.1: UTF-16LE with a byte-order mark. */
export function writeFile(ps: Ps, path: string, text: string, append: boolean, command: string, encoding: FileEncoding = 'unicode'): void {
  const fs = ps.ctx.env.fs;
  const abs = fs.resolve(ps.ctx.cwd, path);
  const existing = append ? fs.stat(abs) : undefined;
  let buf: Buffer;
  if (encoding === 'unicode') buf = Buffer.concat([existing ? Buffer.alloc(0) : Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  else buf = Buffer.from(text, encoding === 'ascii' ? 'latin1' : 'utf8');
  try {
    fs.writeFile(abs, buf, { append, cred: ps.ctx.cred });
  } catch (e) {
    if (!(e instanceof FsError)) throw e;
    const denied = e.code === 'EACCES' || e.code === 'EROFS' || e.code === 'EISDIR';
    ps.writeError(new PsError(denied ? `Access to the path '${abs}' is denied.` : `Could not find a part of the path '${abs}'.`, denied ? 'OpenError' : 'OpenError', denied ? `FileOpenFailure,${command === 'Out-File' ? 'Microsoft.PowerShell.Commands.OutFileCommand' : 'Microsoft.PowerShell.Commands.SetContentCommand'}` : 'FileOpenFailure', { command: command.toLowerCase() === 'out-file' ? 'out-file' : command, target: '', exceptionType: denied ? 'UnauthorizedAccessException' : 'DirectoryNotFoundException' }));
  }
}

export async function runElements(ps: Ps, elems: PipeElem[], out: Sink): Promise<void> {
  let input: PsValue[] | undefined;
  for (let i = 0; i < elems.length; i++) {
    const el = elems[i];
    const last = i === elems.length - 1;
    const collected: PsValue[] = [];
    const sink: Sink = last ? out : { emit: (v) => collected.push(v) };
    if (el.t === 'expr') {
      const v = await ps.eval(el.expr);
      ps.lastOk = true;
      // `$i++` as a statement outputs nothing; `($i++)` does.
      if (el.expr.t === 'incdec') continue;
      if (el.expr.t === 'paren' || el.expr.t === 'sub' || el.expr.t === 'arrayexpr' || Array.isArray(v)) for (const x of enumerate(v)) sink.emit(x);
      else if (v !== null || el.expr.t === 'var' || el.expr.t === 'invoke') { if (v !== null) sink.emit(v); }
    } else {
      await ps.invokeCommand(el, input, sink);
    }
    input = collected;
  }
}
