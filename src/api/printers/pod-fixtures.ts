// Pod fixtures shared by the pod printer tests.

import type { ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1.js';

export const NOW = Date.parse('2026-01-01T01:00:00Z');
export const MIN = 60_000;
export const ago = (ms: number) => new Date(NOW - ms).toISOString();

export function cs(name: string, state: ContainerStatus['state'], extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return { name, image: 'img', imageID: '', ready: false, restartCount: 0, state, ...extra };
}
export const running = (name: string, ready = true, extra: Partial<ContainerStatus> = {}) =>
  cs(name, { running: { startedAt: ago(10 * MIN) } }, { ready, ...extra });
export const waiting = (name: string, reason?: string) => cs(name, { waiting: reason ? { reason } : {} });
export const terminated = (name: string, exitCode: number, reason?: string, signal?: number) =>
  cs(name, { terminated: { exitCode, ...(reason ? { reason } : {}), ...(signal ? { signal } : {}) } });
export const cond = (type: string, status: string, reason?: string): PodCondition => ({ type, status, ...(reason ? { reason } : {}) });

export interface PodOpts {
  containers?: string[];
  init?: { name: string; sidecar?: boolean }[];
  phase?: string;
  reason?: string;
  statuses?: ContainerStatus[];
  initStatuses?: ContainerStatus[];
  conditions?: PodCondition[];
  deleting?: boolean;
}

export function pod(o: PodOpts): Pod {
  return {
    metadata: { name: 'p', creationTimestamp: ago(30 * MIN), ...(o.deleting ? { deletionTimestamp: ago(MIN) } : {}) },
    spec: {
      containers: (o.containers ?? ['app']).map((name) => ({ name, image: 'img' })),
      initContainers: (o.init ?? []).map((c) => ({ name: c.name, image: 'img', ...(c.sidecar ? { restartPolicy: 'Always' } : {}) })),
    },
    status: {
      phase: o.phase ?? 'Running',
      ...(o.reason ? { reason: o.reason } : {}),
      containerStatuses: o.statuses ?? [],
      initContainerStatuses: o.initStatuses ?? [],
      conditions: o.conditions ?? [],
    },
  };
}
