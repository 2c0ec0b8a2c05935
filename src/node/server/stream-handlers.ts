// The kubelet's exec, attach and port-forward endpoints (pkg/kubelet/server/server.go getExec / getAttach /
// getPortForward): find the container or pod, upgrade the connection (streaming/), and run the session against the
// emulated container — exec in its shell, attach to its main process's output, port-forward to what listens.

import type { Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../util/log.js';
import type { Kubelet } from '../kubelet.js';
import { readLogs } from '../logs/read-logs.js';
import type { ContainerLog } from '../logs/container-log.js';
import type { RunResult } from '../shell/interfaces.js';
import { portNotListening, serveForwarded } from './port-forward.js';
import { portForwardError } from '../os/windows/wincat.js';
import { parseStreamOptions, upgradePortForward, upgradeRemoteCommand, writeRestfulError, type CommandResult, type RemoteCommandSession } from './streaming/index.js';

/** Dispatches an upgrade request routed to this node's kubelet. */
export function serveStream(kubelet: Kubelet, route: string[], url: URL, req: IncomingMessage, socket: Duplex, head: Buffer, logger: Logger): void {
  const [kind, namespace, pod, container] = route;
  if (kind === 'portforward') {
    portForward(kubelet, namespace, pod, req, socket, head, logger).catch((err: unknown) => {
      logger.warn('port-forward session failed', { pod: `${namespace}/${pod}`, err: String(err) });
      socket.destroy();
    });
    return;
  }
  const parsed = parseStreamOptions(url.searchParams, kind === 'exec');
  if ('error' in parsed) return writeRestfulError(socket, 400, parsed.error);
  const target = kubelet.streamTarget(namespace, pod, container);
  if ('error' in target) return writeRestfulError(socket, target.status, target.error);
  void (async () => {
    const session = await upgradeRemoteCommand(req, socket, head, parsed.options, { operation: kind as 'exec' | 'attach', command: parsed.command, logger });
    if (!session) return;
    if (kind === 'exec') await exec(kubelet, namespace, pod, container, parsed.command, parsed.options.tty, session);
    else attach(target, session);
  })().catch((err: unknown) => {
    logger.warn('stream session failed', { pod: `${namespace}/${pod}`, err: String(err) });
    socket.destroy();
  });
}

/** An exec id as containerd makes them: 64 hex characters, new for every exec. */
function execId(): string {
  return createHash('sha256').update(`${process.hrtime.bigint()}-${Math.random()}`).digest('hex');
}

async function exec(kubelet: Kubelet, namespace: string, pod: string, container: string, argv: string[], tty: boolean, session: RemoteCommandSession): Promise<void> {
  const ended = new AbortController();
  session.onClose(() => ended.abort('SIGKILL'));
  const running = kubelet.exec(namespace, pod, container, argv, {
    stdin: session.stdin,
    stdout: (c) => session.stdout?.write(c),
    stderr: (c) => (session.stderr ?? session.stdout)?.write(c),
    tty,
    signal: ended.signal,
  });
  if (!running) return session.finish({ error: `container not running (${container})` });
  const r: RunResult = await running;
  // containerd wraps a failed exec start in its own words before the kubelet's "error executing command in container".
  const result: CommandResult = r.kind === 'not-found' ? { error: `failed to exec in container: failed to start exec "${execId()}": ${r.message}` } : { exitCode: r.exitCode };
  session.finish(result);
}

/**
 * attach: what the main process prints from now on, until it ends or the client leaves; with `-i` what the client
 * types goes to the main process's stdin when the container has one (`stdin: true`), else it is dropped. With
 * `stdinOnce` the process's stdin closes when the first attached client leaves (kubelet/CRI semantics).
 */
function attach(target: { log?: ContainerLog; stdin?: Writable; stdinOnce?: boolean }, session: RemoteCommandSession): void {
  const log = target.log;
  if (!log) return session.finish({ exitCode: 0 });
  if (session.stdin && target.stdin) {
    session.stdin.pipe(target.stdin, { end: false });
    // The client closed its stdin (EOF): with stdinOnce the process sees EOF too.
    session.stdin.on('end', () => { if (target.stdinOnce) target.stdin?.end(); });
    session.onClose(() => {
      session.stdin?.unpipe(target.stdin);
      if (target.stdinOnce) target.stdin?.end();
    });
  } else session.stdin?.resume();
  const stop = readLogs(log, { follow: true, timestamps: false, tailLines: 0 }, {
    write: (chunk) => session.stdout?.write(chunk),
    end: () => session.finish({ exitCode: 0 }),
  });
  session.onClose(stop);
}

async function portForward(kubelet: Kubelet, namespace: string, pod: string, req: IncomingMessage, socket: Duplex, head: Buffer, logger: Logger): Promise<void> {
  const target = kubelet.portForwardTarget(namespace, pod);
  if ('error' in target) return writeRestfulError(socket, target.status, target.error);
  // Windows runs wincat.exe in the sandbox for each stream: without it (or before v1.15) every port fails.
  const unsupported = portForwardError(kubelet.profile);
  await upgradePortForward(req, socket, head, (s) => {
    if (unsupported) return s.fail(`error forwarding port ${s.port} to pod ${target.sandboxID}, uid : ${unsupported}`);
    const l = target.listener(s.port);
    if (!l) return s.fail(portNotListening(target.os, target.sandboxID, target.uid, s.port));
    serveForwarded(s.data, l);
  }, { logger });
}
