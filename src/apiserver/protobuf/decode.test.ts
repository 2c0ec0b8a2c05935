import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../api/errors.js';
import { decodeKubeProtobuf } from './decode.js';

// ---------------------------------------------------------------- a tiny protobuf writer (gogo style)
// Bodies are built the way gogo's generated Marshal writes them: non-pointer fields even when zero.

function varint(v: number | bigint): Buffer {
  let n = BigInt.asUintN(64, BigInt(v)); // negative int32/int64 are sign-extended to 10 bytes
  const out: number[] = [];
  while (n > 0x7fn) {
    out.push(Number(n & 0x7fn) | 0x80);
    n >>= 7n;
  }
  out.push(Number(n));
  return Buffer.from(out);
}
const tag = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, v: number | bigint) => Buffer.concat([tag(field, 0), varint(v)]);
const len = (field: number, payload: Buffer) => Buffer.concat([tag(field, 2), varint(payload.length), payload]);
const str = (field: number, s: string) => len(field, Buffer.from(s, 'utf8'));
const msg = (field: number, ...parts: Buffer[]) => len(field, Buffer.concat(parts));
const entry = (field: number, key: string, value: Buffer) => msg(field, str(1, key), value);
const MAGIC = Buffer.from('k8s\0', 'latin1');

function envelope(apiVersion: string, kind: string, ...raw: Buffer[]): Buffer {
  return Buffer.concat([MAGIC, msg(1, str(1, apiVersion), str(2, kind)), len(2, Buffer.concat(raw)), str(3, ''), str(4, '')]);
}

/** ObjectMeta as gogo writes it: every non-pointer string and the zero creationTimestamp are present. */
function objectMeta(name: string, ...extra: Buffer[]): Buffer {
  return msg(1, str(1, name), str(2, ''), str(3, ''), str(4, ''), str(5, ''), str(6, ''), int(7, 0), msg(8), ...extra);
}
const labels = (field: number, kv: Record<string, string>) => Buffer.concat(Object.entries(kv).map(([k, v]) => entry(field, k, str(2, v))));
const quantity = (s: string) => msg(2, str(1, s));
const intstrInt = (field: number, n: number) => msg(field, int(1, 0), int(2, n), str(3, ''));
const intstrStr = (field: number, s: string) => msg(field, int(1, 1), int(2, 0), str(3, s));

// ---------------------------------------------------------------- objects kubectl creates

test('Namespace: zero non-pointer fields are left out, creationTimestamp renders null', () => {
  const body = envelope('v1', 'Namespace', objectMeta('demo'), msg(2), msg(3, str(1, '')));
  const out = decodeKubeProtobuf(body);
  assert.equal(out.apiVersion, 'v1');
  assert.equal(out.kind, 'Namespace');
  // The same object `kubectl create namespace demo` sends as JSON.
  assert.deepEqual(out.object, {
    apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo', creationTimestamp: null }, spec: {}, status: {},
  });
});

test('ConfigMap: maps become objects, a pointer bool keeps false, keys follow Go field order', () => {
  const body = envelope('v1', 'ConfigMap',
    objectMeta('cfg', str(3, 'default')),
    entry(2, 'a', str(2, '1')), entry(2, 'b.txt', str(2, 'hello\nworld')),
    entry(3, 'blob', len(2, Buffer.from([1, 2, 3]))),
    int(4, 0));
  const o = decodeKubeProtobuf(body).object;
  assert.deepEqual(o, {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'cfg', namespace: 'default', creationTimestamp: null },
    immutable: false,
    data: { a: '1', 'b.txt': 'hello\nworld' },
    binaryData: { blob: 'AQID' },
  });
  assert.deepEqual(Object.keys(o), ['kind', 'apiVersion', 'metadata', 'immutable', 'data', 'binaryData']);
});

