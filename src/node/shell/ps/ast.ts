// The syntax tree of the PowerShell language subset winkube runs: statements, pipelines of commands and
// expressions, the operators and literals. `pos`/`end` are offsets into the script, for error positions.

export interface Span { pos: number; end: number }

export type Expr = Span & (
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'estr'; parts: (string | Expr)[] }
  | { t: 'var'; name: string }
  | { t: 'array'; items: Expr[] }
  | { t: 'arrayexpr'; body: Stmt[] }
  | { t: 'hash'; entries: [Expr, Expr][] }
  | { t: 'sub'; body: Stmt[] }
  | { t: 'paren'; pipeline: Pipeline }
  | { t: 'block'; body: Stmt[]; params: string[] }
  | { t: 'member'; obj: Expr; name: string | Expr; static: boolean }
  | { t: 'invoke'; obj: Expr; name: string; args: Expr[]; static: boolean }
  | { t: 'index'; obj: Expr; index: Expr }
  | { t: 'type'; name: string }
  | { t: 'cast'; type: string; expr: Expr }
  | { t: 'unary'; op: string; expr: Expr }
  | { t: 'binary'; op: string; left: Expr; right: Expr }
  | { t: 'incdec'; op: '++' | '--'; prefix: boolean; target: Expr }
);

export type CmdArg = Span & ({ t: 'param'; name: string; value?: Expr } | { t: 'pos'; value: Expr });
export interface Redir { fd: number | '*'; op: '>' | '>>' | '>&1'; target?: Expr }

export type PipeElem = Span & (
  | { t: 'command'; name: Expr; args: CmdArg[]; call?: '&' | '.' }
  | { t: 'expr'; expr: Expr }
);
export interface Pipeline extends Span {
  elems: PipeElem[];
  redirs: Redir[];
  /** `($x = 1)`, `if ($y = f)`: an assignment in a place that takes a pipeline; its value is the output. */
  assign?: Extract<Stmt, { t: 'assign' }>;
}

export type Stmt = Span & (
  | { t: 'pipeline'; p: Pipeline }
  | { t: 'assign'; op: string; target: Expr; value: Stmt }
  | { t: 'if'; clauses: { cond: Pipeline; body: Stmt[] }[]; else?: Stmt[] }
  | { t: 'while'; cond: Pipeline; body: Stmt[] }
  | { t: 'do'; until: boolean; cond: Pipeline; body: Stmt[] }
  | { t: 'for'; init?: Stmt; cond?: Pipeline; step?: Stmt; body: Stmt[] }
  | { t: 'foreach'; variable: string; iter: Pipeline; body: Stmt[] }
  | { t: 'function'; name: string; params: string[]; body: Stmt[] }
  | { t: 'flow'; kind: 'return' | 'exit' | 'throw' | 'break' | 'continue'; value?: Pipeline }
  | { t: 'try'; body: Stmt[]; catchBody?: Stmt[]; finallyBody?: Stmt[] }
  | { t: 'param'; names: string[] }
  | { t: 'empty' }
);
