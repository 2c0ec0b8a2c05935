// Admission webhook cost on the write path: ConfigMap creates through `winkube up` with @kubernetes/client-node, with
// no webhook, with a validating URL webhook on 127.0.0.1 (HTTPS, verified against its caBundle), and with a
// validating plus a mutating one; prints p50/p99 per case and the added latency, then one JSON line.
// Run: node --import tsx bench/webhook.bench.ts   (BENCH_OPS, default 400 creates per case, sequential)

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as k8s from '@kubernetes/client-node';
import { startWebhookServer } from '../src/apiserver/admission/webhook/testing.js';

const OPS = Number(process.env.BENCH_OPS ?? 400);
/** The repository root: bench/ under tsx, dist/bench/ when compiled. */
const ROOT = [new URL('..', import.meta.url).pathname, new URL('../..', import.meta.url).pathname].find((d) => existsSync(join(d, 'bin', 'winkube.js')))!;

async function up(dir: string): Promise<{ kubeconfig: string; stop(): void }> {
  const kubeconfig = join(dir, 'kubeconfig');
  const proc = spawn(process.execPath, [join(ROOT, 'bin', 'winkube.js'), 'up', '--data-dir', dir, '--port', '0', '--log-level', 'error'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 90_000;
  while (!existsSync(kubeconfig)) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error('winkube up did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { kubeconfig, stop: () => proc.kill('SIGINT') };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const PHASES = ['none', 'validating', 'validating+mutating'] as const;
type Phase = (typeof PHASES)[number];
const LABEL: Record<Phase, string> = { none: 'none', validating: 'v', 'validating+mutating': 'vm' };

/**
 * The three cases interleaved create by create (the webhooks pick their ConfigMaps by an objectSelector), so machine
 * noise (GC, other processes) falls on all of them alike; the first rounds warm the connections up.
 */
async function measure(api: k8s.CoreV1Api): Promise<Record<Phase, number[]>> {
  const times: Record<Phase, number[]> = { none: [], validating: [], 'validating+mutating': [] };
  for (let i = 0; i < OPS + 20; i++) {
    for (const phase of PHASES) {
      const t0 = performance.now();
      await api.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `${LABEL[phase]}-${i}`, labels: { hooked: LABEL[phase] } }, data: { i: String(i) } } });
      if (i >= 20) times[phase].push(performance.now() - t0);
    }
  }
  return times;
}

const dir = mkdtempSync(join(tmpdir(), 'winkube-webhook-bench-'));
const cluster = await up(dir);
const hook = await startWebhookServer((_review, path) => (path === '/mutate'
  ? { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { bench: 'yes' } }])).toString('base64') }
  : { allowed: true }));
try {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const adm = kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  const webhook = (name: string, path: string, hooked: string[]) => ({
    name, clientConfig: { url: hook.url(path), caBundle: hook.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchExpressions: [{ key: 'hooked', operator: 'In', values: hooked }] },
  });
  await adm.createValidatingWebhookConfiguration({ body: { metadata: { name: 'bench' }, webhooks: [webhook('validate.bench.winkube.io', '/validate', ['v', 'vm'])] } });
  await adm.createMutatingWebhookConfiguration({ body: { metadata: { name: 'bench' }, webhooks: [webhook('mutate.bench.winkube.io', '/mutate', ['vm'])] } });
  const times = await measure(core);
  const results = Object.fromEntries(PHASES.map((p) => [p, { p50: pct(times[p], 50), p99: pct(times[p], 99) }])) as Record<Phase, { p50: number; p99: number }>;
  const added = {
    validating: { p50: results.validating.p50 - results.none.p50, p99: results.validating.p99 - results.none.p99 },
    'validating+mutating': { p50: results['validating+mutating'].p50 - results.none.p50, p99: results['validating+mutating'].p99 - results.none.p99 },
  };
  console.log(`ConfigMap create latency through winkube up, @kubernetes/client-node, ${OPS} creates per case, interleaved (ms)`);
  console.log('phase                  p50     p99     added p50  added p99');
  for (const [k, v] of Object.entries(results)) {
    const a = added[k as keyof typeof added];
    console.log(`${k.padEnd(22)} ${v.p50.toFixed(2).padStart(6)}  ${v.p99.toFixed(2).padStart(6)}  ${a ? a.p50.toFixed(2).padStart(9) : '        -'}  ${a ? a.p99.toFixed(2).padStart(9) : '        -'}`);
  }
  console.log(JSON.stringify({ bench: 'webhook', ops: OPS, latencyMs: results, addedMs: added }));
} finally {
  await hook.close();
  cluster.stop();
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dir, { recursive: true, force: true });
}
