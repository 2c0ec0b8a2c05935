// Builtins that manage variables and parameters: export, readonly, unset, set (options and positional
// parameters), shift, local, let and read (IFS splitting, -r, -p, -t).

import type { Shell } from './interp.js';
import type { Builtin } from './builtins.js';
import { ArithError, evalArith } from './arith.js';

export function quoteValue(v: string): string {
  return `'${v.replace(/'/g, `'"'"'`)}'`;
}

export const exportB: Builtin = async (sh, argv, io) => {
  const args = argv.slice(1).filter((a) => a !== '-p' && a !== '-n');
  if (args.length === 0) {
    const names = [...sh.vars.keys()].filter((k) => sh.vars.get(k)!.exported).sort();
    for (const k of names) io.stdout.write(sh.dialect === 'bash' ? `declare -x ${k}="${sh.vars.get(k)!.value.replace(/(["\\$`])/g, '\\$1')}"\n` : `export ${k}=${quoteValue(sh.vars.get(k)!.value)}\n`);
    return 0;
  }
  for (const a of args) {
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      sh.error(io, sh.dialect === 'bash' ? `export: \`${a}': not a valid identifier` : `export: ${name}: bad variable name`);
      return sh.dialect === 'bash' ? 1 : 2;
    }
    if (eq >= 0) sh.setVar(name, a.slice(eq + 1));
    const v = sh.vars.get(name);
    if (v) v.exported = true;
    else sh.vars.set(name, { value: '', exported: true });
    if (eq < 0 && !sh.getVar(name) && v === undefined) sh.vars.get(name)!.value = '';
  }
  return 0;
};

export const readonlyB: Builtin = async (sh, argv) => {
  for (const a of argv.slice(1)) {
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    if (eq >= 0) sh.setVar(name, a.slice(eq + 1));
    const v = sh.vars.get(name) ?? { value: '', exported: false };
    v.readonly = true;
    sh.vars.set(name, v);
  }
  return 0;
};

export const unset: Builtin = async (sh, argv) => {
  let fn = false;
  for (const a of argv.slice(1)) {
    if (a === '-f') { fn = true; continue; }
    if (a === '-v') { fn = false; continue; }
    if (fn) sh.functions.delete(a);
    else sh.vars.delete(a);
  }
  return 0;
};

export const set: Builtin = async (sh, argv, io) => {
  if (argv.length === 1) {
    for (const k of [...sh.vars.keys()].sort()) io.stdout.write(`${k}=${quoteValue(sh.vars.get(k)!.value)}\n`);
    return 0;
  }
  const flags: Record<string, keyof Shell['options']> = { e: 'errexit', u: 'nounset', x: 'xtrace', f: 'noglob' };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { sh.params = argv.slice(i + 1); return 0; }
    if (a === '-o' || a === '+o') {
      const opt = argv[++i];
      const on = a === '-o';
      if (opt === undefined) {
        for (const [k, v] of Object.entries(sh.options)) io.stdout.write(`${k.padEnd(16)}${v ? 'on' : 'off'}\n`);
        return 0;
      }
      if (opt in sh.options) sh.options[opt as keyof Shell['options']] = on;
      else if (opt === 'allexport') sh.allExport = on;
      else if (!['monitor', 'notify', 'noclobber', 'posix', 'vi', 'emacs', 'ignoreeof', 'nolog', 'verbose', 'noexec'].includes(opt)) {
        sh.error(io, sh.dialect === 'bash' ? `set: ${opt}: invalid option name` : `set: Illegal option -o ${opt}`);
        return 2;
      }
      continue;
    }
    if (/^[-+][a-zA-Z]+$/.test(a)) {
      const on = a[0] === '-';
      for (const f of a.slice(1)) {
        if (flags[f]) sh.options[flags[f]] = on;
        else if (f === 'a') sh.allExport = on;
        else if (!'mnvhCbB'.includes(f)) { sh.error(io, `set: illegal option -${f}`); return 2; }
      }
      continue;
    }
    sh.params = argv.slice(i);
    return 0;
  }
  return 0;
};

