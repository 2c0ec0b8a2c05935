// Shell builtins: the ones that change the shell (cd, export, set, exit, read, eval, trap, wait...) and the common
// fast ones (echo, printf, test). Wording per dialect where the shells differ.

import type { Shell, ShIo } from './interp.js';
import { FunctionReturn, LoopControl, ShellExit } from './control.js';
import { echoText, formatPrintf } from '../applets/printf.js';
import { testExpr } from '../applets/test-expr.js';
import { locate } from '../core/exec.js';
import { abortReason, Aborted } from '../core/ctx.js';
import { exportB, let_, local, quoteValue, read, readonlyB, set, shift, unset } from './builtins-vars.js';

export type Builtin = (sh: Shell, argv: string[], io: ShIo) => Promise<number>;

/** POSIX special builtins: prefix assignments persist. */
export const SPECIAL_BUILTINS = new Set([':', '.', 'break', 'continue', 'eval', 'exec', 'exit', 'export', 'readonly', 'return', 'set', 'shift', 'trap', 'unset']);

const SIGNALS = ['HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'BUS', 'FPE', 'KILL', 'USR1', 'SEGV', 'USR2', 'PIPE', 'ALRM', 'TERM'];

const cd: Builtin = async (sh, argv, io) => {
  const fs = sh.fs;
  let target = argv[1];
  if (target === '-') target = sh.getVar('OLDPWD') ?? sh.cwd;
  if (target === undefined || target === '') target = sh.getVar('HOME') ?? '/';
  const abs = fs.resolve(sh.cwd, target);
  const n = fs.stat(abs);
  if (!n || n.kind !== 'dir') {
    const why = !n ? 'No such file or directory' : 'Not a directory';
    if (sh.dialect === 'bash') sh.error(io, `cd: ${target}: ${why}`);
    else if (sh.dialect === 'dash') sh.error(io, `cd: can't cd to ${target}`);
    else sh.error(io, `cd: can't cd to ${target}: ${why}`);
    return sh.dialect === 'bash' ? 1 : 2;
  }
  sh.setVar('OLDPWD', sh.cwd);
  sh.ctx.cwd = abs;
  sh.setVar('PWD', abs);
  if (argv[1] === '-') io.stdout.write(`${abs}\n`);
  return 0;
};

const exit: Builtin = async (sh, argv, io) => {
  if (sh.mode === 'interactive' && sh.dialect === 'bash') io.stderr.write('exit\n');
  let status = sh.status;
  if (argv[1] !== undefined) {
    if (!/^-?\d+$/.test(argv[1])) {
      sh.error(io, sh.dialect === 'bash' ? `exit: ${argv[1]}: numeric argument required` : sh.dialect === 'dash' ? `exit: Illegal number: ${argv[1]}` : `exit: Illegal number: ${argv[1]}`);
      status = 2;
    } else status = ((Number(argv[1]) % 256) + 256) % 256;
  }
  throw new ShellExit(status);
};

const loopCtl = (kind: 'break' | 'continue'): Builtin => async (sh, argv, io) => {
  const n = argv[1] === undefined ? 1 : Number(argv[1]);
  if (!Number.isInteger(n) || n < 1) { sh.error(io, `${kind}: Illegal number: ${argv[1]}`); return 1; }
  if (sh.loopDepth === 0) return 0;
  throw new LoopControl(kind, Math.min(n, sh.loopDepth));
};

const returnB: Builtin = async (sh, argv) => {
  const status = argv[1] === undefined ? sh.status : ((Number(argv[1]) % 256) + 256) % 256;
  if (sh.funcDepth === 0) throw new ShellExit(status);
  throw new FunctionReturn(status);
};

const evalB: Builtin = async (sh, argv, io) => sh.runSource(argv.slice(1).join(' '), io);

const source: Builtin = async (sh, argv, io) => {
  const file = argv[1];
  if (file === undefined) { sh.error(io, `${argv[0]}: filename argument required`); return 2; }
  const path = file.includes('/') ? sh.fs.resolve(sh.cwd, file) : (sh.getVar('PATH') ?? '').split(':').map((d) => sh.fs.resolve(sh.cwd, `${d}/${file}`)).find((p) => sh.fs.stat(p)?.kind === 'file') ?? sh.fs.resolve(sh.cwd, file);
  let src: string;
  try { src = sh.fs.readFile(path, sh.ctx.cred).toString(); } catch {
    sh.error(io, sh.dialect === 'bash' ? `${file}: No such file or directory` : sh.dialect === 'dash' ? `${argv[0]}: cannot open ${file}: No such file` : `${argv[0]}: can't open '${file}': No such file or directory`);
    return sh.dialect === 'bash' ? 1 : 2;
  }
  const saved = sh.params;
  if (argv.length > 2) sh.params = argv.slice(2);
  try {
    return await sh.runSource(src, io);
  } catch (e) {
    if (e instanceof FunctionReturn) return e.status;
    throw e;
  } finally {
    if (argv.length > 2) sh.params = saved;
  }
};

const exec: Builtin = async (sh, argv, io) => {
  if (argv.length === 1) {
    sh.ctx.stdin = io.stdin;
    sh.ctx.stdout = io.stdout;
    sh.ctx.stderr = io.stderr;
    return 0;
  }
  const status = await sh.external(argv.slice(1), [], io);
  throw new ShellExit(status);
};

const trap: Builtin = async (sh, argv, io) => {
  if (argv.length === 1) {
    for (const [sig, cmd] of sh.traps) io.stdout.write(`trap -- ${quoteValue(cmd)} ${sig}\n`);
    return 0;
  }
  if (argv[1] === '-l') { io.stdout.write(`${SIGNALS.map((s, i) => `${i + 1}) SIG${s}`).join('\n')}\n`); return 0; }
  const action = argv[1];
  const sigs = argv.slice(2);
  for (const s of sigs) {
    const name = s.toUpperCase().replace(/^SIG/, '');
    const key = /^\d+$/.test(name) ? (name === '0' ? 'EXIT' : SIGNALS[Number(name) - 1] ?? name) : name;
    if (action === '-') sh.traps.delete(key);
    else sh.traps.set(key, action);
  }
  return 0;
};

