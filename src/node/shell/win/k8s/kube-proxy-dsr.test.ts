// kube-proxy.exe --enable-dsr on a host without HNS DSR: winkernel NewProxier returns hcn.DSRSupported's error after
// the network lookup, and kube-proxy exits through cmd/kube-proxy's "command failed".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run } from '../../testing/fake-env.js';

const EXE = 'C:\\k\\kube-proxy.exe';

async function startProxy(kernelVersion: string, flags: string[]) {
  const env = fakeEnv({ os: 'windows', toolset: 'hostprocess', user: 'NT AUTHORITY\\SYSTEM', hostname: 'win2019' });
  env.system.kernelVersion = kernelVersion;
  env.fs.mkdir('C:\\k', { parents: true });
  env.fs.writeFile(EXE, 'MZ').program = 'win:kube-proxy';
  env.hostNetwork = {
    hnsNetworks: () => [{ id: 'A1B2', name: 'cbr0', type: 'L2Bridge', managementIP: '172.18.0.5', subnets: [] }],
    ipamAdd: () => ({ ip: '', prefixLength: 0, gateway: '' }),
    hnsLoadBalancers: () => [],
  };
  // A process that starts runs until stopped: stop it at its first periodic sync.
  const ctl = new AbortController();
  const sleep = env.clock.sleep.bind(env.clock);
  env.clock.sleep = async (ms, signal) => {
    if (ms >= 30_000) ctl.abort('SIGTERM');
    return sleep(ms, signal);
  };
  return run(env, [EXE, '--network-name=cbr0', ...flags], { signal: ctl.signal });
}

const UNSUPPORTED = '"command failed" err="unable to create proxier: platform does not support feature Direct Server Return (DSR)"';
const CASES: { kernel: string; flags: string[]; fails?: string }[] = [
  { kernel: '10.0.17763.1431', flags: ['--enable-dsr=true', '--feature-gates=WinDSR=true'], fails: UNSUPPORTED },
  { kernel: '10.0.17763.1432', flags: ['--enable-dsr=true', '--feature-gates=WinDSR=true'] },
  { kernel: '10.0.17763.1431', flags: [] },
  // v1.33 has WinDSR on by default (beta); an explicit false fails before HNS is asked.
  { kernel: '10.0.17763.1431', flags: ['--enable-dsr', '--feature-gates=WinOverlay=true,WinDSR=false'], fails: '"command failed" err="unable to create proxier: WinDSR feature gate not enabled"' },
  { kernel: '10.0.20348.2582', flags: ['--enable-dsr'] },
];

for (const c of CASES) {
  test(`kube-proxy.exe ${c.flags.join(' ') || '(no DSR flags)'} on ${c.kernel}: ${c.fails ? 'exits' : 'starts'}`, async () => {
    const r = await startProxy(c.kernel, c.flags);
    if (c.fails) {
      assert.equal(r.code, 1);
      assert.ok(r.stderr.includes(c.fails), r.stderr);
    } else {
      assert.ok(!r.stderr.includes('command failed'), r.stderr);
      assert.match(r.stderr, /] Caches are synced for service config\n/);
    }
  });
}
