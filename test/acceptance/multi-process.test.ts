// Issue 11 "Past one machine": a cluster of separate processes started through the CLI — a real etcd, two API servers
// behind one endpoint, a controller-manager pair with leader election, a scheduler and two node agents (one with a
// kubeconfig, one joined with a bootstrap token) — survives losing its leading controller-manager and an API server.

import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../src/api/types.js';
import { createHttpClient } from '../../src/client/http-transport.js';
import { R } from '../../src/client/resources.js';
import { etcdInstalled, startLocalEtcd, type LocalEtcd } from '../../src/storage/etcd/local-etcd.js';
import { eventually } from './harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const BIN = join(ROOT, 'bin/winkube.js');

/** One winkube process; its output is kept for waiting on lines and for the failure message. */
class Proc {
  readonly child: ChildProcess;
  output = '';
  readonly exited: Promise<number | null>;

  constructor(readonly name: string, args: string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (c: Buffer) => void (this.output += c.toString());
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((r) => this.child.once('exit', (code) => r(code)));
  }

  async waitFor(re: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
    return eventually(() => {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited ${this.child.exitCode}:\n${this.output}`);
      return re.exec(this.output) ?? undefined;
    }, timeoutMs, `${this.name}: ${re}\n--- output so far ---\n${this.output}`);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}

/** The control-plane endpoint (kubeadm's controlPlaneEndpoint, a load balancer in HA clusters): TCP to the first live API server. */
class Balancer {
  backends: number[] = [];
  private readonly server = net.createServer((client) => this.forward(client, 0));
  private next = 0;
  port = 0;

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  private forward(client: net.Socket, tried: number): void {
    if (tried >= this.backends.length) return void client.destroy();
    const port = this.backends[(this.next + tried) % this.backends.length];
    const upstream = net.connect(port, '127.0.0.1');
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      this.next++;
      client.pipe(upstream).pipe(client);
    });
    upstream.once('error', () => {
      // A backend that refuses the connection is down: the next one gets this client.
      if (!connected) this.forward(client, tried + 1);
      else client.destroy();
    });
    client.once('error', () => upstream.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => { if (connected) client.destroy(); });
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

const procs: Proc[] = [];
let etcd: LocalEtcd | undefined;
let lb: Balancer | undefined;
const dir = mkdtempSync(join(tmpdir(), 'winkube-multi-'));
after(async () => {
  await Promise.all(procs.map((p) => p.kill()));
  await lb?.close();
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const start = (name: string, args: string[]) => {
  const p = new Proc(name, args);
  procs.push(p);
  return p;
};

function fleet(prefix: string, octet: number): string {
  const nodes = [0, 1].map((i) => `  - name: ${prefix}-${i + 1}\n    os: linux\n    internalIP: 172.18.${octet}.${i + 10}\n    podCIDR: 10.244.${octet * 10 + i}.0/24\n`);
  const path = join(dir, `${prefix}.yaml`);
  writeFileSync(path, `nodes:\n${nodes.join('')}`);
  return path;
}

const step = (m: string) => { if (process.env.WINKUBE_TEST_DEBUG) process.stderr.write(`[multi-process] ${m}\n`); };

type PodObj = KubeObject & { spec: { nodeName?: string }; status?: { phase?: string } };

test('etcd, two API servers, a controller-manager pair, a scheduler and two node agents as processes; the survivors finish a scale-up', { skip: !etcdInstalled() && 'no etcd binary' }, async () => {
  etcd = await startLocalEtcd();
  lb = new Balancer();
  await lb.listen();
  const endpoint = `https://127.0.0.1:${lb.port}`;
  const apiArgs = (d: string) => ['apiserver', '--data-dir', d, '--port', '0', '--storage', 'etcd', '--etcd-servers', etcd!.endpoint, '--control-plane-endpoint', endpoint];
  const apiA = start('apiserver-a', apiArgs(join(dir, 'a')));
  const portA = Number((await apiA.waitFor(/serving at https:\/\/127\.0\.0\.1:(\d+)/))[1]);
  // The second API server shares the CA and keys as kubeadm's control-plane join does: a copy of pki/.
  cpSync(join(dir, 'a/pki'), join(dir, 'b/pki'), { recursive: true });
  step('apiserver a up');
  const apiB = start('apiserver-b', apiArgs(join(dir, 'b')));
  const portB = Number((await apiB.waitFor(/serving at https:\/\/127\.0\.0\.1:(\d+)/))[1]);
  step('apiserver b up');
  lb.backends = [portA, portB];
  const kubeconfig = join(dir, 'admin.conf');
  writeFileSync(kubeconfig, readFileSync(join(dir, 'a/kubeconfig'), 'utf8').replace(`https://127.0.0.1:${portA}`, endpoint));
  const client = createHttpClient(kubeconfig);

  const signing = ['--cluster-signing-cert-file', join(dir, 'a/pki/ca.crt'), '--cluster-signing-key-file', join(dir, 'a/pki/ca.key')];
  const cm1 = start('controller-manager-1', ['controller-manager', '--kubeconfig', kubeconfig, ...signing]);
  await cm1.waitFor(/leading \(lease kube-system\/kube-controller-manager/);
  step('cm1 leads');
  const cm2 = start('controller-manager-2', ['controller-manager', '--kubeconfig', kubeconfig, ...signing]);
  await cm2.waitFor(/standby; \S+ leads/);
  step('cm2 standby');
  const scheduler = start('scheduler', ['scheduler', '--kubeconfig', kubeconfig]);
  await scheduler.waitFor(/leading \(lease kube-system\/kube-scheduler/);

  step('scheduler leads');
  // One agent with the admin kubeconfig, one joined as kubeadm join does: bootstrap token + CA pin.
  const agentA = start('node-a', ['node', '--kubeconfig', kubeconfig, '--fleet', fleet('agent-a', 1), '--data-dir', join(dir, 'node-a')]);
  // Not spawnSync: the balancer lives in this process and must keep forwarding meanwhile.
  const tokenCmd = start('token-create', ['token', 'create', '--kubeconfig', kubeconfig, '--print-join-command']);
  assert.equal(await tokenCmd.exited, 0, tokenCmd.output);
  const joinArgs = tokenCmd.output.trim().split(/\s+/).slice(1); // past "winkube"
  assert.deepEqual(joinArgs.slice(0, 3), ['node', '--server', endpoint]);
  const agentB = start('node-b', [...joinArgs, '--fleet', fleet('agent-b', 2), '--data-dir', join(dir, 'node-b')]);
  await agentA.waitFor(/2 nodes joined/, 30_000);
  step('agent a joined');
  await agentB.waitFor(/2 nodes joined/, 30_000);
  step('agent b joined');
  const csrs = (await client.list<KubeObject & { spec: { username: string; signerName: string } }>(R.certificatesigningrequests, undefined)).items;
  assert.ok(csrs.some((c) => c.spec.signerName === 'kubernetes.io/kube-apiserver-client-kubelet' && c.spec.username.startsWith('system:bootstrap:')), 'agent B got its node certificate through a bootstrap-token CSR');

  await client.create(R.deployments, 'default', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'spread', namespace: 'default' },
    spec: {
      replicas: 4, selector: { matchLabels: { app: 'spread' } },
      template: {
        metadata: { labels: { app: 'spread' } },
        spec: {
          containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.9' }],
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'spread' } } }],
        },
      },
    },
  } as KubeObject);
  const running = async (n: number) => {
    const pods = (await client.list<PodObj>(R.pods, 'default', { labelSelector: 'app=spread' })).items;
    const ok = pods.filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp);
    return ok.length === n && pods.length === n ? ok : undefined;
  };
  step('deployment created');
  const first = await eventually(() => running(4), 30_000, '4 pods Running');
  const nodes = new Set(first.map((p) => p.spec.nodeName!.replace(/-\d+$/, '')));
  assert.deepEqual([...nodes].sort(), ['agent-a', 'agent-b'], 'the Deployment runs on both agents\' nodes');

  // Lose the leading controller-manager and one API server at once, then scale up through what is left.
  step('4 running');
  await Promise.all([cm1.kill(), apiA.kill()]);
  // A keep-alive connection to the dead server fails once, as it would for kubectl behind a load balancer: retry.
  await eventually(() => client.patch(R.deployments, 'default', 'spread', 'merge', { spec: { replicas: 8 } }).then(() => true, () => undefined), 10_000, 'scale to 8');
  step('scaled');
  await cm2.waitFor(/leading \(lease kube-system\/kube-controller-manager/, 30_000);
  step('cm2 leads');
  const after8 = await eventually(() => running(8), 30_000, '8 pods Running through the survivors');
  // Nothing lost: the first pods are still there, unchanged, and the Deployment reports all eight available.
  const uids = new Set(after8.map((p) => p.metadata.uid));
  for (const p of first) assert.ok(uids.has(p.metadata.uid), `pod ${p.metadata.name} survived`);
  const deploy = await eventually(async () => {
    const d = await client.get<KubeObject & { status?: { availableReplicas?: number } }>(R.deployments, 'default', 'spread');
    return d.status?.availableReplicas === 8 ? d : undefined;
  }, 20_000, 'Deployment status: 8 available');
  assert.equal(deploy.metadata.name, 'spread');
  const lease = await client.get<KubeObject & { spec: { holderIdentity: string; leaseTransitions: number } }>(R.leases, 'kube-system', 'kube-controller-manager');
  assert.equal(lease.spec.leaseTransitions, 1);
  assert.equal(cm2.child.exitCode, null, 'the new leader keeps running');
});