test('Secret: binary data is base64, as Secret.data is in JSON', () => {
  const bin = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f]);
  const body = envelope('v1', 'Secret',
    objectMeta('s', str(3, 'ns')),
    entry(2, 'key.bin', len(2, bin)), entry(2, 'empty', len(2, Buffer.alloc(0))),
    str(3, 'Opaque'));
  const o = decodeKubeProtobuf(body).object;
  assert.deepEqual(o.data, { 'key.bin': bin.toString('base64'), empty: '' });
  assert.equal(o.type, 'Opaque');
  assert.equal(Buffer.from((o.data as Record<string, string>)['key.bin'], 'base64').equals(bin), true);
});

function deploymentBody(): Buffer {
  const container = msg(2,
    str(1, 'web'), str(2, 'nginx:1.27'),
    msg(6, str(1, 'http'), int(2, 0), int(3, 80), str(4, 'TCP'), str(5, '')),
    msg(8,
      entry(1, 'cpu', quantity('500m')), entry(1, 'memory', quantity('128Mi')),
      entry(2, 'cpu', quantity('250m'))),
    msg(10, msg(1, msg(2, str(1, '/healthz'), intstrStr(2, 'http'), str(3, ''), str(4, 'HTTP'))), int(2, 0), int(3, 1), int(4, 10), int(5, 0), int(6, 3)),
    str(13, ''), str(14, 'IfNotPresent'), int(16, 0), int(17, 0), int(18, 0));
  const volume = msg(1, str(1, 'config'), msg(2, msg(19, msg(1, str(1, 'app-config')), int(3, 420))));
  const podSpec = msg(2, volume, container, str(3, 'Always'), str(6, ''), str(8, ''), int(11, 0));
  const template = msg(3, objectMeta('', labels(11, { app: 'web' })), podSpec);
  const spec = msg(2,
    int(1, 3),
    msg(2, entry(1, 'app', str(2, 'web'))),
    template,
    msg(4, str(1, 'RollingUpdate'), msg(2, intstrInt(1, 0), intstrStr(2, '25%'))),
    int(5, 0), int(7, 0));
  return envelope('apps/v1', 'Deployment', objectMeta('web', str(3, 'default'), labels(11, { app: 'web', tier: 'front' })), spec, msg(3));
}

test('Deployment: pod template, ports, quantities, intstr, inline probe handler and volume source', () => {
  const o = decodeKubeProtobuf(deploymentBody()).object;
  assert.deepEqual(o, {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', creationTimestamp: null, labels: { app: 'web', tier: 'front' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'web' } },
        spec: {
          volumes: [{ name: 'config', configMap: { name: 'app-config', defaultMode: 420 } }],
          containers: [{
            name: 'web', image: 'nginx:1.27',
            ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m' } },
            livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, failureThreshold: 3 },
            imagePullPolicy: 'IfNotPresent',
          }],
          restartPolicy: 'Always',
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
    },
    status: {},
  });
});

test('a pointer scalar sent as zero is kept (replicas: 0), a required one too (PriorityClass value: 0)', () => {
  const d = decodeKubeProtobuf(envelope('apps/v1', 'Deployment', objectMeta('x'), msg(2, int(1, 0)))).object;
  assert.deepEqual(d.spec, { replicas: 0 });
  const pc = decodeKubeProtobuf(envelope('scheduling.k8s.io/v1', 'PriorityClass', objectMeta('p'), int(2, 0), int(3, 0), str(4, ''))).object;
  assert.deepEqual(pc, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'p', creationTimestamp: null }, value: 0 });
  const neg = decodeKubeProtobuf(envelope('scheduling.k8s.io/v1', 'PriorityClass', objectMeta('n'), int(2, -5))).object;
  assert.equal(neg.value, -5);
});

test('Eviction: deleteOptions with a zero grace period, dry run and preconditions', () => {
  const body = envelope('policy/v1', 'Eviction',
    objectMeta('web-1', str(3, 'default')),
    msg(2, int(1, 0), msg(2, str(1, 'uid-1')), str(5, 'All')));
  assert.deepEqual(decodeKubeProtobuf(body).object, {
    apiVersion: 'policy/v1', kind: 'Eviction',
    metadata: { name: 'web-1', namespace: 'default', creationTimestamp: null },
    deleteOptions: { gracePeriodSeconds: 0, preconditions: { uid: 'uid-1' }, dryRun: ['All'] },
  });
});

