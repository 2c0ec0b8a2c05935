// Binding a function's, script block's or script's arguments to its param() declarations the way the parameter
// binder does: names and unique prefixes and aliases, switches, positions, type conversion, [ValidateSet],
// mandatory parameters, defaults; $PSBoundParameters and $args (about_Functions_Advanced_Parameters).

import type { ParamBlock, ParamDecl } from './ast.js';
import type { RawArg } from './cmdlet-api.js';
import type { Ps } from './interp.js';
import { castTo } from './dotnet.js';
import { Hashtable, PsError, toBool, toStr, type PsValue } from './values.js';

const SWITCH = /^(switch|switchparameter|(system\.)?management\.automation\.switchparameter)$/i;
const NUMERIC = /^(system\.)?(int|int16|int32|int64|long|byte|uint32|uint64|double|single|float|decimal)$/i;
const NET_TYPES: Record<string, string> = { string: 'System.String', int: 'System.Int32', int32: 'System.Int32', long: 'System.Int64', int64: 'System.Int64', double: 'System.Double', bool: 'System.Boolean', hashtable: 'System.Collections.Hashtable', 'string[]': 'System.String[]', 'int[]': 'System.Int32[]' };
/** Common parameters an advanced function takes (the switches among them take no value). */
const COMMON: Record<string, 'switch' | 'value'> = { verbose: 'switch', debug: 'switch', erroraction: 'value', ea: 'value', warningaction: 'value', wa: 'value', informationaction: 'value', errorvariable: 'value', ev: 'value', warningvariable: 'value', outvariable: 'value', ov: 'value', outbuffer: 'value', pipelinevariable: 'value', informationvariable: 'value' };

export const isSwitch = (d: ParamDecl): boolean => d.type !== undefined && SWITCH.test(d.type);

/** Arguments given as text (powershell -File s.ps1 -Name x -Force): `-Name` and `-Name:value` are names. */
export function rawArgsFromText(args: PsValue[]): RawArg[] {
  // They have no place in a script's text (pos -1), so errors about them point at the whole command.
  return args.map((v) => {
    const m = typeof v === 'string' ? /^-([A-Za-z_][\w-]*)(:(.*))?$/s.exec(v) : null;
    if (!m) return { value: v, hasValue: true, pos: -1 };
    return m[2] === undefined ? { name: m[1], hasValue: false, pos: -1 } : { name: m[1], value: m[3], hasValue: true, pos: -1 };
  });
}

/** A binding error; `at` is the parameter or argument it is about (the whole command when absent). */
function bindingError(cmd: string, message: string, id: string, at?: Span, category = 'InvalidArgument', exceptionType = 'ParameterBindingException'): PsError {
  return new PsError(message, category, `${id},${cmd}`, { command: cmd, exceptionType, ...at });
}

type Span = { pos: number; end: number };
/** Where a raw argument is in the script: `-Name` for names, the value otherwise. */
const nameSpan = (a: RawArg): Span | undefined => (a.pos >= 0 && a.name !== undefined ? { pos: a.pos, end: a.pos + a.name.length + 1 } : undefined);
const valueSpan = (a: RawArg): Span | undefined => (a.pos >= 0 && a.end !== undefined ? { pos: a.pos, end: a.end } : undefined);

/**
 * The console host's prompt for missing mandatory parameters (about_Functions_Advanced_Parameters, Mandatory):
 * `cmdlet <name> at command pipeline position 1`, `Supply values for the following parameters:`, then `<Name>: `
 * for each, read as a line. undefined when the session cannot prompt (no terminal, -NonInteractive) or input ends.
 * An empty answer is an empty string, which a mandatory parameter refuses.
 */
