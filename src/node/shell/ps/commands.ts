// Commands: what a name resolves to (script block, function, alias, cmdlet, .ps1 file, native program), the
// argument values (with @splatting), -ErrorAction around a cmdlet, and native programs run from PATH.

import type { CmdArg, PipeElem } from './ast.js';
import { bind, type RawArg, type Sink } from './cmdlet-api.js';
import type { Ps } from './interp.js';
import { UNAVAILABLE_CMDLETS } from './cmdlets-jobs.js';
import { runScriptFile } from './script-file.js';
import { callBlock } from './functions.js';
import { enumerate, Hashtable, PsError, ScriptBlock, toStr, type PsValue } from './values.js';
import { findWindows, runFound } from '../core/exec.js';
import { BufferInput, Capture } from '../core/streams.js';
import { joinWindowsArgs } from '../win/cmdline.js';

export async function argValues(ps: Ps, args: CmdArg[]): Promise<RawArg[]> {
  const out: RawArg[] = [];
  for (const a of args) {
    if (a.t === 'param') out.push({ name: a.name, value: a.value ? await ps.eval(a.value) : undefined, hasValue: !!a.value, pos: a.pos, end: a.value?.end });
    else if (a.t === 'splat') {
      // @h: each entry is `-Key:value`; @a: each item a positional argument (about_Splatting).
      const v = ps.getVar(a.name);
      if (v instanceof Hashtable) for (const [k, x] of v.entries()) out.push({ name: toStr(k), value: x, hasValue: true, pos: a.pos });
      else for (const x of enumerate(v)) out.push({ value: x, hasValue: true, pos: a.pos });
    } else out.push({ value: await ps.eval(a.value), hasValue: true, pos: a.value.pos, end: a.value.end });
  }
  return out;
}

export async function invokeCommand(ps: Ps, el: Extract<PipeElem, { t: 'command' }>, input: PsValue[] | undefined, out: Sink): Promise<void> {
  const nameVal = await ps.eval(el.name);
  if (nameVal instanceof ScriptBlock) {
    await callBlock(ps, nameVal, await argValues(ps, el.args), input, out, el.call === '.');
    return;
  }
  const name = toStr(nameVal);
  const lower = name.toLowerCase();
  const resolved = ps.registry.aliases.get(lower) ?? lower;
  const fn = ps.functions.get(resolved);
  if (fn) {
    const raw = await argValues(ps, el.args);
    ps.invocations.push({ name: fn.name, idName: fn.name, site: { pos: el.pos, end: el.end, origin: { src: ps.src, path: ps.scriptPath } } });
    try {
      await ps.callFunction(fn, raw, input, out);
    } finally {
      ps.invocations.pop();
    }
    return;
  }
  const cmdlet = ps.registry.cmdlets.get(resolved);
  if (cmdlet) {
    const raw = await argValues(ps, el.args);
    const bound = bind(cmdlet, raw, input, ps.edition);
    const action = bound.get('ErrorAction');
    const savedPref = ps.getVar('ErrorActionPreference');
    if (action !== undefined) ps.scopes[ps.scopes.length - 1].set('erroractionpreference', action);
    ps.lastOk = true;
    try {
      await cmdlet.run({ name: cmdlet.name, bound, ps, out, pos: el.pos, end: el.end });
    } catch (e) {
      if (e instanceof PsError && !e.command) e.command = cmdlet.name;
      if (e instanceof PsError && e.pos === undefined) { e.pos = el.pos; e.end = el.end; }
      throw e;
    } finally {
      if (action !== undefined) ps.scopes[ps.scopes.length - 1].set('erroractionpreference', savedPref);
    }
    return;
  }
  if (UNAVAILABLE_CMDLETS.has(resolved)) {
    ps.host.end();
    ps.errorStream.write(`winkube: "${name}" is not available in this emulated container\r\n`);
    ps.lastOk = false;
    return;
  }
  if (/\.ps1$/i.test(name)) {
    await runScriptFile(ps, name, await argValues(ps, el.args), out, el);
    return;
  }
  await native(ps, name, el, input, out);
}

/** Runs a native program: PATH and PATHEXT (not the current directory), output as lines of text. */
async function native(ps: Ps, name: string, el: Extract<PipeElem, { t: 'command' }>, input: PsValue[] | undefined, out: Sink): Promise<void> {
  const found = findWindows(ps.ctx.env, name, ps.ctx.vars, ps.ctx.cwd, /[\\/]/.test(name) ? 'cmd' : 'powershell');
  if ('error' in found) {
    throw new PsError(`The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.`, 'ObjectNotFound', 'CommandNotFoundException', { target: name, exceptionType: 'CommandNotFoundException', pos: el.name.pos, end: el.name.end });
  }
  const argv = [name];
  for (const a of await argValues(ps, el.args)) {
    if (a.name !== undefined) argv.push(a.hasValue ? `-${a.name}:${toStr(a.value ?? null)}` : `-${a.name}`);
    else argv.push(...(Array.isArray(a.value) ? a.value.map(toStr) : [toStr(a.value ?? null)]));
  }
  const toHost = !!out.host;
  const cap = new Capture();
  if (toHost) out.host!.end();
  const stdinText = input && input.length ? `${input.map(toStr).join('\r\n')}\r\n` : undefined;
  const r = await runFound(ps.ctx, found, argv, {
    stdin: stdinText !== undefined ? new BufferInput(stdinText) : ps.ctx.stdin,
    stdout: toHost ? ps.ctx.stdout : cap,
    stderr: ps.errorStream,
    vars: ps.ctx.vars,
    cwd: ps.ctx.cwd,
    cmdline: joinWindowsArgs(argv),
  });
  const code = typeof r === 'number' ? r : 1;
  ps.lastExitCode = code;
  if (!toHost) {
    const text = cap.text().replace(/\r?\n$/, '');
    if (text !== '' || cap.buffer().length) for (const line of text.split(/\r?\n/)) out.emit(line);
  }
  ps.lastOk = code === 0;
}
