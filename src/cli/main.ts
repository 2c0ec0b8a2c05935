// winkube's command-line entry (commander): the component commands (apiserver, scheduler, controller-manager, node,
// token) are commander commands; up, net and hns keep their own flag parser and are dispatched before commander.

import { Command as Program, CommanderError } from 'commander';
import { apiserverCommand } from './apiserver.js';
import { controllerManagerCommand } from './controller-manager.js';
import { hnsCommand } from './hns.js';
import { kubeconfigCommand } from './kubeconfig.js';
import { netCommand } from './net.js';
import { nodeCommand } from './node.js';
import { schedulerCommand } from './scheduler.js';
import { tokenCommand } from './token.js';
import { upCommand } from './up.js';
import { UsageError } from './flags.js';

export interface Command {
  name: string;
  summary: string;
  help(): string;
  run(argv: string[]): Promise<number>;
}

const FLAG_COMMANDS: Command[] = [upCommand, netCommand, hnsCommand, kubeconfigCommand];

/** commander stops with an exception instead of exiting, in every command of the tree (addCommand does not inherit it). */
function overrideExits(cmd: Program): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) overrideExits(sub);
}

function program(): Program {
  const p = new Program('winkube')
    .description('winkube — Kubernetes for mixed Linux + Windows clusters, with emulated Windows Server and Linux nodes.')
    .usage('<command> [flags]')
    .addHelpText('after', '\nRun "winkube <command> --help" for a command\'s flags. docs/cli.md shows how the commands fit together.');
  // Listed for help only: main() runs them through their own parser before commander sees the arguments.
  for (const c of FLAG_COMMANDS) p.command(c.name).summary(c.summary);
  for (const c of [apiserverCommand(), schedulerCommand(), controllerManagerCommand(), nodeCommand(), tokenCommand()]) p.addCommand(c);
  overrideExits(p);
  return p;
}

async function runFlagCommand(cmd: Command, rest: string[]): Promise<number> {
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

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const flagCommand = FLAG_COMMANDS.find((c) => c.name === name);
  if (flagCommand) return runFlagCommand(flagCommand, rest);
  const p = program();
  if (!name) {
    process.stdout.write(p.helpInformation());
    return 0;
  }
  try {
    await p.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    // commander has already printed its own message (unknown option, missing argument) or the help.
    if (err instanceof CommanderError && err.code !== 'commander.invalidArgument') return err.exitCode === 1 ? 2 : err.exitCode;
    if (err instanceof CommanderError) {
      // An InvalidArgumentError thrown from an action (flag combinations) was not printed by commander.
      if (!err.message.startsWith('error:')) process.stderr.write(`winkube ${name}: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`winkube ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.WINKUBE_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}
