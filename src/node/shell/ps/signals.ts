// The control-flow signals the interpreter throws: break/continue/return, exit, and terminating errors.

import type { PsError, PsValue } from './values.js';

export class FlowSignal extends Error {
  /** `label`: the loop a `break outer` / `continue outer` is for (about_Break); undefined for the innermost. */
  constructor(readonly kind: 'break' | 'continue' | 'return', readonly value: PsValue[] = [], readonly label?: string) { super(kind); }
}

/** Whether a loop or switch labelled `label` takes a break/continue signal: unlabelled ones, or its own label. */
export function flowFor(e: unknown, label: string | undefined): 'break' | 'continue' | undefined {
  if (!(e instanceof FlowSignal) || e.kind === 'return') return undefined;
  if (e.label !== undefined && e.label.toLowerCase() !== label?.toLowerCase()) return undefined;
  return e.kind;
}
export class PsExit extends Error { constructor(readonly code: number) { super('exit'); } }
/** A `throw` (or an error with -ErrorAction Stop): terminates the script unless caught. */
export class PsTerminating extends Error { constructor(readonly error: PsError) { super(error.message); } }
