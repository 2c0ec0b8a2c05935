// Shared pieces of the transport conformance cases: the environment contract, a fresh namespace per case, waiting.

import assert from 'node:assert/strict';
import { StatusError } from '../../api/errors.js';
import type { KubeObject, WatchEvent } from '../../api/types.js';
import type { Client } from '../interfaces.js';
import { R } from '../resources.js';

/** What a transport under test is wired to: a winkube control plane, reached only through `client`. */
export interface TransportEnv {
  /** A Client over the transport under test, acting as a cluster admin. */
  client: Client;
  /** Events the API server's watch cache keeps per resource; the 410 case writes more than this many. */
  watchWindow: number;
  stop(): Promise<void>;
}

export type GetEnv = () => TransportEnv;

let seq = 0;

/** A new namespace with its `default` ServiceAccount (pods need it; no controller-manager runs here). */
export async function freshNamespace(c: Client, prefix: string): Promise<string> {
  const name = `${prefix}-${process.pid % 10000}-${++seq}`;
  await c.create(R.namespaces, undefined, { metadata: { name } });
  await c.create(R.serviceaccounts, name, { metadata: { name: 'default' } });
  return name;
}

export const configMap = (name: string, labels?: Record<string, string>, data: Record<string, string> = { k: name }): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

export const pod = (name: string): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }, { name: 'side', image: 'busybox:1.36' }] },
});

export const deployment = (name: string, replicas = 1): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
});

/** Awaits `p`, asserting it fails with a StatusError of this code and reason, and returns it for more checks. */
export async function statusError(p: Promise<unknown>, code: number, reason: string): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    assert.equal(err.reason, reason, err.message);
    return err;
  }
  assert.fail(`expected ${code} ${reason}, but the call succeeded`);
}

/** Polls until `cond` holds; events cross a socket in the HTTP case, so they may trail the write that caused them. */
export async function eventually(cond: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const describeEvent = (ev: WatchEvent) => `${ev.type} ${ev.object.metadata?.name}`;

/**
 * Awaits `p` but fails after `ms`. The timer is also what keeps the event loop alive meanwhile: in-process, the
 * server's own timers (RealClock) are unref'd, so nothing else would.
 */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const fail = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, fail]);
  } finally {
    clearTimeout(timer);
  }
}
