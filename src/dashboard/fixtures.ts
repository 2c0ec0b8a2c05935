// Small builders of Node, Pod, Deployment and Event objects for the dashboard's unit tests.

import type { Taint } from 'kubernetes-types/core/v1.js';
import type { NodeObject } from './node-view.js';
import type { PodObject } from './pod-view.js';
import type { DeploymentObject, EventObject } from './workload-view.js';

export function makeNode(name: string, o: { os?: 'linux' | 'windows'; build?: string; ubr?: number; osImage?: string; ready?: string; taints?: Taint[]; roles?: string[]; cpu?: string; memory?: string; pods?: string; unschedulable?: boolean } = {}): NodeObject {
  const os = o.os ?? 'linux';
  const labels: Record<string, string> = { 'kubernetes.io/os': os, 'kubernetes.io/arch': 'amd64' };
  if (o.build) labels['node.kubernetes.io/windows-build'] = o.build;
  for (const r of o.roles ?? []) labels[`node-role.kubernetes.io/${r}`] = '';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: {
      allocatable: { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: o.pods ?? '110' },
      conditions: o.ready === undefined ? [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }]
        : o.ready === 'missing' ? [] : [{ type: 'Ready', status: o.ready, message: 'Kubelet stopped posting node status.' }],
      nodeInfo: {
        architecture: 'amd64', bootID: '', containerRuntimeVersion: 'containerd://1.7.0', kernelVersion: o.build ? `${o.build}.${o.ubr ?? 1}` : '6.8.0',
        kubeProxyVersion: '', kubeletVersion: 'v1.33.0', machineID: '', operatingSystem: os, systemUUID: '',
        osImage: o.osImage ?? (os === 'windows' ? 'Windows Server 2019 Datacenter' : 'Debian GNU/Linux 12 (bookworm)'),
      },
    },
  };
}

export function makePod(name: string, o: { ns?: string; node?: string; phase?: string; cpu?: string; memory?: string; os?: string; created?: string; scheduled?: { reason: string; message: string }; owner?: string } = {}): PodObject {
  const requests: Record<string, string> = {};
  if (o.cpu) requests.cpu = o.cpu;
  if (o.memory) requests.memory = o.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name, namespace: o.ns ?? 'default', creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.owner, uid: 'u', controller: true }] } : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'img', resources: { requests } }],
      ...(o.node ? { nodeName: o.node } : {}),
      ...(o.os ? { nodeSelector: { 'kubernetes.io/os': o.os } } : {}),
    },
    status: {
      phase: o.phase ?? (o.node ? 'Running' : 'Pending'),
      ...(o.scheduled ? { conditions: [{ type: 'PodScheduled', status: 'False', reason: o.scheduled.reason, message: o.scheduled.message, lastTransitionTime: '2026-01-01T00:00:05Z' }] } : {}),
    },
  };
}

export function makeDeployment(name: string, replicas: number, ready: number, conditions: { type: string; status: string; reason?: string; message?: string }[] = []): DeploymentObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { spec: { containers: [], nodeSelector: { 'kubernetes.io/os': 'windows' } } } },
    status: { readyReplicas: ready, updatedReplicas: replicas, availableReplicas: ready, conditions },
  };
}

export function makeEvent(name: string, type: string, reason: string, last: string, message = ''): EventObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'default' },
    involvedObject: { kind: 'Pod', name: name.split('.')[0], namespace: 'default' },
    type, reason, message, lastTimestamp: last, count: 1, source: { component: 'default-scheduler' },
  };
}
