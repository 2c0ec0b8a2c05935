import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { containerEnv, expandVars, type ConfigSource } from './env-vars.js';

const config: ConfigSource = {
  configMap: (ns, name) => (ns === 'app' && name === 'cfg' ? { MODE: 'fast', 'log.level': 'debug' } : undefined),
  secret: (ns, name) => (ns === 'app' && name === 'creds' ? { password: 's3cret' } : undefined),
};
const pod = (c: Container): Pod => ({
  metadata: { name: 'web-1', namespace: 'app', uid: 'u-1', labels: { tier: 'front' } },
  spec: { nodeName: 'win-1', serviceAccountName: 'default', containers: [c] },
});
const env = (c: Partial<Container>) => {
  const container = { name: 'c', ...c } as Container;
  return containerEnv({ pod: pod(container), container, hostIP: '172.18.0.3', podIP: '10.244.1.5', allocatable: { cpu: '3500m', memory: '4Gi' }, config });
};

// pkg/kubelet/kubelet_pods.go makeEnvironmentVariables
const cases: { name: string; c: Partial<Container>; want: Record<string, string> | string }[] = [
  { name: 'values with $(VAR) expansion and $$ escape', c: { env: [{ name: 'A', value: 'x' }, { name: 'B', value: '$(A)-$(NOPE)-$$(A)' }] }, want: { A: 'x', B: 'x-$(NOPE)-$(A)' } },
  { name: 'downward API fields', c: { env: [
    { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    { name: 'HOST', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
    { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    { name: 'TIER', valueFrom: { fieldRef: { fieldPath: "metadata.labels['tier']" } } },
  ] }, want: { POD: 'web-1', NS: 'app', IP: '10.244.1.5', HOST: '172.18.0.3', NODE: 'win-1', TIER: 'front' } },
  { name: 'resource fields: limit, request, node allocatable when no limit, divisor', c: {
    resources: { limits: { memory: '128Mi' }, requests: { cpu: '250m' } },
    env: [
      { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
      { name: 'CPU_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
      { name: 'CPU_LIM', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
    ] }, want: { MEM: '128', CPU_REQ: '250', CPU_LIM: '4' } },
  { name: 'envFrom with prefix, then env overrides', c: { envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CFG_' }], env: [{ name: 'CFG_MODE', value: 'slow' }] }, want: { CFG_MODE: 'slow', 'CFG_log.level': 'debug' } },
  { name: 'secret key', c: { env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } }] }, want: { PW: 's3cret' } },
  { name: 'optional missing config map is skipped', c: { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'gone', key: 'k', optional: true } } }] }, want: {} },
  { name: 'missing config map', c: { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'gone', key: 'k' } } }] }, want: 'configmap "gone" not found' },
  { name: 'missing secret in envFrom', c: { envFrom: [{ secretRef: { name: 'nope' } }] }, want: 'secret "nope" not found' },
  { name: 'missing key', c: { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'absent' } } }] }, want: "couldn't find key absent in ConfigMap app/cfg" },
];
for (const c of cases) {
  test(`containerEnv: ${c.name}`, () => {
    const r = env(c.c);
    if (typeof c.want === 'string') assert.deepEqual(r, { error: c.want });
    else assert.deepEqual(r, { env: c.want });
  });
}

test('expandVars leaves unknown references alone', () => assert.equal(expandVars('$(A)$(B)', { A: '1' }), '1$(B)'));
