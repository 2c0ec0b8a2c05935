// Seeded, deterministic fuzzing of the API server: thousands of malformed requests through the in-process core and a
// sample through the HTTPS front end must each get a Kubernetes Status with a 4xx code (never a crash, never a 500),
// the known cases exactly the code and reason kube-apiserver gives, and the server must keep answering afterwards.
// Reproduce a run with FUZZ_SEED=<n>; FUZZ_CORE / FUZZ_HTTP change how many random requests go each way.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { ApiRequest } from '../../src/client/interfaces.js';
import type { WatchEvent } from '../../src/api/types.js';
import { createCa, issueCert, SERVER_DNS, type CertPair } from '../../src/apiserver/pki.js';
import { MULTIPLE_PDBS_MESSAGE } from '../../src/apiserver/eviction-budget.js';
import { HttpFrontEnd } from '../../src/apiserver/http-server.js';
import { isWatchResponse } from '../../src/apiserver/interfaces.js';
import { STRATEGIES } from '../../src/api/strategies/index.js';
import { ControlPlane } from '../../src/cluster/control-plane.js';
import { RealClock } from '../../src/util/clock.js';
import { createLogger } from '../../src/util/log.js';
import type { TestControlPlane } from './helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20240611);
const CORE_REQUESTS = Number(process.env.FUZZ_CORE ?? 8000);
const HTTP_REQUESTS = Number(process.env.FUZZ_HTTP ?? 500);
const ADMIN = { name: 'fuzz-admin', groups: ['system:masters', 'system:authenticated'] };
const NS = 'fuzz';

// ---------------------------------------------------------------------------------------------------------------
// A tiny seeded PRNG (mulberry32): the same seed gives the same request sequence on every run.

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What the fuzz aims at: every served resource, its fixture object and its subresources.

type Json = unknown;

interface Target {
  /** Collection path. */
  path: string;
  apiVersion: string;
  kind: string;
  /** Name of the fixture object kept alive between requests. */
  name: string;
  subs: string[];
  template: () => Record<string, Json>;
}

const podSpec = (): Record<string, Json> => ({
  containers: [{
    name: 'c', image: 'nginx:1.25', command: ['nginx'], args: ['-g', 'daemon off;'], ports: [{ containerPort: 80, protocol: 'TCP' }],
    env: [{ name: 'A', value: 'b' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    resources: { limits: { cpu: '100m', memory: '64Mi' }, requests: { cpu: '50m', memory: '32Mi' } },
    volumeMounts: [{ name: 'v', mountPath: '/data' }],
    readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  }],
  initContainers: [{ name: 'init', image: 'busybox', command: ['true'], resources: { limits: { cpu: '10m', memory: '16Mi' } } }],
  volumes: [{ name: 'v', emptyDir: {} }, { name: 'cm', configMap: { name: 'cm1', items: [{ key: 'a', path: 'a' }] } }],
  tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoExecute', tolerationSeconds: 30 }],
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] }] } } },
  securityContext: { runAsUser: 1000, runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' } },
  terminationGracePeriodSeconds: 30, restartPolicy: 'Always', dnsPolicy: 'ClusterFirst',
  topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'x' } } }],
});

const workload = (): Record<string, Json> => ({
  spec: {
    replicas: 2, selector: { matchLabels: { app: 'x' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
    template: { metadata: { labels: { app: 'x', tier: 'web' } }, spec: podSpec() },
  },
});

const ns = (plural: string) => `/api/v1/namespaces/${NS}/${plural}`;
const nsg = (gv: string, plural: string) => `/apis/${gv}/namespaces/${NS}/${plural}`;

const TARGETS: Target[] = [
  { path: '/api/v1/namespaces', apiVersion: 'v1', kind: 'Namespace', name: 'fuzz-ns', subs: ['status', 'finalize'], template: () => ({ spec: { finalizers: ['kubernetes'] } }) },
  { path: '/api/v1/nodes', apiVersion: 'v1', kind: 'Node', name: 'n1', subs: ['status', 'proxy'], template: () => ({
    spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] },
    status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' }, allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-01-01T00:00:00Z' }], nodeInfo: { osImage: 'Windows Server 2022', kernelVersion: '10.0.20348' },
      addresses: [{ type: 'InternalIP', address: '10.0.0.5' }] },
  }) },
  { path: ns('pods'), apiVersion: 'v1', kind: 'Pod', name: 'p1', subs: ['status', 'binding', 'eviction', 'log', 'exec', 'attach', 'portforward', 'proxy', 'ephemeralcontainers'],
    template: () => ({ metadata: { labels: { app: 'x' }, annotations: { a: 'b' } }, spec: podSpec() }) },
  { path: ns('services'), apiVersion: 'v1', kind: 'Service', name: 's1', subs: ['status', 'proxy'], template: () => ({
    spec: { type: 'NodePort', selector: { app: 'x' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP', nodePort: 30080 }], sessionAffinity: 'None', ipFamilies: ['IPv4'] },
  }) },
  { path: ns('configmaps'), apiVersion: 'v1', kind: 'ConfigMap', name: 'cm1', subs: [], template: () => ({ data: { a: 'b' }, binaryData: { bin: 'AAEC' }, immutable: false }) },
  { path: ns('secrets'), apiVersion: 'v1', kind: 'Secret', name: 'sec1', subs: [], template: () => ({ type: 'Opaque', data: { a: 'YQ==' }, stringData: { b: 'c' } }) },
  { path: ns('serviceaccounts'), apiVersion: 'v1', kind: 'ServiceAccount', name: 'sa1', subs: [], template: () => ({ automountServiceAccountToken: true, secrets: [{ name: 'x' }] }) },
  { path: ns('endpoints'), apiVersion: 'v1', kind: 'Endpoints', name: 'ep1', subs: [], template: () => ({ subsets: [{ addresses: [{ ip: '10.0.0.1', nodeName: 'n1' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }] }) },
  { path: ns('events'), apiVersion: 'v1', kind: 'Event', name: 'ev1', subs: [], template: () => ({
    involvedObject: { kind: 'Pod', name: 'p1', namespace: NS }, reason: 'Started', message: 'm', type: 'Normal', count: 1,
    firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:00:00Z', source: { component: 'kubelet' },
  }) },
  { path: ns('limitranges'), apiVersion: 'v1', kind: 'LimitRange', name: 'lr1', subs: [], template: () => ({
    spec: { limits: [{ type: 'Container', default: { cpu: '200m' }, defaultRequest: { cpu: '100m' }, max: { cpu: '2' }, min: { cpu: '10m' } }] },
  }) },
  { path: ns('resourcequotas'), apiVersion: 'v1', kind: 'ResourceQuota', name: 'rq1', subs: ['status'], template: () => ({
    spec: { hard: { pods: '1000', 'requests.cpu': '1000', 'limits.memory': '1000Gi', services: '100' }, scopes: ['NotTerminating'] },
  }) },
  { path: nsg('apps/v1', 'deployments'), apiVersion: 'apps/v1', kind: 'Deployment', name: 'd1', subs: ['status', 'scale'], template: () => {
    const w = workload();
    (w.spec as Record<string, Json>).strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } };
    return w;
  } },
  { path: nsg('apps/v1', 'replicasets'), apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs1', subs: ['status', 'scale'], template: workload },
  { path: nsg('discovery.k8s.io/v1', 'endpointslices'), apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', name: 'es1', subs: [], template: () => ({
    addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true }, nodeName: 'n1' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  }) },
  { path: nsg('events.k8s.io/v1', 'events'), apiVersion: 'events.k8s.io/v1', kind: 'Event', name: 'ev2', subs: [], template: () => ({
    eventTime: '2024-01-01T00:00:00.000000Z', reportingController: 'fuzz', reportingInstance: 'fuzz-1', action: 'Test', reason: 'Fuzz',
    regarding: { kind: 'Pod', name: 'p1', namespace: NS }, type: 'Normal', note: 'n',
  }) },
  { path: nsg('coordination.k8s.io/v1', 'leases'), apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: 'l1', subs: [], template: () => ({
    spec: { holderIdentity: 'a', leaseDurationSeconds: 40, renewTime: '2024-01-01T00:00:00.000000Z', leaseTransitions: 1 },
  }) },
  { path: '/apis/node.k8s.io/v1/runtimeclasses', apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', name: 'rc1', subs: [], template: () => ({
    handler: 'runhcs-wcow-process', overhead: { podFixed: { cpu: '100m', memory: '10Mi' } },
    scheduling: { nodeSelector: { 'kubernetes.io/os': 'windows' }, tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }] },
  }) },
  { path: nsg('policy/v1', 'poddisruptionbudgets'), apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: 'pdb1', subs: ['status'], template: () => ({
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } }, unhealthyPodEvictionPolicy: 'IfHealthyBudget' },
  }) },
  { path: '/apis/scheduling.k8s.io/v1/priorityclasses', apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', name: 'pc1', subs: [], template: () => ({
    value: 1000, globalDefault: false, description: 'd', preemptionPolicy: 'Never',
  }) },
];

