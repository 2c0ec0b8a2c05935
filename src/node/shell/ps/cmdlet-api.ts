// The contract between the PowerShell interpreter and its cmdlets: declared parameters, binding of named and
// positional arguments, pipeline input and output sinks.

import type { HostFormatter } from './format.js';
import { PsError, type PsValue } from './values.js';
import type { Ps } from './interp.js';
import type { PsEdition } from './error-views.js';

export interface Sink {
  emit(v: PsValue): void;
  /** Set when output goes straight to the console (native programs then write to it directly). */
  host?: HostFormatter;
}

export interface ParamSpec {
  name: string;
  aliases?: string[];
  switch?: boolean;
  /** Positional index, if the parameter can be given without its name. */
  position?: number;
  /** Takes the rest of the positional arguments (Write-Host's -Object). */
  remaining?: boolean;
  /** Bound from pipeline input when not given. */
  pipeline?: boolean;
  /** A parameter only this edition has (ForEach-Object -Parallel is PowerShell 7's). */
  edition?: PsEdition;
}

export interface Bound {
  has(name: string): boolean;
  get(name: string): PsValue | undefined;
  /** Pipeline input (undefined when the command is first in its pipeline). */
  input?: PsValue[];
}

export interface CmdletCall {
  name: string;
  bound: Bound;
  ps: Ps;
  out: Sink;
  pos: number;
  end: number;
}

export interface Cmdlet {
  name: string;
  params: ParamSpec[];
  run(call: CmdletCall): Promise<void>;
}

/** An argument as given: `pos`/`end` locate it in the script (its value's extent, for error positions). */
export type RawArg = { name?: string; value?: PsValue; hasValue: boolean; pos: number; end?: number };

const COMMON = ['ErrorAction', 'WarningAction', 'InformationAction', 'Verbose', 'Debug', 'ErrorVariable', 'WarningVariable', 'OutVariable', 'OutBuffer', 'PipelineVariable', 'InformationVariable'];
const COMMON_ALIASES: Record<string, string> = { ea: 'ErrorAction', wa: 'WarningAction', ev: 'ErrorVariable', ov: 'OutVariable', vb: 'Verbose', db: 'Debug' };

/** Binds arguments to a cmdlet's parameters the way the parameter binder does (unique prefixes, positions). */
export function bind(cmd: Cmdlet, args: RawArg[], input: PsValue[] | undefined, edition: PsEdition = 'Desktop'): Bound {
  const params = cmd.params.filter((p) => !p.edition || p.edition === edition);
  const named = new Map<string, PsValue>();
  const positional: PsValue[] = [];
  const find = (n: string): ParamSpec | string | undefined => {
    const l = n.toLowerCase();
    const exact = params.find((p) => p.name.toLowerCase() === l || p.aliases?.some((a) => a.toLowerCase() === l));
    if (exact) return exact;
    const common = COMMON.find((c) => c.toLowerCase() === l) ?? COMMON_ALIASES[l];
    if (common) return common;
    const pre = params.filter((p) => p.name.toLowerCase().startsWith(l));
    if (pre.length === 1) return pre[0];
    const cpre = COMMON.filter((c) => c.toLowerCase().startsWith(l));
    if (pre.length === 0 && cpre.length === 1) return cpre[0];
    return undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.name === undefined) { positional.push(a.value ?? null); continue; }
    const spec = find(a.name);
    if (spec === undefined) {
      throw new PsError(`A parameter cannot be found that matches parameter name '${a.name}'.`, 'InvalidArgument', `NamedParameterNotFound,${cmdletFqid(cmd.name)}`, { command: cmd.name, exceptionType: 'ParameterBindingException', pos: a.pos, end: a.pos + a.name.length + 1 });
    }
    const key = (typeof spec === 'string' ? spec : spec.name).toLowerCase();
    if (typeof spec !== 'string' && spec.switch) { named.set(key, a.hasValue ? a.value ?? null : true); continue; }
    if (typeof spec === 'string' && ['verbose', 'debug'].includes(key)) { named.set(key, true); continue; }
    if (a.hasValue) { named.set(key, a.value ?? null); continue; }
    const next = args[i + 1];
    if (!next || next.name !== undefined) {
      throw new PsError(`Missing an argument for parameter '${typeof spec === 'string' ? spec : spec.name}'. Specify a parameter of type 'System.Object' and try again.`, 'InvalidArgument', `MissingArgument,${cmdletFqid(cmd.name)}`, { command: cmd.name, exceptionType: 'ParameterBindingException', pos: a.pos, end: a.pos + a.name.length + 1 });
    }
    named.set(key, next.value ?? null);
    i++;
  }
  const byPos = params.filter((p) => p.position !== undefined).sort((x, y) => x.position! - y.position!);
  let k = 0;
  for (const p of byPos) {
    if (named.has(p.name.toLowerCase())) continue;
    if (k >= positional.length) break;
    if (p.remaining) { named.set(p.name.toLowerCase(), positional.length - k === 1 ? positional[k] : positional.slice(k)); k = positional.length; break; }
    named.set(p.name.toLowerCase(), positional[k++]);
  }
  if (k < positional.length) {
    const extra = positional[k];
    throw new PsError(`A positional parameter cannot be found that accepts argument '${String(extra)}'.`, 'InvalidArgument', `PositionalParameterNotFound,${cmdletFqid(cmd.name)}`, { command: cmd.name, exceptionType: 'ParameterBindingException' });
  }
  return { has: (n) => named.has(n.toLowerCase()), get: (n) => named.get(n.toLowerCase()), input };
}

/** The FullyQualifiedErrorId suffix of a cmdlet: Microsoft.PowerShell.Commands.GetContentCommand. */
export function cmdletFqid(name: string): string {
  const ns: Record<string, string> = {
    'Resolve-DnsName': 'Microsoft.DnsClient.Commands.ResolveDnsName',
    'Get-NetIPAddress': 'Get-NetIPAddress',
    'Get-NetAdapter': 'Get-NetAdapter',
  };
  return ns[name] ?? `Microsoft.PowerShell.Commands.${name.replace(/-/g, '')}Command`;
}
