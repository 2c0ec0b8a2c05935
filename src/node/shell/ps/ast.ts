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
  | { t: 'block'; body: Stmt[]; params: ParamBlock }
  | { t: 'member'; obj: Expr; name: string | Expr; static: boolean }
  | { t: 'invoke'; obj: Expr; name: string; args: Expr[]; static: boolean }
  | { t: 'index'; obj: Expr; index: Expr }
  | { t: 'type'; name: string }
  | { t: 'cast'; type: string; expr: Expr }
  | { t: 'unary'; op: string; expr: Expr }
  | { t: 'binary'; op: string; left: Expr; right: Expr }
  | { t: 'incdec'; op: '++' | '--'; prefix: boolean; target: Expr }
  /** PowerShell 7's `cond ? a : b` (about_Operators, Ternary operator). */
  | { t: 'ternary'; cond: Expr; then: Expr; else: Expr }
);

/** One parameter of a param() block or function head, with its type constraint and [Parameter()] settings. */
export interface ParamDecl {
  name: string;
  /** The type constraint as written (`int`, `string[]`, `switch`). */
  type?: string;
  default?: Expr;
  mandatory: boolean;
  position?: number;
  fromPipeline: boolean;
  aliases: string[];
  /** [ValidateSet(...)] values. */
  validateSet?: string[];
  pos: number;
}
/** A function's or script's parameters; `advanced` when [CmdletBinding()] or [Parameter()] makes it an advanced function. */
export interface ParamBlock { decls: ParamDecl[]; advanced: boolean }

export type CmdArg = Span & ({ t: 'param'; name: string; value?: Expr } | { t: 'pos'; value: Expr } | { t: 'splat'; name: string });
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
  /** PowerShell 7's pipeline chain `a && b || c`: each link runs or not by `$?` after the previous one. */
  chain?: { op: '&&' | '||'; p: Pipeline }[];
}

export type Stmt = Span & (
  | { t: 'pipeline'; p: Pipeline }
  | { t: 'assign'; op: string; target: Expr; value: Stmt }
  | { t: 'if'; clauses: { cond: Pipeline; body: Stmt[] }[]; else?: Stmt[] }
  | { t: 'while'; cond: Pipeline; body: Stmt[]; label?: string }
  | { t: 'do'; until: boolean; cond: Pipeline; body: Stmt[]; label?: string }
  | { t: 'for'; init?: Stmt; cond?: Pipeline; step?: Stmt; body: Stmt[]; label?: string }
  | { t: 'foreach'; variable: string; iter: Pipeline; body: Stmt[]; label?: string }
  | { t: 'function'; name: string; params: ParamBlock; body: Stmt[]; named?: NamedBlocks }
  | { t: 'flow'; kind: 'return' | 'exit' | 'throw' | 'break' | 'continue'; value?: Pipeline; label?: string }
  | { t: 'try'; body: Stmt[]; catches: CatchClause[]; finallyBody?: Stmt[] }
  | { t: 'trap'; types: string[]; body: Stmt[] }
  | { t: 'switch'; mode: 'plain' | 'regex' | 'wildcard' | 'exact'; cs: boolean; file: boolean; subject: Pipeline; clauses: SwitchClause[]; label?: string }
  | { t: 'param'; params: ParamBlock }
  | { t: 'empty' }
);

/** `catch [T1], [T2] { }`; no types catches everything. */
export interface CatchClause { types: string[]; body: Stmt[] }
/** `pattern { body }` of a switch statement; `default` when the pattern is the default keyword. */
export interface SwitchClause { cond: Expr | 'default'; body: Stmt[] }
/** begin/process/end blocks of a function (`function f { process { $_ } }`). */
export interface NamedBlocks { begin?: Stmt[]; process?: Stmt[]; end?: Stmt[] }