function fixture(t: Target): Record<string, Json> {
  return { apiVersion: t.apiVersion, kind: t.kind, ...t.template(), metadata: { name: t.name, labels: { app: 'x' } } };
}

// ---------------------------------------------------------------------------------------------------------------
// Junk: values of every wrong type and shape.

const LONG = 'x'.repeat(70000);
const STRINGS = ['', ' ', 'a', 'ÄÖÜ', '💥🔥', '\u0000', '\ud800', '\u202e', 'a'.repeat(300), LONG.slice(0, 5000), '-', '.', '..', '/', 'a/b',
  '%zz', '${x}', '<script>', '12', '-5', '1e400', 'true', 'null', 'NaN', '10Gi', '100m', '-1Gi', '1.5.6', 'UPPER', 'a b', 'a\nb'];
const NUMBERS = [0, -1, 1, 1.5, -0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE];
const KEYS = ['', 'a', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'metadata', 'spec', 'status', 'name', 'kind',
  'apiVersion', '$patch', '$retainKeys', 'a.b/c', 'x'.repeat(300), '💥', '0', '-1', 'items'];

function nested(depth: number, leaf: Json, asArray: boolean): Json {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

function junk(rng: Rng, depth = 0): Json {
  switch (rng.int(depth > 2 ? 6 : 10)) {
    case 0: return null;
    case 1: return rng.chance(0.5);
    case 2: return rng.pick(NUMBERS);
    case 3: case 4: return rng.pick(STRINGS);
    case 5: return rng.chance(0.5) ? {} : [];
    case 6: return Array.from({ length: rng.int(4) }, () => junk(rng, depth + 1));
    case 7: {
      const o: Record<string, Json> = {};
      for (let i = rng.int(4); i > 0; i--) Object.defineProperty(o, rng.pick(KEYS), { value: junk(rng, depth + 1), enumerable: true, writable: true, configurable: true });
      return o;
    }
    case 8: return nested(1 + rng.int(rng.chance(0.1) ? 3000 : 40), junk(rng, 3), rng.chance(0.5));
    default: return rng.pick(STRINGS).repeat(1 + rng.int(3));
  }
}

/** A copy of `v` with some nodes replaced by junk or given junk siblings; at least one change when `force`. */
function mangle(rng: Rng, v: Json, rate: number): Json {
  if (rng.chance(rate)) return junk(rng);
  if (Array.isArray(v)) {
    const out = v.map((x) => mangle(rng, x, rate));
    if (rng.chance(rate)) out.push(junk(rng));
    return out;
  }
  if (v && typeof v === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) out[k] = mangle(rng, x, rate);
    if (rng.chance(rate)) Object.defineProperty(out, rng.pick(KEYS), { value: junk(rng), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

/** Every path to a node in `v` (for targeted replacements). */
function paths(v: Json, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, String(i)], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out);
  return out;
}

function setAt(v: Json, path: string[], value: Json): Json {
  if (!path.length) return value;
  // An earlier replacement may have turned this branch into a scalar: nothing left to reach.
  if (v === null || typeof v !== 'object') return v;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (String(i) === head ? setAt(x, rest, value) : x));
  const o = v as Record<string, Json>;
  const out: Record<string, Json> = { ...o };
  out[head] = setAt(o[head], rest, value);
  return out;
}

/** The fixture-shaped object with one field of the wrong type (the "wrong type everywhere" cases). */
function wrongTyped(rng: Rng, obj: Record<string, Json>): Json {
  const all = paths(obj).filter((p) => p.length > 0);
  let out: Json = obj;
  for (let n = 1 + rng.int(2); n > 0; n--) out = setAt(out, rng.pick(all), junk(rng));
  return out;
}

/** A value of the same JSON type as `v`, but odd: the type checks pass, so defaulting, admission and validation see it. */
function sameTypedJunk(rng: Rng, v: Json): Json {
  if (typeof v === 'string') return rng.pick(STRINGS);
  if (typeof v === 'number') return rng.pick([...NUMBERS.filter(Number.isInteger), 0, -1, 65536, 2 ** 31 - 1]);
  if (typeof v === 'boolean') return !v;
  if (Array.isArray(v)) return rng.pick<Json[]>([[], [{}], v.length ? [v[0], v[0]] : [], [...v, v.length && v[0] && typeof v[0] === 'object' ? {} : rng.pick(STRINGS)]]);
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (!keys.length || rng.chance(0.3)) return {};
    // Drop a field: required fields go missing.
    const out: Record<string, Json> = { ...(v as Record<string, Json>) };
    delete out[rng.pick(keys)];
    return out;
  }
  return v;
}

/** The fixture-shaped object with some fields swapped for odd values of the right type, or left out. */
function sameTyped(rng: Rng, obj: Record<string, Json>): Json {
  const all = paths(obj).filter((p) => p.length > 0 && p[0] !== 'apiVersion' && p[0] !== 'kind');
  let out: Json = obj;
  for (let n = 1 + rng.int(3); n > 0; n--) {
    const at = rng.pick(all);
    let cur: Json = out;
    for (const k of at) cur = cur && typeof cur === 'object' ? (cur as Record<string, Json>)[k] : undefined;
    if (cur !== undefined) out = setAt(out, at, sameTypedJunk(rng, cur));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies as a client can send them.

interface Body {
  body?: unknown;
  contentType?: string;
  label: string;
}

const NOT_JSON = ['hello', '<xml/>', '{', '}', '[', '{"a":', '{"metadata":{"name":"x"}', "{'a':1}", '{"a":1,}', 'undefined', 'NaN', '{"a":01}',
  '\u0000\u0001', '\ufeff{}', '{"a":"\\x"}', '{"a" 1}', '--- !!binary', 'a: b: c'];
const YAML_JUNK = ['a: b: c', ': - [', '\tkey: v', '&a [*a, *a]', 'a: &x [1]\nb: *x\nc: *y', '!!binary ~~~', '{{', '- - - -', 'kind: [',
  'metadata: "name"', '%YAML 9.9\n---\na: 1', '? ? ?', '---\n---\n...', 'a: !!int "x"', 'x: ' + '['.repeat(200)];

function randomBytes(rng: Rng, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = rng.int(256);
  return b;
}

function protobufJunk(rng: Rng): Buffer {
  const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
  switch (rng.int(5)) {
    case 0: return randomBytes(rng, rng.int(64));
    case 1: return Buffer.concat([magic, randomBytes(rng, rng.int(64))]);
    case 2: {
      // A plausible runtime.Unknown envelope (typeMeta {apiVersion: v1, kind: Pod}) around random raw bytes.
      const tm = Buffer.from([0x0a, 0x02, 0x76, 0x31, 0x12, 0x03, 0x50, 0x6f, 0x64]);
      const raw = randomBytes(rng, rng.int(40));
      return Buffer.concat([magic, Buffer.from([0x0a, tm.length]), tm, Buffer.from([0x12, raw.length]), raw]);
    }
    case 3: return Buffer.concat([magic, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])]);
    default: return magic;
  }
}

