// Redirections of a command: files opened for > >> < (with each dialect's error wording), fd duplication (2>&1,
// >&-), here-documents and here-strings, and bash's &> / >&file.

import type { Redir } from './ast.js';
import type { Shell, ShIo } from './interp.js';
import { expandString, ExpansionError } from './expand.js';
import { openInput, openOutput, type Stdio } from './redirect.js';
import { strerror } from '../core/errno.js';
import { BufferInput, NULL_OUTPUT, type Input, type Output } from '../core/streams.js';
import { FsError } from '../fs/vfs.js';

export async function applyRedirs(sh: Shell, redirs: Redir[], io: ShIo): Promise<ShIo | number> {
  const out: ShIo = { ...io, fds: new Map(io.fds ?? []) };
  const getFd = (fd: number): Input | Output | undefined => (fd === 0 ? out.stdin : fd === 1 ? out.stdout : fd === 2 ? out.stderr : out.fds!.get(fd));
  const setFd = (fd: number, s: Input | Output) => {
    if (fd === 0) out.stdin = s as Input;
    else if (fd === 1) out.stdout = s as Output;
    else if (fd === 2) out.stderr = s as Output;
    else out.fds!.set(fd, s);
  };
  for (const r of redirs) {
    if (r.op === '<<' || r.op === '<<-') {
      const body = typeof r.heredoc === 'string' ? r.heredoc : await expandString(sh, r.heredoc);
      setFd(r.fd, new BufferInput(body));
      continue;
    }
    let target: string;
    try {
      target = await expandString(sh, r.target);
    } catch (e) {
      if (e instanceof ExpansionError) { sh.error(io, e.message); return e.status; }
      throw e;
    }
    if (r.op === '<<<') { setFd(r.fd, new BufferInput(`${target}\n`)); continue; }
    if (r.op === '>&' || r.op === '<&') {
      if (target === '-') { setFd(r.fd, r.op === '>&' ? NULL_OUTPUT : new BufferInput('')); continue; }
      if (/^\d+$/.test(target)) {
        const src = getFd(Number(target));
        if (!src) { sh.error(io, `${target}: Bad file descriptor`); return 1; }
        setFd(r.fd, src);
        continue;
      }
      if (r.op === '>&') {
        // `>&file` (bash) is `&>file`.
        const o = open(sh, io, target, false);
        if (typeof o === 'number') return o;
        setFd(1, o); setFd(2, o);
        continue;
      }
    }
    if (r.op === '<' || r.op === '<>') {
      try {
        setFd(r.fd, openInput({ env: sh.ctx.env, cwd: sh.ctx.cwd, cred: sh.ctx.cred }, target, out));
      } catch (e) {
        if (!(e instanceof FsError)) throw e;
        const msg = strerror(e.code, sh.libc());
        sh.error(io, sh.dialect === 'bash' ? `${target}: ${msg}` : sh.dialect === 'dash' ? `cannot open ${target}: ${e.code === 'ENOENT' ? 'No such file' : msg}` : `can't open '${target}': ${msg}`);
        return sh.dialect === 'dash' ? 2 : 1;
      }
      continue;
    }
    const o = open(sh, io, target, r.op === '>>' || r.op === '&>>');
    if (typeof o === 'number') return o;
    if (r.op === '&>' || r.op === '&>>') { setFd(1, o); setFd(2, o); } else setFd(r.fd, o);
  }
  return out;
}

function open(sh: Shell, io: Stdio, target: string, append: boolean): Output | number {
  try {
    return openOutput({ env: sh.ctx.env, cwd: sh.ctx.cwd, cred: sh.ctx.cred }, target, append, io);
  } catch (e) {
    if (!(e instanceof FsError)) throw e;
    const msg = strerror(e.code, sh.libc());
    sh.error(io, sh.dialect === 'bash' ? `${target}: ${msg}` : sh.dialect === 'dash' ? `cannot create ${target}: ${msg}` : `can't create ${target}: ${msg}`);
    return sh.dialect === 'dash' ? 2 : 1;
  }
}