export const read: Builtin = async (sh, argv, io) => {
  let raw = false;
  const names: string[] = [];
  let prompt: string | undefined;
  let timeout: number | undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-r') raw = true;
    else if (a === '-p') prompt = argv[++i];
    else if (a === '-t') timeout = Number(argv[++i]);
    else if (a === '-s') continue;
    else names.push(a);
  }
  if (prompt !== undefined) io.stderr.write(prompt);
  if (names.length === 0) names.push('REPLY');
  const readLine = io.stdin.readLine();
  let line: string | null;
  if (timeout !== undefined) {
    const t = sh.ctx.env.clock.sleep(timeout * 1000, sh.signal).then(() => 'timeout' as const, () => 'timeout' as const);
    const r = await Promise.race([readLine, t]);
    if (r === 'timeout') return 142;
    line = r;
  } else line = await readLine;
  if (line === null) {
    for (const n of names) sh.setVar(n, '');
    return 1;
  }
  let text = line.replace(/\r$/, '');
  if (!raw) {
    while (text.endsWith('\\')) {
      const more = await io.stdin.readLine();
      text = text.slice(0, -1) + (more ?? '');
      if (more === null) break;
    }
    text = text.replace(/\\(.)/g, '$1');
  }
  const ifs = sh.getVar('IFS') ?? ' \t\n';
  const ws = ifs.replace(/[^ \t\n]/g, '');
  let rest = text.replace(new RegExp(`^[${ws.replace(/\s/g, (c) => (c === '\t' ? '\\t' : c === '\n' ? '\\n' : ' '))}]+`), '');
  for (let i = 0; i < names.length; i++) {
    if (i === names.length - 1) {
      sh.setVar(names[i], rest.replace(new RegExp(`[${ws.replace(/\s/g, (c) => (c === '\t' ? '\\t' : c === '\n' ? '\\n' : ' '))}]+$`), ''));
      break;
    }
    const m = new RegExp(`^([^${ifs.replace(/[\]\\^-]/g, '\\$&').replace(/\t/g, '\\t').replace(/\n/g, '\\n')}]*)[${ifs.replace(/[\]\\^-]/g, '\\$&').replace(/\t/g, '\\t').replace(/\n/g, '\\n')}]*`).exec(rest)!;
    sh.setVar(names[i], m[1]);
    rest = rest.slice(m[0].length);
  }
  return 0;
};

export const shift: Builtin = async (sh, argv, io) => {
  const n = argv[1] === undefined ? 1 : Number(argv[1]);
  if (!Number.isInteger(n) || n < 0 || n > sh.params.length) {
    if (sh.dialect !== 'bash') { sh.error(io, `shift: can't shift that many`); return 2; }
    return 1;
  }
  sh.params = sh.params.slice(n);
  return 0;
};

export const local: Builtin = async (sh, argv, io) => {
  const frame = sh.localsStack[sh.localsStack.length - 1];
  if (!frame) { sh.error(io, 'local: not in a function'); return sh.dialect === 'bash' ? 1 : 2; }
  for (const a of argv.slice(1)) {
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    if (!frame.has(name)) frame.set(name, sh.vars.get(name) && { ...sh.vars.get(name)! });
    sh.vars.set(name, { value: eq < 0 ? sh.getVar(name) ?? '' : a.slice(eq + 1), exported: false });
  }
  return 0;
};

export const let_: Builtin = async (sh, argv, io) => {
  let v = 0;
  try {
    for (const e of argv.slice(1)) v = evalArith(e, { get: (n) => sh.getVar(n), set: (n, x) => sh.setVar(n, x) });
  } catch (e) {
    if (e instanceof ArithError) { sh.error(io, `let: ${e.message}`); return 1; }
    throw e;
  }
  return v !== 0 ? 0 : 1;
};