function randomBody(rng: Rng, t: Target, name?: string): Body {
  const obj = fixture(t);
  if (name !== undefined) (obj.metadata as Record<string, Json>).name = name;
  switch (rng.int(15)) {
    case 12: case 13: case 14: return { body: rng.chance(0.5) ? sameTyped(rng, obj) : JSON.stringify(sameTyped(rng, obj)), contentType: 'application/json', label: 'odd-but-typed' };
    case 0: return { body: rng.pick(NOT_JSON), contentType: 'application/json', label: 'not-json' };
    case 1: {
      const text = JSON.stringify(obj);
      return { body: text.slice(0, rng.int(text.length)), contentType: 'application/json', label: 'truncated-json' };
    }
    case 2: return { body: JSON.stringify(rng.pick([[], [obj], 5, -1.5, 'str', null, true, ''])), contentType: 'application/json', label: 'wrong-top-type' };
    case 3: return { body: protobufJunk(rng), contentType: 'application/vnd.kubernetes.protobuf', label: 'protobuf-junk' };
    case 4: return { body: rng.pick(YAML_JUNK), contentType: 'application/yaml', label: 'yaml-junk' };
    case 5: {
      const kind = rng.pick(['Pod', 'Foo', '', 'Status', 'List', 7, null, t.kind.toLowerCase()]);
      const apiVersion = rng.pick(['v1', 'apps/v1', 'v2', 'nope/v1', '', '/', 'a/b/c', 1, t.apiVersion]);
      return { body: { ...obj, kind, apiVersion }, contentType: 'application/json', label: 'wrong-kind' };
    }
    case 6: case 7: return { body: rng.chance(0.5) ? wrongTyped(rng, obj) : JSON.stringify(wrongTyped(rng, obj)), contentType: 'application/json', label: 'wrong-typed-field' };
    case 8: return { body: mangle(rng, obj, 0.15), contentType: rng.pick(['application/json', undefined]), label: 'mangled' };
    case 9: {
      const meta = rng.pick<Json>(['str', [], 5, { name: ['x'] }, { name: 5 }, { labels: ['a'] }, { labels: { a: 5 } }, { labels: 'a=b' },
        { annotations: [1] }, { annotations: { a: { b: 1 } } }, { finalizers: 'x' }, { finalizers: [1, null] }, { ownerReferences: {} },
        { ownerReferences: [{ name: 5 }] }, { name: 'x'.repeat(1000) }, { name: 'Bad_Name!' }, { generateName: 7 }, { namespace: ['a'] },
        { resourceVersion: 12 }, { resourceVersion: 'abc' }, { uid: {} }, { creationTimestamp: 'yesterday' }, { deletionTimestamp: 5 },
        { managedFields: 'x' }, { managedFields: [{ manager: 5, fieldsV1: 'x' }] }, { labels: { ['x'.repeat(300)]: 'v' } }, JSON.parse('{"__proto__":{"name":"p"}}') as Json]);
      return { body: JSON.stringify({ ...obj, metadata: meta }), contentType: 'application/json', label: 'bad-metadata' };
    }
    case 10: return { body: nested(1 + rng.int(5000), obj, rng.chance(0.5)), contentType: 'application/json', label: 'deep-nesting' };
    default: return { body: rng.chance(0.5) ? undefined : '', contentType: rng.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/cbor', 'bogus', '']), label: 'empty-or-odd-type' };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Patches of every type.

const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

const JSON_PATCH_PATHS = ['', '/', 'metadata', '/metadata/labels/app', '/metadata/labels/a~1b', '/metadata/labels/~2', '/spec/containers/0/image',
  '/spec/containers/-', '/spec/containers/-1', '/spec/containers/999', '/spec/containers/01', '/data/a', '/nope/deep/path', '/metadata/name',
  '/metadata/namespace', '/kind', '/apiVersion', '/spec/replicas', '/status', '/metadata/__proto__/x', '/spec/template/spec/containers/0/ports/0/containerPort'];

function jsonPatch(rng: Rng): Body {
  if (rng.chance(0.15)) return { body: JSON.stringify(rng.pick([{}, 'x', 5, null, { op: 'add' }, [[1]], [null], ['add']])), contentType: PATCH_TYPES.json, label: 'json-patch-not-list' };
  const ops = Array.from({ length: 1 + rng.int(3) }, () => {
    const op: Record<string, Json> = { op: rng.pick(['add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus', '', 5, null, 'ADD']) };
    if (rng.chance(0.9)) op.path = rng.chance(0.8) ? rng.pick(JSON_PATCH_PATHS) : junk(rng);
    if (rng.chance(0.7)) op.value = junk(rng);
    if (rng.chance(0.3)) op.from = rng.chance(0.7) ? rng.pick(JSON_PATCH_PATHS) : junk(rng);
    return op;
  });
  return { body: rng.chance(0.5) ? ops : JSON.stringify(ops), contentType: PATCH_TYPES.json, label: 'json-patch' };
}

const SMP_DIRECTIVES: Json[] = [
  { $patch: 'bogus' }, { $patch: 'delete' }, { $patch: 'replace' }, { $patch: 5 }, { $patch: ['x'] },
  { metadata: { $patch: 'bogus' } }, { spec: { $patch: 'merge', containers: { $patch: 'x' } } },
  { spec: { containers: [{ $patch: 'bogus', name: 'c' }] } }, { spec: { containers: [{ $patch: 'delete' }] } },
  { spec: { containers: [{ image: 'no-merge-key' }] } }, { spec: { containers: ['str', 5, null] } }, { spec: { containers: { name: 'c' } } },
  { spec: { '$setElementOrder/containers': 'junk' } }, { spec: { '$setElementOrder/containers': [{ name: 5 }, 'x', null] } },
  { spec: { '$setElementOrder/containers': [{ image: 'x' }] } }, { spec: { '$setElementOrder/nope': [1] } }, { '$setElementOrder/metadata': [] },
  { spec: { $retainKeys: 'x' } }, { spec: { $retainKeys: [5, null] } }, { spec: { strategy: { $retainKeys: ['type', 'nope'], type: 'Recreate' } } },
  { metadata: { '$deleteFromPrimitiveList/finalizers': 'x' } }, { metadata: { '$deleteFromPrimitiveList/finalizers': [{ a: 1 }] } },
  { metadata: { finalizers: [{ $patch: 'delete' }] } }, { spec: { tolerations: [{ $patch: 'replace' }] } }, { spec: { volumes: [{ name: 'v', $patch: 'delete' }, 7] } },
  { spec: { template: { spec: { containers: [{ name: 'c', ports: [{ $patch: 'delete', containerPort: 'x' }] }] } } } },
  { spec: { ports: [{ port: 'eighty' }] } }, { data: [1, 2] }, { metadata: { labels: ['a'] } }, { metadata: { labels: { a: 5 } } },
  { spec: { '$deleteFromPrimitiveList/args': 5 } }, { $setElementOrder: 5 }, { '$setElementOrder/': [] }, { '$retainKeys/x': 1 },
];

function strategicPatch(rng: Rng, t: Target): Body {
  const base = rng.pick(SMP_DIRECTIVES);
  const body = rng.chance(0.3) ? mangle(rng, { ...fixture(t), ...(base as object) }, 0.1) : base;
  return { body: rng.chance(0.5) ? body : JSON.stringify(body), contentType: PATCH_TYPES.strategic, label: 'strategic-patch' };
}

function mergePatch(rng: Rng, t: Target): Body {
  const body = rng.pick<() => Json>([
    () => junk(rng),
    () => wrongTyped(rng, fixture(t)),
    () => sameTyped(rng, fixture(t)),
    () => sameTyped(rng, fixture(t)),
    () => mangle(rng, fixture(t), 0.2),
    () => ({ metadata: null }),
    () => ({ metadata: { name: 'other' } }),
    () => ({ metadata: { namespace: 'other', resourceVersion: 'junk' } }),
    () => ({ kind: 'Other', apiVersion: 'x/v9' }),
    () => ({ spec: null, status: 5 }),
  ])();
  return { body: rng.chance(0.5) ? body : JSON.stringify(body), contentType: PATCH_TYPES.merge, label: 'merge-patch' };
}

function applyPatch(rng: Rng, t: Target): Body {
  switch (rng.int(6)) {
    case 5: return { body: JSON.stringify(sameTyped(rng, fixture(t))), contentType: PATCH_TYPES.apply, label: 'apply-odd-but-typed' };
    case 0: return { body: rng.pick(YAML_JUNK), contentType: PATCH_TYPES.apply, label: 'apply-bad-yaml' };
    case 1: return { body: rng.pick(['- a\n- b', '5', '"str"', 'null', '[]', '{}', 'kind: Pod']), contentType: PATCH_TYPES.apply, label: 'apply-wrong-shape' };
    case 2: return { body: JSON.stringify(wrongTyped(rng, fixture(t))), contentType: PATCH_TYPES.apply, label: 'apply-wrong-typed' };
    case 3: return { body: JSON.stringify({ ...fixture(t), metadata: { name: 'different' } }), contentType: PATCH_TYPES.apply, label: 'apply-other-name' };
    default: return { body: JSON.stringify(mangle(rng, fixture(t), 0.15)), contentType: PATCH_TYPES.apply, label: 'apply-mangled' };
  }
}

function randomPatch(rng: Rng, t: Target): Body {
  switch (rng.int(6)) {
    case 0: return jsonPatch(rng);
    case 1: return mergePatch(rng, t);
    case 2: case 3: return strategicPatch(rng, t);
    case 4: return applyPatch(rng, t);
    default: return { body: '{}', contentType: rng.pick(['application/json', 'text/plain', '', 'application/json-patch', 'application/yaml']), label: 'patch-bad-content-type' };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Query parameters and paths.

const BAD_QUERY: [string, string][] = [
  ['limit', 'abc'], ['limit', '-1'], ['limit', '1.5'], ['limit', '99999999999999999999'], ['limit', ''], ['continue', 'junk'],
  ['continue', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiIn0'], ['continue', '%%%'], ['continue', Buffer.from('{"rv":"x"}').toString('base64')],
  ['labelSelector', 'a in ('], ['labelSelector', '!!'], ['labelSelector', 'x=y,'], ['labelSelector', '='], ['labelSelector', 'a notin b'],
  ['labelSelector', 'a==b==c'], ['labelSelector', 'x'.repeat(100) + '=y'], ['labelSelector', 'a in (b,,c)'], ['labelSelector', 'a>b'], ['labelSelector', 'a>1,b<'],
  ['fieldSelector', 'spec.bogus=1'], ['fieldSelector', 'metadata.name'], ['fieldSelector', '=x'], ['fieldSelector', 'a==b==c'], ['fieldSelector', 'metadata.name!=,'],
  ['fieldSelector', 'status.phase in (x)'], ['timeoutSeconds', '-5'], ['timeoutSeconds', 'abc'], ['timeoutSeconds', '1e9'], ['watch', 'maybe'], ['watch', '2'],
  ['dryRun', 'Foo'], ['dryRun', ''], ['dryRun', 'all'], ['fieldValidation', 'Nope'], ['fieldValidation', ''], ['propagationPolicy', 'Bad'], ['propagationPolicy', ''],
  ['gracePeriodSeconds', 'abc'], ['gracePeriodSeconds', '-1'], ['gracePeriodSeconds', '1e999'], ['resourceVersion', 'abc'], ['resourceVersion', '-1'],
  ['resourceVersion', '99999999999999999999999'], ['resourceVersionMatch', 'Bogus'], ['resourceVersionMatch', 'Exact'], ['includeObject', 'Bogus'],
  ['force', 'maybe'], ['fieldManager', ''], ['fieldManager', 'x'.repeat(200)], ['pretty', 'x'], ['allowWatchBookmarks', 'x'], ['sendInitialEvents', 'maybe'],
  ['orphanDependents', 'x'], ['container', '💥'], ['follow', 'x'], ['tailLines', '-9'], ['sinceSeconds', 'x'], ['unknownParam', 'x'],
];

function randomQuery(rng: Rng): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  for (let n = 1 + rng.int(3); n > 0; n--) {
    const [k, v] = rng.pick(BAD_QUERY);
    const prev = q[k];
    q[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return q;
}

const ODD_PATHS = [
  '/', '//', '/api//v1//namespaces', '/api/v1/namespaces/', `/api/v1/namespaces/${NS}/configmaps/`, `/api/v1/namespaces/${NS}//configmaps`,
  '/api/v1/namespaces/%zz/pods', '/api/v1/namespaces/%2e%2e/pods', `/api/v1/namespaces/${NS}/configmaps/%2Fetc%2Fpasswd`, `/api/v1/namespaces/${NS}/../pods`,
  '/api/v1/namespaces/../../etc', '/apis/nope/v1/foos', '/apis/apps/v99/deployments', '/api/v2/pods', '/apis/apps', '/apis//v1', '/apis/apps/v1/',
  '/api/v1/foos', '/api/v1/namespaces/fuzz/foos/x', '/api/v1/namespaces/fuzz/pods/p1/bogus', '/api/v1/namespaces/fuzz/pods/p1/status/extra/more',
  '/api/v1/pods/p1', '/api/v1/nodes/n1/status/x', '/api/v1/namespaces/fuzz/namespaces', '/api/v1/namespaces/fuzz/nodes', '/api/v1/namespaces/fuzz/nodes/n1',
  '/apis/apps/v1/namespaces/fuzz/deployments/d1/scale/extra', '/apis/apps/v1/deployments/d1', '/apis/apps/v1/namespaces/fuzz/pods', '/api/v1/namespaces/fuzz/deployments',
  `/api/v1/namespaces/${NS}/configmaps/${'n'.repeat(2000)}`, `/api/v1/namespaces/${'n'.repeat(300)}/configmaps`, '/api/v1/namespaces/fuzz/configmaps/💥',
  '/api/v1/namespaces/fuzz/configmaps/%F0%9F%92%A5', '/api/v1/namespaces/fuzz/configmaps/%00', '/api/v1/namespaces/%20/configmaps', '/API/V1/PODS',
  '/openapi/v3/nope', '/openapi/v3/apis/apps/v9', '/openapi/v2/x', '/version/x', '/healthz/x', '/apis/apps/v1/namespaces', '/api/v1/namespaces/fuzz/status',
  '/api/v1/namespaces/fuzz/finalize', '/api/v1/nodes/n1/proxy', '/api/v1/nodes/n1/proxy/../../../x', '/api/v1/nodes/nope/proxy/configz', '/api/v1/namespaces/fuzz/pods/nope/log',
  '/api/v1/namespaces/fuzz/services/s1/proxy/x', '/apis/events.k8s.io/v1/events', '/apis/coordination.k8s.io/v1/leases/l1', '/api', '/apis', '/api/v1', '/apis/apps/v1',
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'FOO'];
const ACCEPTS = [undefined, 'application/json', 'text/html', 'application/json;as=Table;v=v9;g=meta.k8s.io', 'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', '*/*;q=abc', ',,,', ';;;', 'application/vnd.kubernetes.protobuf', 'application/yaml',
  'application/json;g=apidiscovery.k8s.io;v=v9;as=APIGroupDiscoveryList', 'application/json;as=Table;v=v1;g=meta.k8s.io;includeObject=Bogus', '💥/💥'];

// ---------------------------------------------------------------------------------------------------------------
// One request, its expectation and the checks every answer must pass.

interface Case {
  /** Which generator made it, for the tally. */
  kind: string;
  method: string;
  path: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
  contentType?: string;
  accept?: string;
  /** Known cases: the code (and reason) kube-apiserver answers. */
  expect?: { code: number; reason?: string };
}

interface Answer {
  status: number;
  body: unknown;
  /** Error events of a watch that started. */
  events?: WatchEvent[];
}

function show(v: unknown): string {
  if (v === undefined) return '';
  if (Buffer.isBuffer(v)) return `<${v.length} bytes: ${v.subarray(0, 24).toString('hex')}>`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return '<too deep to print>';
  }
}

function queryString(q: Record<string, string | string[]>): string {
  return new URLSearchParams(Object.entries(q).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]))).toString();
}

function describe(c: Case): string {
  const body = show(c.body);
  const q = c.query ? `?${queryString(c.query)}` : '';
  return `${c.method} ${c.path.slice(0, 120)}${q} [${c.contentType ?? '-'}] ${body.slice(0, 200)}`;
}

function isStatus(body: unknown, code: number): string | undefined {
  if (!body || typeof body !== 'object') return `non-object body ${JSON.stringify(body)?.slice(0, 100)}`;
  const s = body as Record<string, unknown>;
  if (s.kind !== 'Status' || s.apiVersion !== 'v1') return `not a v1 Status: ${JSON.stringify(body).slice(0, 150)}`;
  if (s.status !== 'Failure') return `status ${String(s.status)}`;
  if (typeof s.reason !== 'string' || !s.reason) return `no reason: ${JSON.stringify(body).slice(0, 150)}`;
  if (s.code !== code) return `code ${String(s.code)} != HTTP ${code}`;
  if (typeof s.message !== 'string') return 'no message';
  return undefined;
}

/** The problem with an answer, or undefined when it is one kube-apiserver could give. */
function problem(c: Case, a: Answer): string | undefined {
  const proxied = /\/proxy(\/|$)/.test(c.path);
  // The one 500 kube-apiserver gives on purpose, a Status without a reason: an eviction of a pod two budgets select
  // (pkg/registry/core/pod/storage/eviction.go).
  const body = a.body as { kind?: string; message?: string; code?: number } | undefined;
  if (a.status === 500 && /\/eviction$/.test(c.path) && body?.kind === 'Status' && body.code === 500 && body.message === MULTIPLE_PDBS_MESSAGE) return undefined;
  if (a.status >= 500 && !(proxied && a.status === 503)) {
    return `HTTP ${a.status}: ${(a.body as { message?: string } | undefined)?.message?.slice(0, 160) ?? JSON.stringify(a.body)?.slice(0, 160)}`;
  }
  // A HEAD answer carries no body over HTTP.
  if ((a.status < 200 || a.status >= 300) && !(c.method === 'HEAD' && a.body === '')) {
    const bad = isStatus(a.body, a.status);
    if (bad) return `HTTP ${a.status} without a Status (${bad})`;
  }
  for (const ev of a.events ?? []) {
    const code = (ev.object as { code?: number }).code ?? 0;
    if (ev.type === 'ERROR' && (code >= 500 || isStatus(ev.object, code))) return `watch ERROR event ${JSON.stringify(ev.object).slice(0, 160)}`;
  }
  if (c.expect && (a.status !== c.expect.code || (c.expect.reason && (a.body as { reason?: string }).reason !== c.expect.reason))) {
    return `expected ${c.expect.code} ${c.expect.reason ?? ''}, got ${a.status} ${(a.body as { reason?: string; message?: string })?.reason ?? ''}: ${String((a.body as { message?: string })?.message ?? '').slice(0, 160)}`;
  }
  return undefined;
}

class Findings {
  readonly byKind = new Map<string, number>();
  readonly byCode = new Map<number, number>();
  readonly problems = new Map<string, string>();
  total = 0;

  record(c: Case, a: Answer, via: string): void {
    this.total++;
    const k = `${via}:${c.kind} ${a.status}`;
    this.byKind.set(k, (this.byKind.get(k) ?? 0) + 1);
    this.byCode.set(a.status, (this.byCode.get(a.status) ?? 0) + 1);
    const p = problem(c, a);
    if (!p) return;
    // One example per distinct symptom (numbers and quoted names stripped), so a report lists bugs, not requests.
    const sig = `${via} ${c.kind} ${c.method} ${p.replace(/"[^"]*"/g, '""').replace(/\d+/g, 'N').slice(0, 120)}`;
    if (this.problems.has(sig)) return;
    // Where the server failed: the stack it logged for the internal error, if any.
    const where = a.status >= 500 && lastServerError ? `\n      server: ${lastServerError.split('\n').slice(0, 4).join(' | ')}` : '';
    this.problems.set(sig, `${p}${where}\n      request: ${describe(c)}`);
  }

  report(): string {
    return [...this.problems.entries()].map(([sig, ex]) => `- ${sig}\n      ${ex}`).join('\n');
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sending: straight to the API server core, or over HTTPS.

let t: TestControlPlane;
/** The last internal error the API server logged (with its stack), to point a report at the failing code. */
let lastServerError = '';
const logger = createLogger({ level: 'error', write: (line) => (lastServerError = line) });
let front: HttpFrontEnd;
let ca: CertPair;
let admin: CertPair;
let agent: https.Agent;
/** The current test's findings (each test starts afresh, so a report names the test that found a problem). */
let findings = new Findings();

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms: ${what}`)), ms)))])
    .finally(() => clearTimeout(timer));
}

async function viaCore(c: Case): Promise<Answer> {
  lastServerError = '';
  const req = { method: c.method as ApiRequest['method'], path: c.path, query: c.query, body: c.body, contentType: c.contentType, accept: c.accept, user: ADMIN };
  // ApiServer.handle promises never to throw: a rejection here fails the test at once.
  const res = await withTimeout(t.cp.api.handle(req), 5000, describe(c));
  if (!isWatchResponse(res)) return { status: res.status, body: res.body };
  const events: WatchEvent[] = [];
  const stop = await withTimeout(res.watch({ send: (ev) => events.push(ev), close: () => {} }), 5000, describe(c));
  stop();
  return { status: 200, body: undefined, events: events.filter((e) => e.type === 'ERROR') };
}

function encodePath(path: string): string {
  // Keep '%' sequences and '/' as they are (the odd-path cases rely on them); escape what HTTP cannot carry raw.
  return path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (ch) => encodeURIComponent(ch));
}

function viaHttp(c: Case): Promise<Answer> {
  lastServerError = '';
  const q = c.query ? queryString(c.query) : '';
  const payload = c.body === undefined ? undefined : Buffer.isBuffer(c.body) ? c.body : Buffer.from(typeof c.body === 'string' ? c.body : show(c.body));
  const headers: Record<string, string | number> = {};
  if (c.contentType) headers['content-type'] = c.contentType;
  // HTTP headers carry Latin-1 only: other characters go percent-encoded.
  if (c.accept) headers.accept = /[^\x20-\x7e]/.test(c.accept) ? encodeURIComponent(c.accept) : c.accept;
  if (payload) headers['content-length'] = payload.length;
  const watching = /^(1|t|true)$/i.test(String(c.query?.watch ?? ''));
  return withTimeout(new Promise<Answer>((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1', port: front.port, path: encodePath(c.path) + (q ? `?${q}` : ''), method: c.method, ca: ca.cert, cert: admin.cert, key: admin.key, agent, headers,
    }, (res) => {
      const status = res.statusCode ?? 0;
      if (watching && status === 200) {
        // A watch that started streams until stopped: the 200 is the answer.
        res.destroy();
        resolve({ status, body: undefined });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        if (String(res.headers['content-type'] ?? '').startsWith('application/json') && text) {
          try {
            body = JSON.parse(text);
          } catch {
            body = `<unparseable JSON> ${text.slice(0, 100)}`;
          }
        }
        resolve({ status, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  }), 10000, describe(c));
}

async function send(c: Case, via: 'core' | 'http'): Promise<void> {
  const a = via === 'core' ? await viaCore(c) : await viaHttp(c);
  findings.record(c, a, via);
}

/** Puts back fixture objects the fuzz deleted or left terminating, so later requests reach deep code again. */
async function ensureFixtures(): Promise<void> {
  // Quotas and limit ranges the fuzz wrote (or rewrote) could refuse the fixture pod: start those afresh.
  for (const plural of ['resourcequotas', 'limitranges']) await viaCore({ kind: 'fixture', method: 'DELETE', path: ns(plural) });
  // Pods need their ServiceAccount; a collection delete may have taken it.
  await viaCore({ kind: 'fixture', method: 'POST', path: ns('serviceaccounts'), body: { metadata: { name: 'default' } } });
  for (const tg of TARGETS) {
    const path = `${tg.path}/${tg.name}`;
    const got = await viaCore({ kind: 'fixture', method: 'GET', path });
    if (got.status === 200 && !(got.body as { metadata?: { deletionTimestamp?: string } }).metadata?.deletionTimestamp) continue;
    if (got.status === 200) {
      // Terminating (finalizers or a grace period): clear finalizers and force it out.
      await viaCore({ kind: 'fixture', method: 'PATCH', path, body: { metadata: { finalizers: null } }, contentType: PATCH_TYPES.merge });
      if (tg.kind === 'Namespace') await viaCore({ kind: 'fixture', method: 'PUT', path: `${path}/finalize`, body: { metadata: { name: tg.name }, spec: { finalizers: [] } } });
      await viaCore({ kind: 'fixture', method: 'DELETE', path, query: { gracePeriodSeconds: '0' } });
    }
    const made = await viaCore({ kind: 'fixture', method: 'POST', path: tg.path, body: fixture(tg), contentType: 'application/json' });
    assert.ok(made.status === 201 || made.status === 409, `fixture ${path}: ${made.status} ${JSON.stringify(made.body).slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The generators: one random request of each family.

function targetPath(rng: Rng, tg: Target): string {
  // Namespace deletes aim at throwaway names: a terminating `fuzz` namespace would turn every later write into a 403.
  return `${tg.path}/${rng.chance(0.85) ? tg.name : rng.pick(['nope', 'x'.repeat(300), 'UPPER', 'a.b', '-', 'ÄÖ'])}`;
}

function writeCase(rng: Rng): Case {
  const tg = rng.pick(TARGETS);
  const create = rng.chance(0.5);
  const name = create ? `fz-${rng.int(1000)}` : tg.name;
  const b = randomBody(rng, tg, rng.chance(0.9) ? name : rng.pick(['other', '', 'UPPER_case']));
  const q = rng.chance(0.2) ? randomQuery(rng) : undefined;
  return { kind: `write:${b.label}`, method: create ? 'POST' : 'PUT', path: create ? tg.path : `${tg.path}/${tg.name}`, query: q, body: b.body, contentType: b.contentType };
}

function patchCase(rng: Rng): Case {
  const tg = rng.pick(TARGETS);
  const sub = tg.subs.includes('scale') && rng.chance(0.3) ? '/scale' : tg.subs.includes('status') && rng.chance(0.3) ? '/status' : '';
  const b = randomPatch(rng, tg);
  const q: Record<string, string | string[]> = rng.chance(0.7) ? { fieldManager: 'fuzz' } : {};
  if (rng.chance(0.2)) Object.assign(q, randomQuery(rng));
  if (rng.chance(0.1)) q.force = rng.pick(['true', 'maybe']);
  return { kind: `patch:${b.label}`, method: 'PATCH', path: `${tg.path}/${tg.name}${sub}`, query: q, body: b.body, contentType: b.contentType };
}

function queryCase(rng: Rng): Case {
  const tg = rng.pick(TARGETS);
  const method = rng.pick(['GET', 'GET', 'GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
  const one = method === 'GET' ? rng.chance(0.3) : method === 'DELETE' ? rng.chance(0.7) : true;
  const q = randomQuery(rng);
  if (method === 'GET' && rng.chance(0.3)) q.watch = rng.pick(['true', '1', 'True']);
  const collectionDelete = method === 'DELETE' && !one;
  let path = one ? `${tg.path}/${tg.name}` : tg.path;
  // Deletes only aim at fixtures the fuzz can put back (never the namespace all fixtures live in).
  if (method === 'DELETE' && tg.kind === 'Namespace') path = `${tg.path}/fuzz-victim-${rng.int(5)}`;
  const b = method === 'GET' ? undefined : method === 'PATCH' ? randomPatch(rng, tg) : method === 'DELETE'
    ? { body: rng.pick<Json>([undefined, '{', { gracePeriodSeconds: 'x' }, { propagationPolicy: 5 }, { preconditions: 'x' }, { preconditions: { uid: 5 } }, { dryRun: 'All' }, [], 'x']), contentType: 'application/json', label: '' }
    : randomBody(rng, tg, tg.name);
  return { kind: `query:${method}${collectionDelete ? '-collection' : ''}`, method, path, query: q, body: b?.body, contentType: b?.contentType, accept: rng.chance(0.2) ? rng.pick(ACCEPTS) : undefined };
}

function subresourceCase(rng: Rng): Case {
  const tg = rng.pick(TARGETS.filter((x) => x.subs.length));
  const sub = rng.pick(tg.subs);
  const method = rng.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  const extra = sub === 'proxy' && rng.chance(0.5) ? `/${rng.pick(['configz', 'healthz', '..', 'a/b/c', '%zz'])}` : '';
  const b = method === 'PATCH' ? randomPatch(rng, tg) : method === 'GET' ? undefined : rng.chance(0.7) ? randomBody(rng, tg, tg.name)
    : { body: rng.pick<Json>([{ target: 5 }, { target: { name: ['n1'] } }, { metadata: { name: 7 }, target: { name: 'n1' } }, { deleteOptions: 'x' },
      { kind: 'Eviction', apiVersion: 'policy/v1', metadata: { name: 'p1' }, deleteOptions: { gracePeriodSeconds: 'x' } }, { spec: { replicas: 'two' } },
      { spec: { replicas: -3 } }, { spec: { replicas: 1.5 } }, { spec: { replicas: 2 ** 40 } }, { spec: { finalizers: 'kubernetes' } }, { spec: { finalizers: [5] } }]),
    contentType: 'application/json', label: '' };
  const name = rng.chance(0.9) ? tg.name : 'nope';
  return { kind: `subresource:${sub}`, method, path: `${tg.path}/${name}/${sub}${extra}`, query: rng.chance(0.2) ? randomQuery(rng) : undefined, body: b?.body, contentType: b?.contentType };
}

function pathCase(rng: Rng): Case {
  const method = rng.pick(METHODS);
  const b = method === 'GET' || method === 'HEAD' ? undefined : rng.chance(0.5) ? { body: '{}', contentType: 'application/json' } : randomBody(rng, rng.pick(TARGETS));
  let path = rng.pick(ODD_PATHS);
  // DELETE on a namespace path would start deleting the namespace the fixtures live in.
  if (method === 'DELETE' && /^\/api\/v1\/namespaces(\/[^/]*)?\/?$/.test(path)) path = '/api/v1/namespaces/fuzz-victim-0';
  return { kind: 'path', method, path, body: b?.body, contentType: b?.contentType, accept: rng.chance(0.3) ? rng.pick(ACCEPTS) : undefined };
}

function headerCase(rng: Rng): Case {
  const tg = rng.pick(TARGETS);
  const method = rng.pick(['GET', 'GET', 'POST', 'PUT', 'PATCH']);
  const b = method === 'GET' ? undefined : { body: JSON.stringify(fixture(tg)), contentType: rng.pick(['text/plain', 'application/xml', 'application/json; charset=utf-16', 'APPLICATION/JSON',
    'application/json;;', 'multipart/form-data; boundary=x', '*/*', 'application/*', PATCH_TYPES.merge, PATCH_TYPES.json, 'application/vnd.kubernetes.protobuf', 'application/yaml;charset=x']) };
  const path = method === 'POST' ? tg.path : rng.chance(0.5) ? tg.path : `${tg.path}/${tg.name}`;
  return { kind: 'headers', method, path, body: b?.body, contentType: b?.contentType, accept: rng.pick(ACCEPTS) };
}

/** Server-side printing of whatever odd objects the fuzz managed to store (kubectl get asks for Tables). */
function tableCase(rng: Rng): Case {
  const tg = rng.pick(TARGETS);
  const accept = rng.pick(['application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json']);
  const query: Record<string, string> = rng.chance(0.5) ? { includeObject: rng.pick(['None', 'Metadata', 'Object', 'Bogus']) } : {};
  if (rng.chance(0.2)) query.watch = 'true';
  const one = !query.watch && rng.chance(0.3);
  return { kind: 'table', method: 'GET', path: one ? `${tg.path}/${tg.name}` : tg.path, query, accept };
}

/** Plausible bodies for the subresources with handlers of their own, with odd values of the right types. */
function deepSubresourceCase(rng: Rng): Case {
  const pods = TARGETS.find((x) => x.kind === 'Pod')!;
  const scalable = rng.pick(TARGETS.filter((x) => x.subs.includes('scale')));
  const ns1 = TARGETS.find((x) => x.kind === 'Namespace')!;
  const pick = rng.int(4);
  const odd = (v: Record<string, Json>) => (rng.chance(0.7) ? sameTyped(rng, v) : v);
  if (pick === 0) {
    const body = odd({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pods.name, namespace: NS }, deleteOptions: { gracePeriodSeconds: 0, propagationPolicy: 'Background', preconditions: { uid: 'x', resourceVersion: '1' }, dryRun: ['All'] } });
    return { kind: 'deep:eviction', method: 'POST', path: `${pods.path}/${pods.name}/eviction`, body, contentType: 'application/json' };
  }
  if (pick === 1) {
    const body = odd({ apiVersion: 'v1', kind: 'Binding', metadata: { name: pods.name, uid: 'x' }, target: { apiVersion: 'v1', kind: 'Node', name: 'n1' } });
    return { kind: 'deep:binding', method: 'POST', path: `${pods.path}/${pods.name}/binding`, body, contentType: 'application/json', query: { dryRun: 'All' } };
  }
  if (pick === 2) {
    const body = odd({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: scalable.name, namespace: NS }, spec: { replicas: rng.pick([0, 1, 3, -1, 2 ** 31 - 1]) } });
    return { kind: 'deep:scale', method: 'PUT', path: `${scalable.path}/${scalable.name}/scale`, body, contentType: 'application/json' };
  }
  const body = odd({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns1.name }, spec: { finalizers: ['kubernetes', 'x/y'] } });
  return { kind: 'deep:finalize', method: 'PUT', path: `${ns1.path}/${ns1.name}/finalize`, body, contentType: 'application/json' };
}

function randomCase(rng: Rng): Case {
  const r = rng.next();
  if (r < 0.28) return writeCase(rng);
  if (r < 0.5) return patchCase(rng);
  if (r < 0.63) return queryCase(rng);
  if (r < 0.73) return subresourceCase(rng);
  if (r < 0.78) return deepSubresourceCase(rng);
  if (r < 0.83) return tableCase(rng);
  if (r < 0.92) return pathCase(rng);
  return headerCase(rng);
}

// ---------------------------------------------------------------------------------------------------------------
// Known cases: what kube-apiserver answers (apiserver pkg/endpoints/handlers and apimachinery pkg/api/errors).

const CM = `${ns('configmaps')}/cm1`;
const KNOWN: Case[] = [
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: 'hello', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":{"name":', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '[]', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '42', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '"str"', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  // handlers/rest.go checkName: a PUT body without a name does not match the URL's.
  { kind: 'known', method: 'PUT', path: `${ns('configmaps')}/fx-cm`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"k1"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"kind":"ConfigMap","apiVersion":"apps/v1","metadata":{"name":"k2"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":"k3"}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":{"name":"k4","labels":["a"]}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":{"name":"k5"},"data":{"a":5}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('pods'), body: JSON.stringify({ metadata: { name: 'k6' }, spec: { containers: { name: 'c', image: 'x' } } }), contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('pods'), body: JSON.stringify({ metadata: { name: 'k7' }, spec: { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: '80' }] }] } }), contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: Buffer.from('garbage'), contentType: 'application/vnd.kubernetes.protobuf', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: 'a: b: c', contentType: 'application/yaml', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":{"name":"k8"}}', contentType: 'text/plain', expect: { code: 415, reason: 'UnsupportedMediaType' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":{}}', contentType: 'application/json', expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":{"name":"Bad_Name"}}', contentType: 'application/json', expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":{"name":"cm1"}}', contentType: 'application/json', expect: { code: 409, reason: 'AlreadyExists' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), body: '{"metadata":{"name":"k9","namespace":"other"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PUT', path: CM, body: '{"metadata":{"name":"other"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PUT', path: CM, body: '{"metadata":{"name":"cm1","namespace":"other"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PUT', path: CM, body: '{"metadata":{"name":"cm1","resourceVersion":"1"}}', contentType: 'application/json', expect: { code: 409, reason: 'Conflict' } },
  { kind: 'known', method: 'PUT', path: `${ns('configmaps')}/missing`, body: '{"metadata":{"name":"missing"}}', contentType: 'application/json', expect: { code: 404, reason: 'NotFound' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{}', contentType: 'application/json', expect: { code: 415, reason: 'UnsupportedMediaType' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{}', contentType: undefined, expect: { code: 415, reason: 'UnsupportedMediaType' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '[{"op":"bogus","path":"/data/a"}]', contentType: PATCH_TYPES.json, expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{"op":"add"}', contentType: PATCH_TYPES.json, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '[{"op":"remove","path":"/nope/deep"}]', contentType: PATCH_TYPES.json, expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '[{"op":"test","path":"/data/a","value":"nope"}]', contentType: PATCH_TYPES.json, expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{"metadata":', contentType: PATCH_TYPES.merge, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{"data":{"a":5}}', contentType: PATCH_TYPES.merge, expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{"data":{"a":5}}', contentType: PATCH_TYPES.strategic, expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '[{"op":"add","path":"/data/a","value":[1]}]', contentType: PATCH_TYPES.json, expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{"data":{"a":5}}', contentType: PATCH_TYPES.apply, query: { fieldManager: 'f' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{"$patch":"bogus"}', contentType: PATCH_TYPES.strategic, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PATCH', path: CM, body: 'kind: [', contentType: PATCH_TYPES.apply, query: { fieldManager: 'f' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PATCH', path: CM, body: '{"metadata":{"name":"cm1"}}', contentType: PATCH_TYPES.apply, expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'PATCH', path: `${ns('configmaps')}/missing`, body: '{}', contentType: PATCH_TYPES.merge, expect: { code: 404, reason: 'NotFound' } },
  { kind: 'known', method: 'GET', path: ns('configmaps'), query: { limit: 'abc' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'GET', path: ns('configmaps'), query: { continue: 'junk' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'GET', path: ns('configmaps'), query: { labelSelector: 'a in (' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'GET', path: ns('configmaps'), query: { fieldSelector: 'spec.bogus=1' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'GET', path: ns('configmaps'), query: { watch: 'true', timeoutSeconds: '-5' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'GET', path: ns('configmaps'), query: { watch: 'true', resourceVersion: 'abc' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'GET', path: ns('configmaps'), query: { watch: 'maybe' }, expect: { code: 200 } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), query: { dryRun: 'Foo' }, body: '{"metadata":{"name":"k10"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), query: { fieldValidation: 'Nope' }, body: '{"metadata":{"name":"k11"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: ns('configmaps'), query: { fieldValidation: 'Strict' }, body: '{"metadata":{"name":"k12"},"bogus":1}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'DELETE', path: CM, query: { propagationPolicy: 'Bad', dryRun: 'All' }, expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'DELETE', path: CM, query: { gracePeriodSeconds: 'abc', dryRun: 'All' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'DELETE', path: CM, body: '{', contentType: 'application/json', query: { dryRun: 'All' }, expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'DELETE', path: `${ns('configmaps')}/missing`, expect: { code: 404, reason: 'NotFound' } },
  { kind: 'known', method: 'DELETE', path: '/api/v1/namespaces', expect: { code: 405, reason: 'MethodNotAllowed' } },
  { kind: 'known', method: 'GET', path: '/apis/nope/v1/foos', expect: { code: 404, reason: 'NotFound' } },
  { kind: 'known', method: 'GET', path: '/api/v1/foos', expect: { code: 404, reason: 'NotFound' } },
  { kind: 'known', method: 'GET', path: '/apis/apps/v99/deployments', expect: { code: 404, reason: 'NotFound' } },
  { kind: 'known', method: 'GET', path: '/api/v1/namespaces/fuzz/pods/p1/bogus', expect: { code: 404, reason: 'NotFound' } },
  { kind: 'known', method: 'POST', path: CM, body: '{}', contentType: 'application/json', expect: { code: 405, reason: 'MethodNotAllowed' } },
  { kind: 'known', method: 'PUT', path: ns('configmaps'), body: '{}', contentType: 'application/json', expect: { code: 405, reason: 'MethodNotAllowed' } },
  { kind: 'known', method: 'POST', path: '/version', body: '{}', contentType: 'application/json', expect: { code: 405, reason: 'MethodNotAllowed' } },
  { kind: 'known', method: 'GET', path: `${ns('configmaps')}/cm1`, accept: 'text/html', expect: { code: 406, reason: 'NotAcceptable' } },
  { kind: 'known', method: 'PUT', path: '/apis/apps/v1/namespaces/fuzz/deployments/d1/scale', body: '{"spec":{"replicas":-3}}', contentType: 'application/json', expect: { code: 422, reason: 'Invalid' } },
  { kind: 'known', method: 'PUT', path: '/apis/apps/v1/namespaces/fuzz/deployments/d1/scale', body: '{"spec":{"replicas":"two"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: `${ns('pods')}/p1/binding`, body: '{"target":{"name":5}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'POST', path: `${ns('pods')}/p1/eviction`, body: '{', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
  { kind: 'known', method: 'PUT', path: '/api/v1/namespaces/fuzz-ns/finalize', body: '{"metadata":{"name":"fuzz-ns"},"spec":{"finalizers":"kubernetes"}}', contentType: 'application/json', expect: { code: 400, reason: 'BadRequest' } },
];

// ---------------------------------------------------------------------------------------------------------------

before(async () => {
  const cp = new ControlPlane({ clock: new RealClock(), logger, strategies: STRATEGIES });
  await cp.start();
  t = { cp, client: cp.client(), stop: () => cp.stop() };
  ca = createCa();
  const server = issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: ['127.0.0.1'] } });
  admin = issueCert(ca, { cn: 'fuzz-admin', orgs: ['system:masters'] });
  front = new HttpFrontEnd({ api: t.cp.api, logger, tls: { cert: server.cert, key: server.key, ca: ca.cert }, port: 0 });
  await front.listen();
  agent = new https.Agent({ keepAlive: true, maxSockets: 4 });
  await t.client.transport.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: NS } } });
  await t.client.transport.request({ method: 'POST', path: ns('serviceaccounts'), body: { metadata: { name: 'default' } } });
  await t.client.transport.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'sentinel' } } });
  const sentinel = await t.client.transport.request({ method: 'POST', path: '/api/v1/namespaces/sentinel/configmaps', body: { metadata: { name: 'keep' }, data: { k: 'v' } } });
  assert.equal(sentinel.status, 201);
  await ensureFixtures();
});

after(async () => {
  agent?.destroy();
  await front?.close();
  await t?.stop();
});

/** The server still answers ordinary requests, and nothing outside the fuzz's reach changed. */
async function assertHealthy(): Promise<void> {
  const list = await viaCore({ kind: 'health', method: 'GET', path: '/api/v1/namespaces' });
  assert.equal(list.status, 200);
  const keep = await viaCore({ kind: 'health', method: 'GET', path: '/api/v1/namespaces/sentinel/configmaps/keep' });
  assert.equal(keep.status, 200);
  assert.deepEqual((keep.body as { data: unknown }).data, { k: 'v' });
}

function failIfProblems(what: string): void {
  assert.equal(findings.problems.size, 0, `${what} (seed ${SEED}): ${findings.problems.size} distinct problems\n${findings.report()}`);
}

test('known malformed requests get the Status kube-apiserver answers', async () => {
  findings = new Findings();
  for (const via of ['core', 'http'] as const) {
    for (const c of KNOWN) await send(c, via);
  }
  await assertHealthy();
  failIfProblems('known cases');
});

test(`${CORE_REQUESTS} random malformed requests to the API server core: no crash, no 500, always a Status`, async () => {
  findings = new Findings();
  const rng = new Rng(SEED);
  const started = Date.now();
  for (let i = 0; i < CORE_REQUESTS; i++) {
    if (i % 250 === 0) {
      await ensureFixtures();
      await assertHealthy();
    }
    await send(randomCase(rng), 'core');
  }
  await assertHealthy();
  if (process.env.FUZZ_VERBOSE) console.log(`core: ${CORE_REQUESTS} requests in ${Date.now() - started} ms`, Object.fromEntries([...findings.byKind].sort()), Object.fromEntries(findings.byCode));
  failIfProblems('core fuzz');
});

test(`${HTTP_REQUESTS} random malformed requests through the HTTPS front end`, async () => {
  findings = new Findings();
  const rng = new Rng(SEED ^ 0x5eed);
  const started = Date.now();
  await ensureFixtures();
  for (let i = 0; i < HTTP_REQUESTS; i++) {
    if (i % 100 === 0) await ensureFixtures();
    const c = randomCase(rng);
    // HTTP carries bytes: methods the parser rejects outright never reach the server.
    if (c.method === 'FOO') c.method = 'OPTIONS';
    await send(c, 'http');
  }
  await assertHealthy();
  const ok = await viaHttp({ kind: 'health', method: 'GET', path: CM });
  assert.equal(ok.status, 200);
  if (process.env.FUZZ_VERBOSE) console.log(`http: ${HTTP_REQUESTS} requests in ${Date.now() - started} ms`);
  failIfProblems('HTTPS fuzz');
});