async function promptMandatory(ps: Ps, cmd: string, missing: ParamDecl[]): Promise<Map<ParamDecl, PsValue> | undefined> {
  if (ps.nonInteractive || !ps.ctx.stdin.isTTY) return undefined;
  ps.host.end();
  ps.ctx.stdout.write(`cmdlet ${cmd} at command pipeline position 1\r\nSupply values for the following parameters:\r\n`);
  const out = new Map<ParamDecl, PsValue>();
  for (const d of missing) {
    ps.ctx.stdout.write(`${d.name}: `);
    const line = await ps.ctx.stdin.readLine();
    if (line === null) return undefined;
    const text = line.replace(/\r$/, '');
    if (text === '') throw bindingError(cmd, `Cannot bind argument to parameter '${d.name}' because it is an empty string.`, 'ParameterArgumentValidationErrorEmptyStringNotAllowed', undefined, 'InvalidData', 'ParameterBindingValidationException');
    out.set(d, text);
  }
  return out;
}

function find(block: ParamBlock, a: RawArg, cmd: string): ParamDecl | undefined {
  const name = a.name!;
  const l = name.toLowerCase();
  const exact = block.decls.find((d) => d.name.toLowerCase() === l || d.aliases.some((a) => a.toLowerCase() === l));
  if (exact) return exact;
  const pre = block.decls.filter((d) => d.name.toLowerCase().startsWith(l));
  if (pre.length > 1) throw bindingError(cmd, `Parameter cannot be processed because the parameter name '${name}' is ambiguous. Possible matches include: ${pre.map((d) => `-${d.name}`).join(' ')}.`, 'AmbiguousParameter', nameSpan(a));
  return pre[0];
}

/** The value a parameter holds: its type constraint applied ([int]'5' is 5, [switch] a boolean). */
function convert(d: ParamDecl, v: PsValue, cmd: string, at?: Span): PsValue {
  if (d.type === undefined) return v;
  if (isSwitch(d) || /^(system\.)?bool(ean)?$/i.test(d.type)) return toBool(v);
  try {
    return castTo(d.type, v);
  } catch (e) {
    if (!(e instanceof PsError)) throw e;
    // Types the emulation does not model keep the value as given.
    if (e.errorId === 'TypeNotFound' || e.errorId === 'WinkubeUnavailable') return v;
    throw bindingError(cmd, `Cannot process argument transformation on parameter '${d.name}'. ${e.message}`, 'ParameterArgumentTransformationError', at, 'InvalidData', 'ParameterBindingArgumentTransformationException');
  }
}

function validate(d: ParamDecl, v: PsValue, cmd: string, at?: Span): void {
  if (!d.validateSet) return;
  for (const x of Array.isArray(v) ? v : [v]) {
    if (d.validateSet.some((s) => s.toLowerCase() === toStr(x).toLowerCase())) continue;
    throw bindingError(cmd, `Cannot validate argument on parameter '${d.name}'. The argument "${toStr(x)}" does not belong to the set "${d.validateSet.join(',')}" specified by the ValidateSet attribute. Supply an argument that is in the set and then try the command again.`, 'ParameterArgumentValidationError', at, 'InvalidData', 'ParameterBindingValidationException');
  }
}

/** What an unbound parameter holds: its default, else what its type makes of $null (0, '', $false). */
async function unboundValue(ps: Ps, d: ParamDecl, cmd: string): Promise<PsValue> {
  if (d.default) return convert(d, await ps.eval(d.default), cmd);
  if (d.type === undefined) return null;
  if (isSwitch(d) || /^(system\.)?bool(ean)?$/i.test(d.type)) return false;
  if (NUMERIC.test(d.type)) return 0;
  if (/^(system\.)?string$/i.test(d.type)) return '';
  return null;
}

