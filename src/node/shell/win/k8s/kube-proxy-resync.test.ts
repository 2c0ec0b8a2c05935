// kube-proxy.exe's periodic resync: winkernel's "sync-runner" BoundedFrequencyRunner runs syncProxyRules every
// --sync-period (pkg/proxy/winkernel/proxier.go NewProxier, pkg/util/async/bounded_frequency_runner.go), logging at -v=3/4.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run, T0 } from '../../testing/fake-env.js';

const EXE = 'C:\\k\\kube-proxy.exe';

/** A HostProcess kube-proxy.exe on a node whose HNS network exists and has two programmed service ports. */
async function runProxy(flags: string[], syncs: number) {
  const env = fakeEnv({ os: 'windows', toolset: 'hostprocess', user: 'NT AUTHORITY\\SYSTEM', hostname: 'win2022' });
  env.fs.mkdir('C:\\k', { parents: true });
  env.fs.writeFile(EXE, 'MZ').program = 'win:kube-proxy';
  env.env = { KUBE_NETWORK: 'flannel.4096' };
  env.hostNetwork = {
    hnsNetworks: () => [{ id: 'A1B2', name: 'flannel.4096', type: 'Overlay', managementIP: '172.18.0.5', subnets: [] }],
    ipamAdd: () => ({ ip: '', prefixLength: 0, gateway: '' }),
    hnsLoadBalancers: () => [{ id: '1', description: 'default/kubernetes:https (ClusterIP)' }, { id: '2', description: 'kube-system/kube-dns:dns (ClusterIP)' }],
  };
  // Stop the process once it has slept through `syncs` sync periods (the fake clock's sleep returns at once).
  const ctl = new AbortController();
  const sleep = env.clock.sleep.bind(env.clock);
  let long = 0;
  env.clock.sleep = async (ms, signal) => {
    if (ms >= 1000 && ++long > syncs) ctl.abort('SIGTERM');
    return sleep(ms, signal);
  };
  const r = await run(env, [EXE, ...flags], { signal: ctl.signal });
  const lines = r.stderr.trim().split('\n');
  /** Seconds since T0 of each line whose message matches. */
  const at = (re: RegExp) => lines.filter((l) => re.test(l)).map((l) => {
    const m = /^\w\d{4} (\d\d):(\d\d):(\d\d)\.\d+ /.exec(l)!;
    return (Date.UTC(2024, 5, 1, +m[1], +m[2], +m[3]) - T0) / 1000;
  });
  return { lines, at };
}

test('kube-proxy.exe resyncs every --sync-period, logging each sync at the verbosity winkernel does', async () => {
  for (const c of [
    // -v=0 (the default): a sync logs nothing, so the log does not grow while the node is quiet.
    { flags: [], ran: 0, complete: 0, policies: 0 },
    { flags: ['--v=2'], ran: 0, complete: 0, policies: 0 },
    // -v=3: the runner's line and "Syncing Policies" per sync, on the 30s default.
    { flags: ['--v=3'], ran: 3, complete: 0, policies: 3, period: 30, text: 'ran, next possible in 1s, periodic in 30s' },
    { flags: ['--v=4', '--sync-period=1m30s', '--min-sync-period', '5s'], ran: 3, complete: 3, policies: 3, period: 90, text: 'ran, next possible in 5s, periodic in 1m30s' },
  ]) {
    const { lines, at } = await runProxy(c.flags, 2);
    const ran = at(/\] sync-runner: ran, /);
    assert.equal(ran.length, c.ran, `${c.flags} ran`);
    assert.equal(at(/\] "Syncing proxy rules complete" elapsed="/).length, c.complete, `${c.flags} complete`);
    assert.equal(at(/\] "Syncing Policies"$/).length, c.policies, `${c.flags} policies`);
    if (c.period) {
      assert.deepEqual(ran.slice(1).map((t, i) => t - ran[i]), [c.period, c.period], `${c.flags} spacing`);
      assert.ok(lines.some((l) => l.endsWith(`] sync-runner: ${c.text}`)), `${c.flags} text`);
    }
  }
});

test('kube-proxy.exe: the first sync applies each service port, later resyncs find the policy applied', async () => {
  const { lines } = await runProxy(['--v=4'], 1);
  const msgs = lines.map((l) => l.replace(/^.*?\] /, '')).filter((l) => /Polic(y|ies)/.test(l));
  assert.deepEqual(msgs, [
    '"Syncing Policies"',
    '"Applying Policy" serviceInfo="default/kubernetes:https"',
    '"Applying Policy" serviceInfo="kube-system/kube-dns:dns"',
    '"Syncing Policies"',
    '"Policy already applied" serviceInfo="default/kubernetes:https"',
    '"Policy already applied" serviceInfo="kube-system/kube-dns:dns"',
  ]);
  assert.ok(lines.some((l) => l.endsWith('] "Record sync param" minSyncPeriod="1s" syncPeriod="30s" burstSyncs=2')));
});

test('kube-proxy.exe refuses a --sync-period that is not a Go duration', async () => {
  const { lines } = await runProxy(['--sync-period=30'], 0);
  assert.deepEqual(lines, ['Error: invalid argument "30" for "--sync-period" flag: time: invalid duration "30"']);
});
