// winkube's command-line entry: picks the command and prints help; each command lives in its own file.

import { hnsCommand } from './hns.js';
import { netCommand } from './net.js';
import { upCommand } from './up.js';
import { UsageError } from './flags.js';

export interface Command {
  name: string;
  summary: string;
  help(): string;
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Command[] = [upCommand, netCommand, hnsCommand];

function mainHelp(): string {
  return [
    'winkube — Kubernetes for mixed Linux + Windows clusters, with emulated Windows Server and Linux nodes.',
    '',
    'Usage: winkube <command> [flags]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(20)} ${c.summary}`),
    '',
    'Run "winkube <command> --help" for a command\'s flags.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp() + '\n');
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    process.stderr.write(`winkube: unknown command "${name}"\n\n${mainHelp()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(cmd.help() + '\n');
    return 0;
  }
  try {
    return await cmd.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`winkube ${cmd.name}: ${err.message}\n\n${cmd.help()}\n`);
      return 2;
    }
    // What the cluster answered (no such node, not a Windows node, unreachable): the message, not a stack trace.
    process.stderr.write(`winkube ${cmd.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.WINKUBE_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}
