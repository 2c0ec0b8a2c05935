// `winkube up` on the same data directory keeps every object; `--help` documents the commands; a bad fleet file gets a
// clear error naming the field.

import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kubectl, kubectlBinaries, startCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const NEWEST = kubectlBinaries().slice(-1)[0];

test('a restart on the same data directory keeps every object and the nodes come back Ready', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-restart-'));
  const running: { stop(): Promise<void> }[] = [];
  try {
    const first = await startCluster({ dataDir: dir });
    running.push(first);
    let k = new Kubectl(NEWEST.path, first.kubeconfig);
    k.ok(['create', 'configmap', 'keep-me', '--from-literal=answer=42']);
    k.ok(['create', 'namespace', 'team-a']);
    const before = JSON.parse(k.ok(['get', 'configmap', 'keep-me', '-o', 'json']));
    k.dispose();
    await first.stop();

    const second = await startCluster({ dataDir: dir });
    running.push(second);
    k = new Kubectl(NEWEST.path, second.kubeconfig);
    const after = JSON.parse(k.ok(['get', 'configmap', 'keep-me', '-o', 'json']));
    assert.equal(after.metadata.uid, before.metadata.uid);
    assert.equal(after.data.answer, '42');
    assert.match(k.ok(['get', 'namespace', 'team-a']), /team-a\s+Active/);
    const nodes = k.ok(['get', 'nodes', '--no-headers']).trim().split('\n');
    assert.equal(nodes.length, 5);
    for (const n of nodes) assert.match(n, /\sReady\s/);
    k.dispose();
  } finally {
    for (const c of running) await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('winkube --help and up --help document the commands and flags', () => {
  const run = (args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'winkube.js'), ...args], { encoding: 'utf8' });
  const top = run(['--help']);
  assert.equal(top.status, 0);
  assert.match(top.stdout, /Usage: winkube <command>/);
  assert.match(top.stdout, /up\s+start a cluster/);
  const up = run(['up', '--help']);
  assert.equal(up.status, 0);
  for (const flag of ['--data-dir', '--port', '--fleet', '--log-level']) assert.ok(up.stdout.includes(flag), flag);
  const bad = run(['up', '--nope']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown flag: --nope/);
  // kube-apiserver's in-flight flags, refused with its texts before anything starts.
  for (const cmd of ['up', 'apiserver']) {
    const seats = run([cmd, '--max-requests-inflight', '0', '--max-mutating-requests-inflight', '0']);
    assert.equal(seats.status, 2, cmd);
    assert.match(seats.stderr, /invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive/, cmd);
  }
  assert.match(run(['apiserver', '--max-mutating-requests-inflight', '-1']).stderr, /--max-mutating-requests-inflight can not be negative value/);
});

test('a fleet file with a mistake is refused with the field path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-fleet-'));
  try {
    const fleet = join(dir, 'fleet.yaml');
    writeFileSync(fleet, 'nodes:\n  - name: w\n    os: windows\n    windowsBuild: 10.0.1\n');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'winkube.js'), 'up', '--data-dir', dir, '--port', '0', '--fleet', fleet], { encoding: 'utf8', timeout: 15_000 });
    assert.equal(r.status, 1, `winkube up should exit 1 at once (signal ${r.signal})`);
    assert.match(r.stderr + r.stdout, /nodes\[0\]\.windowsBuild: Unsupported value: "10\.0\.1"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
