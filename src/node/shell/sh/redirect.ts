// Opening redirection targets in the container's filesystem: files for writing (truncate/append), reading, and the
// /dev nodes shells treat specially.

import type { Ctx } from '../core/ctx.js';
import { BufferInput, EmptyInput, NULL_OUTPUT, type Input, type Output } from '../core/streams.js';
import { FsError, type FileNode } from '../fs/vfs.js';

/** Appends every write to a file node (the file was created or truncated when opened). */
export class FileOutput implements Output {
  readonly isTTY = false;
  constructor(private readonly node: FileNode) {}
  write(chunk: string | Buffer): void {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.node.data = Buffer.concat([this.node.data, b]);
  }
}

export interface Stdio { stdin: Input; stdout: Output; stderr: Output }

/** Opens `path` for output; throws FsError. */
export function openOutput(ctx: Pick<Ctx, 'env' | 'cwd' | 'cred'>, path: string, append: boolean, stdio: Stdio): Output {
  const fs = ctx.env.fs;
  const abs = fs.resolve(ctx.cwd, path);
  if (ctx.env.os === 'linux') {
    if (abs === '/dev/null') return NULL_OUTPUT;
    if (abs === '/dev/stdout' || abs === '/proc/self/fd/1' || abs === '/dev/fd/1') return stdio.stdout;
    if (abs === '/dev/stderr' || abs === '/proc/self/fd/2' || abs === '/dev/fd/2') return stdio.stderr;
  } else if (/^(nul|con)(\..*)?$/i.test(path.replace(/^.*[\\/]/, ''))) {
    return /^nul/i.test(path.replace(/^.*[\\/]/, '')) ? NULL_OUTPUT : stdio.stdout;
  }
  const existing = fs.stat(abs);
  if (existing?.kind === 'dir') throw new FsError('EISDIR', abs);
  const node = fs.writeFile(abs, Buffer.alloc(0), { append, cred: ctx.cred });
  return new FileOutput(node);
}

/** Opens `path` for input; throws FsError. */
export function openInput(ctx: Pick<Ctx, 'env' | 'cwd' | 'cred'>, path: string, stdio: Stdio): Input {
  const fs = ctx.env.fs;
  const abs = fs.resolve(ctx.cwd, path);
  if (ctx.env.os === 'linux') {
    if (abs === '/dev/null') return new EmptyInput();
    if (abs === '/dev/stdin' || abs === '/proc/self/fd/0' || abs === '/dev/fd/0') return stdio.stdin;
  } else if (/^nul(\..*)?$/i.test(path.replace(/^.*[\\/]/, ''))) {
    return new EmptyInput();
  }
  return new BufferInput(fs.readFile(abs, ctx.cred));
}
