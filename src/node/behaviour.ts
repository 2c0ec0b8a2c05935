// What an emulated container does: the image's entrypoint, a recognised command, or per-pod annotations, in
// increasing priority. Annotations (all optional; `.<container>` suffix targets one container):
//   winkube.io/exit-after[.<c>]    duration until the process exits (e.g. 5s, 1m, 250ms)
//   winkube.io/exit-code[.<c>]     its exit code (default 0; with exit-after alone also 0)
//   winkube.io/crash-after[.<c>]   shorthand: exit with code 1 (or exit-code) after this duration
//   winkube.io/ready-after[.<c>]   delay from start until the container reports ready
//   winkube.io/pull-duration[.<c>] how long pulling this container's image takes
//   winkube.io/stop-after[.<c>]    how long the process takes to exit after the stop signal
//   winkube.io/cpu[.<c>]           CPU the process wants, a quantity (250m, 2); its CPU limit caps it (src/node/stats)
//   winkube.io/memory[.<c>]        memory it touches (its working set), a quantity (300Mi); its limit caps what shows

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import type { EntrypointBehaviour } from './images/catalogue.js';

export const ANNOTATION_PREFIX = 'winkube.io/';

export interface ContainerBehaviour {
  /** Milliseconds from start until the process exits by itself; undefined = runs until stopped. */
  exitAfterMs?: number;
  exitCode: number;
  readyAfterMs: number;
  pullDurationMs?: number;
  stopMs: number;
  ports: number[];
  logLines: string[];
  /** Annotations fixed when the process ends (crash-after, exit-after, exit-code): they win over the emulated shell. */
  timed: boolean;
}

/** Parses a Go-style duration (`1m30s`, `500ms`, `2.5s`) or a bare number of seconds; undefined if invalid. */
export function parseDuration(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const t = s.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(t))) {
    total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
    consumed = re.lastIndex;
  }
  return consumed === t.length && consumed > 0 ? Math.round(total) : undefined;
}

function annotation(pod: Pod, key: string, container: string): string | undefined {
  const a = pod.metadata?.annotations ?? {};
  return a[`${ANNOTATION_PREFIX}${key}.${container}`] ?? a[`${ANNOTATION_PREFIX}${key}`];
}

/** The CPU and memory a container's annotations declare (winkube.io/cpu, winkube.io/memory), unparsed. */
export function usageAnnotations(pod: Pod, container: string): { cpu?: string; memory?: string } {
  return { cpu: annotation(pod, 'cpu', container), memory: annotation(pod, 'memory', container) };
}

/** Reads a command line for the few shapes whose outcome is obvious; undefined when it says nothing. */
export function behaviourFromCommand(argv: string[]): Partial<EntrypointBehaviour> | undefined {
  if (argv.length === 0) return undefined;
  const line = argv.join(' ');
  // Long-running servers and loops (the seed's PowerShell HttpListener, `while true`, agnhost servers).
  if (/HttpListener|while\s*\(?\s*(true|\$true|1|:)\b|while true|sleep infinity|Start-Sleep\s+-?\w*\s*\d{5,}|ping\s+(-t|127\.0\.0\.1\s+-t)|\b(netexec|serve-hostname|test-webserver|pause|porter|nginx|httpd)\b|tail\s+-f/i.test(line)) {
    return { kind: 'serve' };
  }
  const exit = /\bexit\s+(-?\d+)\s*;?\s*["']?\s*$/i.exec(line);
  const sleep = /\b(?:sleep|Start-Sleep(?:\s+-Seconds)?|timeout\s+\/t)\s+(\d+(?:\.\d+)?)\b/i.exec(line);
  if (sleep) return { kind: 'exit', runMs: Number(sleep[1]) * 1000, exitCode: exit ? Number(exit[1]) : 0 };
  if (exit) return { kind: 'exit', runMs: 50, exitCode: Number(exit[1]) };
  if (/^(\S*\/)?(echo|true|date|ls|env|whoami|hostname|cat|printenv|nltest)\b|cmd(\.exe)?\s+\/[sc]\b.*\becho\b/i.test(line)) return { kind: 'exit', runMs: 50, exitCode: 0 };
  if (/^(\S*\/)?false$/.test(line)) return { kind: 'exit', runMs: 50, exitCode: 1 };
  return undefined;
}

/**
 * Resolves a container's behaviour: image entrypoint < recognised command < annotations. An unrecognised command
 * is assumed to be a long-running process, the common case for overridden commands.
 */
export function resolveBehaviour(pod: Pod, c: Container, image: EntrypointBehaviour): ContainerBehaviour {
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  const fromCmd = c.command?.length ? behaviourFromCommand(argv) ?? { kind: 'serve' as const } : behaviourFromCommand(c.args ?? []);
  const base: EntrypointBehaviour = { ...image, ...(fromCmd ?? {}) };
  const b: ContainerBehaviour = {
    exitAfterMs: base.kind === 'exit' ? base.runMs ?? 0 : undefined,
    exitCode: base.exitCode ?? 0,
    readyAfterMs: 0,
    stopMs: image.stopMs ?? 200,
    ports: (c.ports ?? []).map((p) => p.containerPort).concat(base.ports ?? []),
    logLines: base.logLines ?? [],
    timed: false,
  };
  const crash = parseDuration(annotation(pod, 'crash-after', c.name));
  const exitAfter = parseDuration(annotation(pod, 'exit-after', c.name));
  const code = annotation(pod, 'exit-code', c.name);
  b.timed = crash !== undefined || exitAfter !== undefined || (code !== undefined && /^-?\d+$/.test(code));
  if (crash !== undefined) {
    b.exitAfterMs = crash;
    b.exitCode = 1;
  }
  if (exitAfter !== undefined) {
    b.exitAfterMs = exitAfter;
    b.exitCode = 0;
  }
  if (code !== undefined && /^-?\d+$/.test(code)) {
    b.exitCode = Number(code);
    b.exitAfterMs ??= 50;
  }
  b.readyAfterMs = parseDuration(annotation(pod, 'ready-after', c.name)) ?? readinessDelay(c);
  b.pullDurationMs = parseDuration(annotation(pod, 'pull-duration', c.name));
  b.stopMs = parseDuration(annotation(pod, 'stop-after', c.name)) ?? b.stopMs;
  return b;
}

/** Without a readiness probe a container is ready once started; with one, after initialDelaySeconds (first probe). */
function readinessDelay(c: Container): number {
  const p = c.readinessProbe;
  if (!p) return 0;
  return (p.initialDelaySeconds ?? 0) * 1000;
}