test('DeleteOptions sent under a group version decodes with the meta/v1 schema', () => {
  for (const apiVersion of ['v1', 'apps/v1', 'meta.k8s.io/v1']) {
    const o = decodeKubeProtobuf(envelope(apiVersion, 'DeleteOptions', str(4, 'Foreground'))).object;
    assert.deepEqual(o, { apiVersion, kind: 'DeleteOptions', propagationPolicy: 'Foreground' });
  }
});

test('Time renders RFC 3339 seconds (nanos dropped), MicroTime keeps microseconds', () => {
  const lease = envelope('coordination.k8s.io/v1', 'Lease',
    objectMeta('node-a', msg(9, int(1, 1_700_000_000), int(2, 999_000_000))),
    msg(2, str(1, 'node-a'), int(2, 40), msg(4, int(1, 1_700_000_000), int(2, 123_456_789)), int(5, 0)));
  const o = decodeKubeProtobuf(lease).object;
  assert.deepEqual(o.metadata, { name: 'node-a', creationTimestamp: null, deletionTimestamp: '2023-11-14T22:13:20Z' });
  assert.deepEqual(o.spec, { holderIdentity: 'node-a', leaseDurationSeconds: 40, renewTime: '2023-11-14T22:13:20.123456Z', leaseTransitions: 0 });
});

test('SelfSubjectAccessReview and SubjectAccessReview extra (a named slice renders as an array)', () => {
  const ssar = envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', objectMeta(''),
    msg(2, msg(1, str(1, 'default'), str(2, 'create'), str(3, ''), str(4, ''), str(5, 'pods'), str(6, ''), str(7, ''))), msg(3, int(1, 0)));
  assert.deepEqual(decodeKubeProtobuf(ssar).object, {
    apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: { creationTimestamp: null },
    spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } }, status: { allowed: false },
  });
  const sar = envelope('authorization.k8s.io/v1', 'SubjectAccessReview', objectMeta(''),
    msg(2, str(3, 'alice'), str(4, 'dev'), str(4, 'ops'), entry(5, 'scopes', msg(2, str(1, 'a'), str(1, 'b')))));
  assert.deepEqual(decodeKubeProtobuf(sar).object.spec, { user: 'alice', groups: ['dev', 'ops'], extra: { scopes: ['a', 'b'] } });
});

test('RawExtension holds JSON verbatim, or a nested protobuf object', () => {
  const json = envelope('apps/v1', 'ControllerRevision', objectMeta('r'), msg(2, str(1, '{"spec":{"x":1}}')), int(3, 2));
  assert.deepEqual(decodeKubeProtobuf(json).object.data, { spec: { x: 1 } });
  const inner = envelope('v1', 'ConfigMap', objectMeta('c'), entry(2, 'k', str(2, 'v')));
  const nested = envelope('apps/v1', 'ControllerRevision', objectMeta('r'), msg(2, len(1, inner)), int(3, 1));
  assert.deepEqual(decodeKubeProtobuf(nested).object.data, {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', creationTimestamp: null }, data: { k: 'v' },
  });
});

test('unknown fields of every wire type are skipped; packed repeated ints are read', () => {
  const unknown = Buffer.concat([
    int(90, 7), str(91, 'x'), tag(92, 5), Buffer.alloc(4), tag(93, 1), Buffer.alloc(8), tag(94, 3), int(1, 1), tag(94, 4),
  ]);
  const packedGroups = Buffer.concat([varint(1000), varint(2000)]);
  const pod = envelope('v1', 'Pod', objectMeta('p'), unknown,
    msg(2, msg(14, len(4, packedGroups), int(4, 3000)), msg(2, str(1, 'c'), str(2, 'busybox'))));
  const o = decodeKubeProtobuf(pod).object;
  assert.deepEqual(o.spec, { securityContext: { supplementalGroups: [1000, 2000, 3000] }, containers: [{ name: 'c', image: 'busybox' }] });
});

