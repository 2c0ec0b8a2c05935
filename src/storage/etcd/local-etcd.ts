// Starts a throwaway single-member etcd on free loopback ports (for tests and benchmarks), and stops it.

import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's etcd-server installs here; WINKUBE_ETCD_BIN points elsewhere. */
export const ETCD_BIN = process.env.WINKUBE_ETCD_BIN ?? '/usr/bin/etcd';

export function etcdInstalled(): boolean {
  try {
    accessSync(ETCD_BIN, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface LocalEtcd {
  /** The client URL, e.g. http://127.0.0.1:40123. */
  endpoint: string;
  dataDir: string;
  /** Pass these back (with dataDir) to restart the same member where clients expect it. */
  ports: { client: number; peer: number };
  /** Stops the process (SIGTERM, then SIGKILL); removes the data dir unless it was given by the caller. */
  stop(): Promise<void>;
}

export interface LocalEtcdOptions {
  /** Reuse a data dir (to test a restart); a fresh temporary one otherwise. */
  dataDir?: string;
  ports?: { client: number; peer: number };
  startTimeoutMs?: number;
}

export async function startLocalEtcd(opts: LocalEtcdOptions = {}): Promise<LocalEtcd> {
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'winkube-etcd-'));
  const { client, peer } = opts.ports ?? { client: await freePort(), peer: await freePort() };
  const endpoint = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const child = spawn(ETCD_BIN, [
    '--name', 'winkube', '--data-dir', dataDir,
    '--listen-client-urls', endpoint, '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peerUrl, '--initial-advertise-peer-urls', peerUrl,
    '--initial-cluster', `winkube=${peerUrl}`, '--initial-cluster-state', 'new',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString('utf8')).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    await terminate(child, exited);
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(endpoint, exited, opts.startTimeoutMs ?? 15_000);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- etcd output (last lines) ---\n${output}`);
  }
  return { endpoint, dataDir, ports: { client, peer }, stop };
}

async function terminate(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls GET /health until etcd reports {"health":"true"} (it has a leader and serves reads). */
async function waitHealthy(endpoint: string, exited: Promise<number | null>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead: number | null | undefined;
  void exited.then((code) => (dead = code));
  for (;;) {
    if (dead !== undefined) throw new Error(`etcd exited with code ${dead} before it was healthy`);
    if (await healthy(endpoint)) return;
    if (Date.now() > deadline) throw new Error(`etcd at ${endpoint} not healthy after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function healthy(endpoint: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${endpoint}/health`, { timeout: 1000 }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('"health":"true"')));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}
