// Which RuntimeClass handlers a node's container runtime has, and the isolation each gives a Windows pod
// (containerd's runhcs-wcow-process / runhcs-wcow-hypervisor runtimes; dockershim's single `docker` handler; runc on
// Linux). A handler the runtime lacks fails sandbox creation (seed 000 "Simplifying with RuntimeClass").

import type { Isolation, NodeProfile } from './profile.js';

export const WCOW_PROCESS = 'runhcs-wcow-process';
export const WCOW_HYPERVISOR = 'runhcs-wcow-hypervisor';

/** Handlers configured in the node's runtime; '' is the default runtime. */
export function runtimeHandlers(p: Pick<NodeProfile, 'os' | 'containerRuntime' | 'isolation'>): string[] {
  if (p.containerRuntime === 'docker') return ['', 'docker'];
  if (p.os === 'linux') return ['', 'runc'];
  // A Hyper-V node has the hypervisor runtime configured beside the process one (hyperv.go e2e needs containerd ≥ 1.7).
  return p.isolation === 'hyperv' ? ['', WCOW_PROCESS, WCOW_HYPERVISOR] : ['', WCOW_PROCESS];
}

export type HandlerResult = { isolation: Isolation } | { error: string };

/** The pod's isolation from its RuntimeClass handler, or the runtime's error for a handler it lacks. */
export function isolationFor(p: Pick<NodeProfile, 'os' | 'containerRuntime' | 'isolation'>, handler: string): HandlerResult {
  if (!runtimeHandlers(p).includes(handler)) {
    // containerd: criService.RunPodSandbox → getSandboxRuntime; dockershim refused any handler but its own.
    return { error: p.containerRuntime === 'docker' ? `RuntimeHandler "${handler}" not supported` : `failed to get sandbox runtime: no runtime for "${handler}" is configured` };
  }
  if (handler === WCOW_HYPERVISOR) return { isolation: 'hyperv' };
  if (handler === WCOW_PROCESS) return { isolation: 'process' };
  return { isolation: p.isolation };
}
