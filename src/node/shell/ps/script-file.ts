// Running a .ps1 script by its path as a command (`C:\hpc\kube-proxy\start.ps1`, `& "$root/start.ps1" a b`): the
// file is parsed and run in its own scope with $args and $PSScriptRoot, as PowerShell's ExternalScript commands are.

import type { RawArg, Sink } from './cmdlet-api.js';
import type { Ps } from './interp.js';
import { PsParseError, PsParser } from './parser.js';
import { FlowSignal, PsTerminating } from './signals.js';
import { PsError, toStr, type PsValue } from './values.js';
import { bindParams } from './param-binding.js';

export async function runScriptFile(ps: Ps, name: string, raw: RawArg[], out: Sink, at: { pos: number; end: number }): Promise<void> {
  const pos = { pos: at.pos, end: at.end };
  const fs = ps.ctx.env.fs;
  const path = fs.resolve(ps.ctx.cwd, name);
  if (fs.stat(path)?.kind !== 'file') {
    throw new PsError(`The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.`, 'ObjectNotFound', 'CommandNotFoundException', { target: name, exceptionType: 'CommandNotFoundException', ...pos });
  }
  let text = fs.readFile(path, ps.ctx.cred).toString();
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let stmts;
  try {
    stmts = PsParser.parse(text, ps.edition);
  } catch (e) {
    // A script that does not parse fails as a whole, as PowerShell reports a ParseException for it.
    if (!(e instanceof PsParseError)) throw e;
    throw new PsError(e.message, 'ParserError', e.id, { target: path, exceptionType: 'ParseException', ...pos });
  }
  const scope = new Map<string, PsValue>([['psscriptroot', path.replace(/\\[^\\]*$/, '')], ['pscommandpath', path], ['myinvocation', toStr(path)]]);
  // The script's param() block takes the arguments as a function's does; without one they are $args.
  const param = stmts[0]?.t === 'param' ? stmts.shift() as Extract<typeof stmts[0], { t: 'param' }> : undefined;
  // Errors inside the script point into the script's text, as PowerShell's "At <path>:<line>" does.
  const outer = ps.src;
  const outerPath = ps.scriptPath;
  ps.scopes.push(scope);
  ps.invocations.push({ name: path, idName: path.replace(/^.*\\/, ''), site: { ...pos, origin: { src: outer, path: outerPath } } });
  try {
    await bindParams(ps, param?.params ?? { decls: [], advanced: false }, raw, path, undefined);
    ps.src = text;
    ps.scriptPath = path;
    await ps.runBlock(stmts, out);
  } catch (e) {
    if (e instanceof FlowSignal && e.kind === 'return') return;
    if (e instanceof PsError) ps.locate(e);
    if (e instanceof PsTerminating) ps.locate(e.error);
    throw e;
  } finally {
    ps.scopes.pop();
    ps.invocations.pop();
    ps.src = outer;
    ps.scriptPath = outerPath;
  }
}
