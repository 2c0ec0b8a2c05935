// The syntax tree of POSIX shell programs (plus the bash forms scripts commonly use: [[ ]], (( )), $'...').

export type WordPart =
  /** q: quoted — not split, not globbed. */
  | { t: 'lit'; s: string; q: boolean }
  | { t: 'param'; name: string; op?: string; arg?: Word; arg2?: Word; q: boolean }
  | { t: 'cmd'; body: List; q: boolean }
  | { t: 'arith'; expr: Word; q: boolean };

export interface Word {
  parts: WordPart[];
  /** Written with quotes somewhere (so "" stays an empty argument). */
  quoted: boolean;
  /** Source text, for `set -x`, error messages and here-doc delimiters. */
  raw: string;
}

export type RedirOp = '>' | '>>' | '<' | '>&' | '<&' | '>|' | '<>' | '<<' | '<<-' | '&>' | '&>>' | '<<<';
export interface Redir {
  fd: number;
  op: RedirOp;
  target: Word;
  /** Here-document body: a word to expand, or literal text when the delimiter was quoted. */
  heredoc?: Word | string;
}

export interface Assign { name: string; value: Word; append: boolean }

interface Base { redirs: Redir[]; line: number }
export type Command =
  | (Base & { t: 'simple'; assigns: Assign[]; words: Word[] })
  | (Base & { t: 'if'; clauses: { cond: List; body: List }[]; else?: List })
  | (Base & { t: 'while'; until: boolean; cond: List; body: List })
  | (Base & { t: 'for'; name: string; items?: Word[]; body: List })
  | (Base & { t: 'case'; word: Word; items: { patterns: Word[]; body: List }[] })
  | (Base & { t: 'group'; body: List })
  | (Base & { t: 'subshell'; body: List })
  | (Base & { t: 'func'; name: string; body: Command })
  | (Base & { t: 'dbracket'; words: Word[] })
  | (Base & { t: 'arithcmd'; expr: Word });

export interface Pipeline { cmds: Command[]; bang: boolean }
export interface AndOr { first: Pipeline; rest: { op: '&&' | '||'; p: Pipeline }[] }
export interface ListItem { ao: AndOr; bg: boolean }
export type List = ListItem[];

export function litWord(s: string): Word {
  return { parts: [{ t: 'lit', s, q: false }], quoted: false, raw: s };
}
