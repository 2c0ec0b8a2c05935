// Container lifecycle hooks (pkg/kubelet/lifecycle/handlers.go): postStart and preStop run an exec, httpGet or sleep
// action against the container; a failure is worded as the kubelet words it in FailedPostStartHook /
// FailedPreStopHook events.

import type { Container, LifecycleHandler, Pod } from 'kubernetes-types/core/v1.js';
import { podFullName } from '../runtime-state.js';
import { resolvePort } from '../probes/probe-runner.js';
import type { ProbeTarget } from '../probes/probe-runner.js';

export type HookResult = { ok: true } | { ok: false; message: string };

/** How long a preStop `sleep` action takes, known before it runs (the engine's stop timer counts it). */
export function sleepActionMs(h: LifecycleHandler | undefined): number | undefined {
  return h?.sleep ? Math.max(0, h.sleep.seconds) * 1000 : undefined;
}

export async function runHook(h: LifecycleHandler, pod: Pod, c: Container, t: ProbeTarget, sleep: (ms: number) => Promise<void>, timeoutMs: number): Promise<HookResult> {
  const who = `for Container ${JSON.stringify(c.name)} in Pod ${JSON.stringify(podFullName(pod))}`;
  if (h.exec) {
    const argv = h.exec.command ?? [];
    const r = await t.exec(argv, timeoutMs);
    if ('error' in r) return { ok: false, message: `Exec lifecycle hook ([${argv.join(' ')}]) ${who} failed - error: ${r.error}, message: ""` };
    if (r.exitCode === 0) return { ok: true };
    // handlers.go: the error is utilexec's "command '…' exited with N: <output>", the message the output again.
    return { ok: false, message: `Exec lifecycle hook ([${argv.join(' ')}]) ${who} failed - error: command '${argv.join(' ')}' exited with ${r.exitCode}: ${r.output}, message: ${JSON.stringify(r.output)}` };
  }
  if (h.httpGet) {
    const port = resolvePort(c, h.httpGet.port);
    const path = h.httpGet.path ?? '/';
    if (typeof port === 'string') return { ok: false, message: `HTTP lifecycle hook (${path}) ${who} failed - error: ${port}, message: ""` };
    const host = h.httpGet.host || t.podIP;
    const r = await t.http({ host, port, path, scheme: (h.httpGet.scheme ?? 'HTTP').toLowerCase(), headers: {}, timeoutMs });
    if ('error' in r) {
      const why = r.error === 'refused' ? 'connect: connection refused' : r.error === 'timeout' ? 'i/o timeout' : 'connect: no route to host';
      return { ok: false, message: `HTTP lifecycle hook (${path}) ${who} failed - error: Get "http://${host}:${port}${path}": dial tcp ${host}:${port}: ${why}, message: ""` };
    }
    return r.status >= 200 && r.status < 400 ? { ok: true } : { ok: false, message: `HTTP lifecycle hook (${path}) ${who} failed - error: HTTP lifecycle hook (${path}) failed with statuscode: ${r.status}, message: ""` };
  }
  if (h.sleep) {
    await sleep(Math.max(0, h.sleep.seconds) * 1000);
    return { ok: true };
  }
  return { ok: false, message: 'a lifecycle handler must have exactly one action' };
}
