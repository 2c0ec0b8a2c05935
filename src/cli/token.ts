// `winkube token create`: a bootstrap token for joining node agents, as `kubeadm token create` makes it (a Secret
// bootstrap-token-<id> in kube-system), optionally with the whole `winkube node` join command.

import { Command, InvalidArgumentError } from 'commander';
import { caCertHash } from '../bootstrap/ca-hash.js';
import { DEFAULT_NODE_TOKEN_GROUP, formatToken, generateToken, parseToken, tokenSecret } from '../bootstrap/token.js';
import { createHttpClient, optionsFromKubeconfig } from '../client/http-transport.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { R } from '../client/resources.js';
import { collect, durationOption } from './component-runtime.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface CreateOpts {
  kubeconfig?: string;
  dataDir: string;
  ttl: number;
  description?: string;
  groups?: string[];
  printJoinCommand?: boolean;
}

export function tokenCommand(): Command {
  const token = new Command('token').summary('manage bootstrap tokens for joining node agents (kubeadm token)');
  token.command('create [token]')
    .description('Creates a bootstrap token (random unless given as <id>.<secret>) and prints it.')
    .option('--kubeconfig <file>', 'kubeconfig of the cluster (default $KUBECONFIG, else <data-dir>/kubeconfig)')
    .option('--data-dir <dir>', 'data directory of a cluster started with `winkube up` or `winkube apiserver`', '.winkube')
    .addOption(durationOption('--ttl <duration>', 'how long the token lives; 0 never expires', '24h'))
    .option('--description <text>', 'a human-readable note stored with the token')
    .option('--groups <groups>', 'extra groups the token authenticates as', collect)
    .option('--print-join-command', 'print the whole `winkube node` command to join with this token')
    .action(async (given: string | undefined, o: CreateOpts) => {
      const path = o.kubeconfig ?? process.env.KUBECONFIG?.split(':')[0] ?? join(resolve(o.dataDir), 'kubeconfig');
      if (!existsSync(path)) throw new InvalidArgumentError(`no kubeconfig at ${path}: pass --kubeconfig`);
      const target = optionsFromKubeconfig(loadKubeconfig(path));
      let t;
      try {
        t = given ? parseToken(given) : generateToken();
      } catch (err) {
        throw new InvalidArgumentError((err as Error).message);
      }
      for (const g of o.groups ?? []) if (!/^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/.test(g)) throw new InvalidArgumentError(`--groups: "${g}" must match system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]`);
      const client = createHttpClient(target);
      await client.create(R.secrets, 'kube-system', tokenSecret(t, { now: Date.now(), ttlMs: o.ttl, description: o.description, groups: o.groups ?? [DEFAULT_NODE_TOKEN_GROUP] }));
      if (!o.printJoinCommand) {
        process.stdout.write(`${formatToken(t)}\n`);
        return;
      }
      if (!target.ca) throw new Error('the kubeconfig names no CA, so there is no hash to pin');
      process.stdout.write(`winkube node --server ${target.server} --token ${formatToken(t)} --discovery-token-ca-cert-hash ${caCertHash(target.ca)}\n`);
    });
  return token;
}
