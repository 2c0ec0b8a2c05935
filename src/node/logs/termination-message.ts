// A terminated container's message (pkg/kubelet/kuberuntime/kuberuntime_container.go getTerminationMessage): the
// file at terminationMessagePath, or with FallbackToLogsOnError and a failure, the tail of its log. Docker nodes
// on Windows have none ("Termination message: to be implemented with CRI-ContainerD", seed 001 "Feature Restrictions").

import type { Container } from 'kubernetes-types/core/v1.js';
import type { ContainerLog } from './container-log.js';

/** kubecontainer.MaxContainerTerminationMessageLogLines / LogLength. */
export const FALLBACK_LOG_LINES = 80;
export const FALLBACK_LOG_BYTES = 2048;

export function terminationMessage(opts: {
  spec: Container | undefined;
  exitCode: number;
  log: ContainerLog | undefined;
  /** What the process left at terminationMessagePath, if it wrote there. */
  file?: string;
  windowsDocker: boolean;
}): string | undefined {
  if (opts.windowsDocker) return undefined;
  if (opts.file) return opts.file.slice(0, 4096);
  if (opts.spec?.terminationMessagePolicy !== 'FallbackToLogsOnError' || opts.exitCode === 0 || !opts.log) return undefined;
  const lines = opts.log.snapshot().slice(-FALLBACK_LOG_LINES);
  const text = Buffer.concat(lines.map((e) => e.data)).toString();
  return text.length > FALLBACK_LOG_BYTES ? text.slice(-FALLBACK_LOG_BYTES) : text || undefined;
}