test('a singular message field sent twice is merged, as proto2 parsers do', () => {
  const o = decodeKubeProtobuf(envelope('v1', 'ConfigMap', msg(1, str(1, 'a')), msg(1, str(3, 'ns')))).object;
  assert.deepEqual(o.metadata, { name: 'a', namespace: 'ns' });
});

// ---------------------------------------------------------------- errors

const ok = deploymentBody();
const cases: { name: string; body: Buffer; code: number; message: RegExp }[] = [
  { name: 'empty', body: Buffer.alloc(0), code: 400, message: /empty data/ },
  { name: 'JSON sent as protobuf', body: Buffer.from('{"kind":"Namespace"}'), code: 400, message: /expected prefix \[107 56 115 0\]/ },
  { name: 'magic only', body: MAGIC, code: 400, message: /empty body/ },
  { name: 'no kind', body: Buffer.concat([MAGIC, msg(1, str(1, 'v1'))]), code: 400, message: /Object 'Kind' is missing/ },
  { name: 'no apiVersion', body: Buffer.concat([MAGIC, msg(1, str(2, 'Pod'))]), code: 400, message: /Object 'apiVersion' is missing/ },
  { name: 'custom resource', body: envelope('stable.example.com/v1', 'CronTab'), code: 415, message: /unknown format/ },
  { name: 'unknown kind in a known group', body: envelope('apps/v1', 'Nope'), code: 400, message: /no kind "Nope" is registered for version "apps\/v1"/ },
  { name: 'truncated envelope', body: ok.subarray(0, 10), code: 400, message: /unexpected EOF/ },
  { name: 'length past the end', body: envelope('v1', 'Namespace', Buffer.from([0x0a, 0x7f, 0x01])), code: 400, message: /Namespace in version "v1" cannot be handled as a Namespace: unexpected EOF/ },
  { name: 'field 0', body: envelope('v1', 'Namespace', Buffer.from([0x00, 0x00])), code: 400, message: /illegal tag 0/ },
  { name: 'wrong wire type', body: envelope('v1', 'Namespace', int(1, 5)), code: 400, message: /wrong wireType = 0 for field metadata/ },
  { name: 'varint overflow', body: envelope('v1', 'Namespace', Buffer.concat([tag(60, 0), Buffer.alloc(11, 0xff)])), code: 400, message: /integer overflow/ },
  { name: 'bad IntOrString type', body: envelope('apps/v1', 'Deployment', msg(2, msg(4, msg(2, msg(2, int(1, 7)))))), code: 400, message: /impossible IntOrString.Type/ },
  { name: 'time out of range', body: envelope('v1', 'Namespace', msg(1, msg(8, int(1, 400_000_000_000)))), code: 400, message: /year outside of range/ },
  { name: 'unterminated group', body: envelope('v1', 'Namespace', tag(50, 3)), code: 400, message: /unexpected EOF/ },
];

for (const c of cases) {
  test(`malformed: ${c.name} -> ${c.code}`, () => {
    assert.throws(() => decodeKubeProtobuf(c.body), (err: unknown) => {
      assert.ok(err instanceof StatusError, `not a StatusError: ${String(err)}`);
      assert.equal(err.code, c.code);
      assert.match(err.message, c.message);
      return true;
    });
  });
}

test('every truncation of a valid body either decodes or fails with a 400, never anything else', () => {
  for (let n = 0; n < ok.length; n++) {
    try {
      decodeKubeProtobuf(ok.subarray(0, n));
    } catch (err) {
      assert.ok(err instanceof StatusError && err.code === 400, `cut at ${n}: ${String(err)}`);
    }
  }
});

test('random byte flips never escape as anything but a StatusError', () => {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < 500; i++) {
    const b = Buffer.from(ok);
    for (let k = 0; k < 3; k++) b[4 + Math.floor(rand() * (b.length - 4))] = Math.floor(rand() * 256);
    try {
      decodeKubeProtobuf(b);
    } catch (err) {
      assert.ok(err instanceof StatusError, `flip round ${i}: ${String(err)}`);
    }
  }
});
