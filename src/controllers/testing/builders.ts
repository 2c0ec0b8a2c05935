// Small object builders for controller tests.

import type { PodStatus } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from '../../api/types.js';
import type { DeploymentObj, PodObj, ReplicaSetObj, ServiceObj } from '../util/types.js';

export const NS = 'default';

export function makePod(name: string, labels: Record<string, string>, opts: {
  node?: string; phase?: PodStatus['phase']; ready?: boolean; readySince?: string; ip?: string; owner?: OwnerReference;
  created?: string; restarts?: number; uid?: string; ports?: { name?: string; containerPort: number; protocol?: string }[];
} = {}): PodObj {
  const conditions = opts.ready !== undefined
    ? [{ type: 'Ready', status: opts.ready ? 'True' : 'False', lastTransitionTime: opts.readySince ?? '2026-01-01T00:00:00Z' }]
    : undefined;
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: NS, labels, ...(opts.uid ? { uid: opts.uid } : {}),
      ...(opts.created ? { creationTimestamp: opts.created } : {}),
      ...(opts.owner ? { ownerReferences: [opts.owner] } : {}),
    },
    spec: {
      ...(opts.node ? { nodeName: opts.node } : {}),
      containers: [{ name: 'c', image: 'nginx', ...(opts.ports ? { ports: opts.ports } : {}) }],
    },
    status: {
      phase: opts.phase ?? 'Running',
      ...(conditions ? { conditions } : {}),
      ...(opts.ip ? { podIP: opts.ip, podIPs: [{ ip: opts.ip }] } : {}),
      ...(opts.restarts !== undefined ? { containerStatuses: [{ name: 'c', image: 'nginx', imageID: '', ready: !!opts.ready, restartCount: opts.restarts }] } : {}),
    } as PodStatus,
  };
}

export function makeRS(name: string, replicas: number, labels: Record<string, string>, extra: Partial<ReplicaSetObj['spec']> = {}): ReplicaSetObj {
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: { name, namespace: NS, labels },
    spec: {
      replicas, selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      ...extra,
    },
  };
}

export function makeDeployment(name: string, replicas: number, labels: Record<string, string>, image = 'nginx:1', extra: Partial<DeploymentObj['spec']> = {}): DeploymentObj {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name, namespace: NS, labels },
    spec: {
      replicas, selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image }] } },
      ...extra,
    },
  };
}

export function makeService(name: string, selector: Record<string, string> | undefined, ports: ServiceObj['spec'] extends infer S ? S extends { ports?: infer P } ? P : never : never, extra: Partial<NonNullable<ServiceObj['spec']>> = {}): ServiceObj {
  return {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name, namespace: NS, labels: { team: 'a' } },
    spec: { ...(selector ? { selector } : {}), ports, clusterIP: '10.0.0.10', ...extra },
  };
}
