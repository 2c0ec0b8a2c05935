import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { isStatusError } from '../errors.js';
import { kubeFieldErrorString as str } from '../validation/go-value.js';
import { serviceStrategy } from './services.js';

const ctx = { now: 0 };
const svc = (spec: Record<string, unknown>, name = 'web'): KubeObject => {
  const s: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec };
  serviceStrategy.prepareForCreate(s);
  serviceStrategy.defaults(s);
  return s;
};

/** What a create reports: the IP family initialisation's refusal (before validation, as in kube), or validation's. */
function createErrors(spec: Record<string, unknown>, name = 'web'): string[] {
  try {
    return serviceStrategy.validate(svc(spec, name)).map(str);
  } catch (err) {
    assert.ok(isStatusError(err), String(err));
    return (err.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  }
}

test('service defaults', () => {
  const s = svc({ selector: { app: 'web' }, ports: [{ port: 80 }] });
  assert.deepEqual(s.spec, {
    selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], sessionAffinity: 'None', type: 'ClusterIP',
    internalTrafficPolicy: 'Cluster', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'],
  });
  const np = svc({ type: 'NodePort', ports: [{ port: 80, targetPort: 'http' }] }).spec as Record<string, unknown>;
  assert.equal(np.externalTrafficPolicy, 'Cluster');
  const headless = svc({ clusterIP: 'None' }).spec as Record<string, unknown>;
  assert.deepEqual(headless.clusterIPs, ['None']);
  assert.equal(headless.ipFamilyPolicy, 'RequireDualStack');
  // Headless without a selector names both families even on an IPv4-only cluster (alloc.go initIPFamilyFields).
  assert.deepEqual(headless.ipFamilies, ['IPv4', 'IPv6']);
  const ext = svc({ type: 'ExternalName', externalName: 'example.com' }).spec as Record<string, unknown>;
  assert.equal(ext.ipFamilies, undefined);
  assert.equal(ext.internalTrafficPolicy, undefined);
});

test('service validation', () => {
  const cases: [Record<string, unknown>, string, string[]][] = [
    [{ ports: [{ port: 80 }] }, 'web', []],
    [{ ports: [{ port: 80 }] }, '1web', ["metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]],
    [{}, 'web', ['spec.ports: Required value']],
    [{ ports: [{ port: 80 }, { port: 81 }] }, 'web', ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']],
    [{ ports: [{ port: 0 }] }, 'web', ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive']],
    [{ ports: [{ port: 80, nodePort: 30080 }] }, 'web', ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    [{ type: 'Magic', ports: [{ port: 80 }] }, 'web', ['spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    [{ type: 'ExternalName' }, 'web', ['spec.externalName: Required value']],
    [{ ports: [{ port: 80, targetPort: 'Http_Port' }] }, 'web', ['spec.ports[0].targetPort: Invalid value: "Http_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']],
    [{ clusterIP: '10.0.0.300', ports: [{ port: 80 }] }, 'web', ['spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
    [{ ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] }, 'web', ['spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}']],
  ];
  for (const [spec, name, want] of cases) assert.deepEqual(createErrors(spec, name), want, JSON.stringify(spec));
});

test('service updates keep allocated values and forbid changing the cluster IP', () => {
  const old = svc({ type: 'NodePort', ports: [{ name: 'http', port: 80 }] });
  old.metadata.uid = 'u';
  Object.assign(old.spec as object, { clusterIP: '10.96.0.20', clusterIPs: ['10.96.0.20'] });
  (old.spec as { ports: { nodePort?: number }[] }).ports[0].nodePort = 30080;
  old.status = { loadBalancer: {} };

  // `kubectl replace` with the original manifest: no clusterIP, no nodePort.
  const replaced: KubeObject = { metadata: { ...old.metadata }, spec: { type: 'NodePort', ports: [{ name: 'http', port: 80 }] } };
  serviceStrategy.prepareForUpdate(replaced, old, ctx);
  serviceStrategy.defaults(replaced);
  const spec = replaced.spec as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads nested JSON
  assert.equal(spec.clusterIP, '10.96.0.20');
  assert.deepEqual(spec.clusterIPs, ['10.96.0.20']);
  assert.equal(spec.ports[0].nodePort, 30080);
  assert.deepEqual(replaced.status, { loadBalancer: {} });
  assert.deepEqual(serviceStrategy.validateUpdate(replaced, old, ctx).map(str), []);

  const moved = structuredClone(old);
  Object.assign(moved.spec as object, { clusterIP: '10.96.0.21', clusterIPs: ['10.96.0.21'] });
  serviceStrategy.prepareForUpdate(moved, old, ctx);
  assert.deepEqual(serviceStrategy.validateUpdate(moved, old, ctx).map(str), ['spec.clusterIPs[0]: Invalid value: []string{"10.96.0.21"}: may not change once set']);
});