const wait: Builtin = async (sh, argv) => {
  const pids = argv.slice(1).map(Number);
  const jobs = pids.length ? sh.jobs.filter((j) => pids.includes(j.pid)) : sh.jobs;
  let status = 0;
  for (const j of jobs) {
    const abort = new Promise<never>((_, rej) => {
      if (sh.signal.aborted) rej(new Aborted(abortReason(sh.signal)));
      sh.signal.addEventListener('abort', () => rej(new Aborted(abortReason(sh.signal))), { once: true });
    });
    status = await Promise.race([j.done, abort]);
  }
  if (pids.length && jobs.length === 0) return 127;
  return status;
};

const kill: Builtin = async (sh, argv, io) => {
  let sig = 'TERM';
  const targets: string[] = [];
  for (const a of argv.slice(1)) {
    if (a === '-l') { io.stdout.write(`${SIGNALS.join(' ')}\n`); return 0; }
    if (a.startsWith('-') && targets.length === 0) { sig = a.slice(1).replace(/^s\s*/, '').toUpperCase().replace(/^SIG/, ''); continue; }
    targets.push(a);
  }
  let status = 0;
  for (const t of targets) {
    const job = t.startsWith('%') ? sh.jobs[Number(t.slice(1)) - 1] : sh.jobs.find((j) => j.pid === Number(t));
    if (job && job.status === undefined) {
      if (sig !== '0') job.abort.abort(sig === 'KILL' || sig === '9' ? 'SIGKILL' : 'SIGTERM');
      continue;
    }
    const proc = sh.ctx.env.processes().find((p) => p.pid === Number(t));
    if (proc || Number(t) === sh.pid || Number(t) === 1) continue;
    sh.error(io, sh.dialect === 'bash' ? `kill: (${t}) - No such process` : `kill: can't kill pid ${t}: No such process`);
    status = 1;
  }
  return status;
};

