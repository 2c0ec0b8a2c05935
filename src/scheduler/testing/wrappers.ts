// Builders for test pods and nodes (after pkg/scheduler/testing/wrappers.go MakePod/MakeNode).

import type { Node, Pod, Taint, Toleration } from '../types.js';

export class PodBuilder {
  readonly pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'pause' }] } };
  name(n: string): this { this.pod.metadata.name = n; this.pod.metadata.uid = `uid-${n}`; return this; }
  namespace(ns: string): this { this.pod.metadata.namespace = ns; return this; }
  req(r: Record<string, string>): this { this.pod.spec!.containers[0]!.resources = { requests: r }; return this; }
  container(image: string, requests?: Record<string, string>): this {
    this.pod.spec!.containers.push({ name: `c${this.pod.spec!.containers.length}`, image, resources: requests ? { requests } : undefined });
    return this;
  }
  init(requests: Record<string, string>, sidecar = false): this {
    (this.pod.spec!.initContainers ??= []).push({ name: `i${this.pod.spec!.initContainers?.length ?? 0}`, image: 'init', resources: { requests }, ...(sidecar ? { restartPolicy: 'Always' } : {}) });
    return this;
  }
  overhead(r: Record<string, string>): this { this.pod.spec!.overhead = r; return this; }
  hostPort(port: number, protocol = 'TCP', hostIP?: string): this {
    (this.pod.spec!.containers[0]!.ports ??= []).push({ containerPort: port, hostPort: port, protocol, hostIP });
    return this;
  }
  node(n: string): this { this.pod.spec!.nodeName = n; return this; }
  nodeSelector(s: Record<string, string>): this { this.pod.spec!.nodeSelector = s; return this; }
  toleration(t: Toleration): this { (this.pod.spec!.tolerations ??= []).push(t); return this; }
  priority(p: number): this { this.pod.spec!.priority = p; return this; }
  affinity(a: NonNullable<Pod['spec']>['affinity']): this { this.pod.spec!.affinity = a; return this; }
  schedulerName(n: string): this { this.pod.spec!.schedulerName = n; return this; }
  gates(...names: string[]): this { this.pod.spec!.schedulingGates = names.map((name) => ({ name })); return this; }
  obj(): Pod { return structuredClone(this.pod); }
}

export class NodeBuilder {
  readonly node: Node = {
    apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', labels: {} }, spec: {},
    status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' } },
  };
  name(n: string): this { this.node.metadata.name = n; this.node.metadata.labels!['kubernetes.io/hostname'] = n; return this; }
  label(k: string, v: string): this { this.node.metadata.labels![k] = v; return this; }
  taint(t: Taint): this { (this.node.spec!.taints ??= []).push(t); return this; }
  unschedulable(): this { this.node.spec!.unschedulable = true; return this; }
  allocatable(r: Record<string, string>): this { this.node.status!.allocatable = r; return this; }
  image(size: number, ...names: string[]): this { (this.node.status!.images ??= []).push({ names, sizeBytes: size }); return this; }
  obj(): Node { return structuredClone(this.node); }
}

export const makePod = (name = 'p'): PodBuilder => new PodBuilder().name(name);
export const makeNode = (name = 'n'): NodeBuilder => new NodeBuilder().name(name);
