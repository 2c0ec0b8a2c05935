// `winkube kubeconfig --user NAME [--group G ...]`: a kubeconfig for another user, with a client certificate signed by
// the cluster CA (CN = user, O = groups, as kube-apiserver's x509 authenticator reads them), to try RBAC as them.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { issueCert } from '../apiserver/pki.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { userKubeconfigYaml } from '../cluster/kubeconfig.js';
import { flagHelp, parseFlags, UsageError, type FlagSpec } from './flags.js';
import type { Command } from './main.js';

const FLAGS: FlagSpec[] = [
  { name: 'user', type: 'string', help: 'the user name (the certificate\'s CN)', placeholder: 'NAME' },
  { name: 'group', type: 'string', help: 'a group of the user (the certificate\'s O); repeat for more', placeholder: 'GROUP' },
  { name: 'out', type: 'string', help: 'write the kubeconfig here (mode 0600) instead of to stdout', placeholder: 'FILE' },
  { name: 'data-dir', type: 'string', help: 'data directory of a cluster started with `winkube up` (holds pki/ca.key)', default: '.winkube', placeholder: 'DIR' },
  { name: 'kubeconfig', type: 'string', help: 'take the server URL from this kubeconfig (default: <data-dir>/kubeconfig)', placeholder: 'FILE' },
  { name: 'server', type: 'string', help: 'API server URL (overrides --kubeconfig)', placeholder: 'URL' },
];

/** --group may repeat; the shared parser keeps one value per flag, so the repeats are taken out first. */
function takeGroups(argv: string[]): { groups: string[]; rest: string[] } {
  const groups: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--group') {
      if (argv[i + 1] === undefined) throw new UsageError('flag needs an argument: --group');
      groups.push(argv[++i]);
    } else if (a.startsWith('--group=')) {
      groups.push(a.slice('--group='.length));
    } else {
      rest.push(a);
    }
  }
  return { groups, rest };
}

export const kubeconfigCommand: Command = {
  name: 'kubeconfig',
  summary: 'mint a kubeconfig for another user (client certificate signed by the cluster CA)',
  help: () => [
    'Usage: winkube kubeconfig --user NAME [--group GROUP ...] [--out FILE] [flags]',
    '',
    'Mints a client certificate for NAME (and its groups) signed by the cluster CA of <data-dir>/pki and prints a',
    'kubeconfig that uses it. The user can do what RBAC grants it; a new user can do almost nothing:',
    '',
    '  winkube kubeconfig --user jane --out jane.kubeconfig',
    '  kubectl --kubeconfig jane.kubeconfig auth can-i list pods          # no',
    '  kubectl create rolebinding jane-view --clusterrole=view --user=jane',
    '  kubectl --kubeconfig jane.kubeconfig auth can-i list pods          # yes',
    '',
    'A user in the group system:masters can do anything, as in kube.',
    '',
    'Flags:',
    flagHelp(FLAGS),
  ].join('\n'),
  async run(argv) {
    const { groups, rest: args } = takeGroups(argv);
    const { flags, rest } = parseFlags(args, FLAGS);
    if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const user = flags.user as string | undefined;
    if (!user) throw new UsageError('--user is required');
    const dir = resolve(String(flags['data-dir']));
    const caCert = join(dir, 'pki', 'ca.crt');
    const caKey = join(dir, 'pki', 'ca.key');
    if (!existsSync(caCert) || !existsSync(caKey)) throw new UsageError(`no cluster CA in ${join(dir, 'pki')}: start a cluster with "winkube up --data-dir ${dir}" or pass --data-dir`);
    const ca = { cert: readFileSync(caCert, 'utf8'), key: readFileSync(caKey, 'utf8') };
    let server = flags.server as string | undefined;
    if (!server) {
      const admin = (flags.kubeconfig as string | undefined) ?? join(dir, 'kubeconfig');
      if (!existsSync(admin)) throw new UsageError(`no kubeconfig at ${admin} to take the server URL from: pass --server`);
      server = loadKubeconfig(admin).server;
    }
    const cert = issueCert(ca, { cn: user, orgs: groups });
    const yaml = userKubeconfigYaml(server, ca.cert, cert, user);
    const out = flags.out as string | undefined;
    if (out) writeFileSync(out, yaml, { mode: 0o600 });
    else process.stdout.write(yaml);
    return 0;
  },
};