/** Binds arguments into the current scope: the parameters, $PSBoundParameters and $args. */
export async function bindParams(ps: Ps, block: ParamBlock, raw: RawArg[], cmd: string, input: PsValue[] | undefined): Promise<void> {
  const scope = ps.scopes[ps.scopes.length - 1];
  const values = new Map<ParamDecl, RawArg>();
  const rest: PsValue[] = [];
  const positional: RawArg[] = [];
  for (let i = 0; i < raw.length; i++) {
    const a = raw[i];
    if (a.name === undefined) { positional.push(a); continue; }
    const d = find(block, a, cmd);
    if (!d) {
      const common = block.advanced ? COMMON[a.name.toLowerCase()] : undefined;
      if (common) {
        const v = common === 'switch' || a.hasValue ? a.value ?? true : raw[++i]?.value ?? null;
        // -ErrorAction on an advanced function is its $ErrorActionPreference.
        if (/^(erroraction|ea)$/i.test(a.name)) scope.set('erroractionpreference', v);
        continue;
      }
      if (block.advanced) throw bindingError(cmd, `A parameter cannot be found that matches parameter name '${a.name}'.`, 'NamedParameterNotFound', nameSpan(a));
      // A simple function keeps what no parameter takes in $args, a name as its text.
      rest.push(`-${a.name}`, ...(a.hasValue ? [a.value ?? null] : []));
      continue;
    }
    if (isSwitch(d)) { values.set(d, a.hasValue ? a : { ...a, value: true }); continue; }
    if (a.hasValue) { values.set(d, a); continue; }
    const next = raw[i + 1];
    if (!next || next.name !== undefined) {
      throw bindingError(cmd, `Missing an argument for parameter '${d.name}'. Specify a parameter of type '${NET_TYPES[d.type?.toLowerCase() ?? ''] ?? 'System.Object'}' and try again.`, 'MissingArgument', nameSpan(a));
    }
    values.set(d, next);
    i++;
  }
  // Explicit Position=n decides the order; without any, every non-switch parameter in declaration order.
  const slots = block.decls.some((d) => d.position !== undefined)
    ? block.decls.filter((d) => d.position !== undefined).sort((x, y) => x.position! - y.position!)
    : block.decls.filter((d) => !isSwitch(d));
  for (const d of slots) {
    if (values.has(d)) continue;
    if (!positional.length) break;
    values.set(d, positional.shift()!);
  }
  if (positional.length) {
    if (block.advanced) throw bindingError(cmd, `A positional parameter cannot be found that accepts argument '${toStr(positional[0].value ?? null)}'.`, 'PositionalParameterNotFound');
    rest.push(...positional.map((a) => a.value ?? null));
  }
  const fromPipeline = !!input && input.length > 0;
  const missing = block.decls.filter((d) => d.mandatory && !values.has(d) && !(d.fromPipeline && fromPipeline));
  if (missing.length) {
    // A console session (a terminal, no -NonInteractive) asks for the values; otherwise the binding fails.
    const typed = await promptMandatory(ps, cmd, missing);
    if (!typed) throw bindingError(cmd, `Cannot process command because of one or more missing mandatory parameters: ${missing.map((d) => d.name).join(' ')}.`, 'MissingMandatoryParameter');
    for (const [d, v] of typed) values.set(d, { value: v, hasValue: true, pos: -1 });
  }
  const bound = new Hashtable();
  for (const [d, a] of values) {
    const cv = convert(d, a.value ?? null, cmd, valueSpan(a));
    validate(d, cv, cmd, valueSpan(a));
    scope.set(d.name.toLowerCase(), cv);
    bound.set(d.name, cv);
  }
  // Defaults run in the new scope, in order, so one can use the parameters before it.
  for (const d of block.decls) if (!values.has(d)) scope.set(d.name.toLowerCase(), await unboundValue(ps, d, cmd));
  scope.set('psboundparameters', bound);
  scope.set('args', block.advanced ? [] : rest);
}

/** The ValueFromPipeline parameter a process block binds each input item to, unless an argument bound it. */
export function pipelineParam(ps: Ps, block: ParamBlock): ParamDecl | undefined {
  const d = block.decls.find((x) => x.fromPipeline);
  const bound = ps.getVar('PSBoundParameters');
  return d && !(bound instanceof Hashtable && bound.has(d.name)) ? d : undefined;
}

export function bindPipelineItem(ps: Ps, d: ParamDecl, item: PsValue, cmd: string): void {
  const v = convert(d, item, cmd);
  ps.scopes[ps.scopes.length - 1].set(d.name.toLowerCase(), v);
  const bound = ps.getVar('PSBoundParameters');
  if (bound instanceof Hashtable) bound.set(d.name, v);
}