const typeB: Builtin = async (sh, argv, io) => {
  let status = 0;
  for (const name of argv.slice(1)) {
    if (sh.functions.has(name)) io.stdout.write(`${name} is a function\n`);
    else if (BUILTINS[name]) io.stdout.write(`${name} is a ${SPECIAL_BUILTINS.has(name) ? 'special ' : ''}shell builtin\n`);
    else {
      const f = locate(sh.ctx, name);
      if ('error' in f) {
        status = 1;
        if (sh.dialect === 'bash') sh.error(io, `type: ${name}: not found`);
        else io.stdout.write(`${name}: not found\n`);
      } else io.stdout.write(`${name} is ${name.includes('/') ? name : f.path}\n`);
    }
  }
  return status;
};

const command: Builtin = async (sh, argv, io) => {
  if (argv[1] === '-v' || argv[1] === '-V') {
    let status = 0;
    for (const name of argv.slice(2)) {
      if (sh.functions.has(name) || BUILTINS[name]) { io.stdout.write(`${name}\n`); continue; }
      const f = locate(sh.ctx, name);
      if ('error' in f) status = 1;
      else io.stdout.write(`${name.includes('/') ? name : f.path}\n`);
    }
    return status;
  }
  const args = argv.slice(argv[1] === '-p' ? 2 : 1);
  if (args.length === 0) return 0;
  if (BUILTINS[args[0]]) return BUILTINS[args[0]](sh, args, io);
  return sh.external(args, [], io);
};

const echo: Builtin = async (sh, argv, io) => {
  io.stdout.write(echoText(argv.slice(1), sh.dialect === 'dash' ? 'always' : sh.dialect === 'bash' ? 'flag' : 'flag'));
  return 0;
};

const printf: Builtin = async (sh, argv, io) => {
  if (argv.length < 2) { sh.error(io, sh.dialect === 'bash' ? 'printf: usage: printf [-v var] format [arguments]' : 'printf: usage: printf format [arg ...]'); return 2; }
  const r = formatPrintf(argv[1], argv.slice(2));
  io.stdout.write(r.out);
  for (const e of r.errors) sh.error(io, `printf: ${e}`);
  return r.errors.length ? 1 : 0;
};

const test: Builtin = async (sh, argv, io) => {
  let args = argv.slice(1);
  if (argv[0] === '[') {
    if (args[args.length - 1] !== ']') { sh.error(io, sh.dialect === 'bash' ? "[: missing `]'" : '[: missing ]'); return 2; }
    args = args.slice(0, -1);
  }
  const style = sh.dialect;
  return testExpr(args, sh.ctx, io.stderr, sh.dialect === 'ash' ? sh.prefix() : `${sh.prefix()}${argv[0]}: `, style);
};

const pwd: Builtin = async (sh, argv, io) => {
  io.stdout.write(`${argv.includes('-P') ? sh.fs.realpath(sh.cwd) : sh.cwd}\n`);
  return 0;
};

export function parseDuration(a: string): number {
  const m = /^(\d*\.?\d+)([smhd]?)$/.exec(a);
  if (!m) return NaN;
  return Number(m[1]) * ({ '': 1, s: 1, m: 60, h: 3600, d: 86400 } as Record<string, number>)[m[2]];
}

export const BUILTINS: Record<string, Builtin> = {
  ':': async () => 0,
  true: async () => 0,
  false: async () => 1,
  cd, export: exportB, readonly: readonlyB, unset, set, shift, exit,
  break: loopCtl('break'), continue: loopCtl('continue'), return: returnB,
  read, eval: evalB, '.': source, source, exec, trap, wait, kill, type: typeB, command, local, let: let_,
  echo, printf, test, '[': test, pwd,
  umask: async (_sh, argv, io) => { if (argv.length === 1) io.stdout.write('0022\n'); return 0; },
  ulimit: async (_sh, _argv, io) => { io.stdout.write('unlimited\n'); return 0; },
  hash: async () => 0,
  alias: async () => 0,
  unalias: async () => 0,
  jobs: async (sh, _argv, io) => {
    for (const j of sh.jobs) if (j.status === undefined) io.stdout.write(`[${j.id}]+  Running\n`);
    return 0;
  },
};
