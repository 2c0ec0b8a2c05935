// Non-local exits of shell execution: `exit`, `break`/`continue` and `return` unwind through these.

export class ShellExit extends Error { constructor(readonly status: number) { super(`exit ${status}`); } }
export class LoopControl extends Error { constructor(readonly kind: 'break' | 'continue', readonly levels: number) { super(kind); } }
export class FunctionReturn extends Error { constructor(readonly status: number) { super('return'); } }
