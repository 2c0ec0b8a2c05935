// The control-flow signals the interpreter throws: break/continue/return, exit, and terminating errors.

import type { PsError, PsValue } from './values.js';

export class FlowSignal extends Error {
  constructor(readonly kind: 'break' | 'continue' | 'return', readonly value: PsValue[] = []) { super(kind); }
}
export class PsExit extends Error { constructor(readonly code: number) { super('exit'); } }
/** A `throw` (or an error with -ErrorAction Stop): terminates the script unless caught. */
export class PsTerminating extends Error { constructor(readonly error: PsError) { super(error.message); } }
