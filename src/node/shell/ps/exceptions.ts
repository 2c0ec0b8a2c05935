// .NET exceptions as scripts see them: the base-type chains `catch [T]` and `trap [T]` match against, exception
// objects ([System.Exception]::new('m'), New-Object), and the ErrorRecord `$_` is in catch blocks and traps.

import { PsError, PsObject, toStr, type PsValue } from './values.js';

/** Full name (without `System.`) → base type, for the exceptions PowerShell and the emulated cmdlets raise. */
const BASE_NAMES: Record<string, string> = {
  Exception: '',
  SystemException: 'Exception',
  ApplicationException: 'Exception',
  ArgumentException: 'SystemException',
  ArgumentNullException: 'ArgumentException',
  ArgumentOutOfRangeException: 'ArgumentException',
  InvalidOperationException: 'SystemException',
  NotSupportedException: 'SystemException',
  NotImplementedException: 'SystemException',
  UnauthorizedAccessException: 'SystemException',
  FormatException: 'SystemException',
  InvalidCastException: 'SystemException',
  NullReferenceException: 'SystemException',
  IndexOutOfRangeException: 'SystemException',
  TimeoutException: 'SystemException',
  ArithmeticException: 'SystemException',
  DivideByZeroException: 'ArithmeticException',
  OverflowException: 'ArithmeticException',
  'IO.IOException': 'SystemException',
  'IO.FileNotFoundException': 'IO.IOException',
  'IO.DirectoryNotFoundException': 'IO.IOException',
  'Net.WebException': 'InvalidOperationException',
  'Runtime.InteropServices.ExternalException': 'SystemException',
  'ComponentModel.Win32Exception': 'Runtime.InteropServices.ExternalException',
  'Net.Sockets.SocketException': 'ComponentModel.Win32Exception',
  'Management.Automation.RuntimeException': 'SystemException',
  'Management.Automation.CommandNotFoundException': 'Management.Automation.RuntimeException',
  'Management.Automation.SessionStateException': 'Management.Automation.RuntimeException',
  'Management.Automation.ItemNotFoundException': 'Management.Automation.SessionStateException',
  'Management.Automation.ParameterBindingException': 'Management.Automation.RuntimeException',
  'Management.Automation.MethodException': 'Management.Automation.RuntimeException',
  'Management.Automation.MethodInvocationException': 'Management.Automation.MethodException',
  'Management.Automation.ActionPreferenceStopException': 'Management.Automation.RuntimeException',
  'Management.Automation.ParentContainsErrorRecordException': 'SystemException',
  'Management.Automation.PSArgumentException': 'ArgumentException',
  'Management.Automation.PSInvalidOperationException': 'InvalidOperationException',
  'Management.Automation.PSNotSupportedException': 'NotSupportedException',
  'Microsoft.PowerShell.Commands.WriteErrorException': 'SystemException',
};
const BASE = new Map(Object.entries(BASE_NAMES).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]));
const PROPER = new Map(Object.keys(BASE_NAMES).map((k) => [k.toLowerCase(), k]));
const BY_SHORT = new Map([...BASE.keys()].map((k) => [k.slice(k.lastIndexOf('.') + 1), k]));

/** The key of a type name as written (`[System.IO.IOException]`, `[IO.IOException]`, `[Exception]`). */
function key(type: string): string | undefined {
  const t = type.toLowerCase().replace(/\s+/g, '').replace(/^system\./, '');
  return BASE.has(t) ? t : BY_SHORT.get(t);
}

export function isExceptionType(type: string): boolean {
  return key(type) !== undefined;
}

/** `System.IO.IOException` for a short or full name. */
export function fullName(type: string): string {
  const k = key(type);
  if (!k) return type;
  const proper = PROPER.get(k)!;
  return proper.startsWith('Microsoft.') ? proper : `System.${proper}`;
}

/** The type and its base types, most derived first. */
function chain(type: string): string[] {
  const out: string[] = [];
  for (let k = key(type); k !== undefined && k !== ''; k = BASE.get(k)) out.push(k);
  return out;
}

/** Whether a `catch [types]` / `trap [types]` handles the error; PowerShell also looks at the wrapped (inner) exception. */
export function catches(err: PsError, types: string[]): boolean {
  if (!types.length) return true;
  const own = [...chain(err.exceptionType), ...(err.innerType ? chain(err.innerType) : [])];
  return types.some((t) => { const k = key(t); return k !== undefined && own.includes(k); });
}

/** An exception object ([System.Exception]::new('m')): Message, InnerException, its type for GetType(). */
export function exceptionObject(type: string, message: string | undefined, inner: PsValue = null): PsObject {
  const name = fullName(type);
  const msg = message ?? `Exception of type '${name}' was thrown.`;
  const o = new PsObject([name, ...chain(type).slice(1).map(fullName)], { Message: msg, InnerException: inner, HResult: -2146233088 });
  o.toString = () => `${name}: ${msg}`;
  return o;
}

const THROWN = new WeakMap<PsObject, PsError>();

/** The error `throw <value>` raises: a string is a RuntimeException, an exception object keeps its type. */
export function thrownError(v: PsValue, pos: { pos: number; end: number }): PsError {
  if (v instanceof PsObject) {
    const rethrown = THROWN.get(v);
    if (rethrown) return rethrown;
    if (v.typeNames.some((t) => isExceptionType(t))) {
      const msg = toStr(v.getProp('Message') ?? null);
      const e = new PsError(msg, 'OperationStopped', msg, { exceptionType: v.typeNames[0].slice(v.typeNames[0].lastIndexOf('.') + 1), ...pos });
      e.exceptionObject = v;
      e.thrown = true;
      return e;
    }
  }
  const msg = v === null ? 'ScriptHalted' : toStr(v);
  const e = new PsError(msg, 'OperationStopped', msg, { target: msg, ...pos });
  e.thrown = true;
  return e;
}

/** `$_` in catch blocks and traps: Exception, CategoryInfo, FullyQualifiedErrorId, TargetObject; "$_" is the message. */
export function errorRecord(e: PsError): PsObject {
  const ex = e.exceptionObject ?? exceptionObject(e.exceptionType, e.message, e.innerType ? exceptionObject(e.innerType, e.message) : null);
  const category = new PsObject(['System.Management.Automation.ErrorCategoryInfo'], {
    Category: e.category, Activity: e.activity ?? e.command, Reason: e.exceptionType, TargetName: e.target, TargetType: e.targetType || (e.target ? 'String' : ''),
  });
  category.toString = () => `${e.category}: (${e.target}:${e.targetType || (e.target ? 'String' : '')}) [${e.activity ?? e.command}], ${e.exceptionType}`;
  const rec = new PsObject(['System.Management.Automation.ErrorRecord'], {
    Exception: ex, TargetObject: e.target || null, CategoryInfo: category, FullyQualifiedErrorId: e.errorId, ErrorDetails: null, ScriptStackTrace: '',
  });
  rec.toString = () => e.message;
  THROWN.set(rec, e);
  return rec;
}
