import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Service } from 'kubernetes-types/core/v1.js';
import { serviceEnv } from './service-env.js';

const svc = (namespace: string, name: string, clusterIP: string, ports: { name?: string; port: number; protocol?: string }[]): Service =>
  ({ metadata: { namespace, name }, spec: { clusterIP, ports } }) as Service;
const SERVICES = [
  svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443 }]),
  svc('app', 'win-webserver', '10.96.12.34', [{ port: 80 }]),
  svc('app', 'db', '10.96.0.50', [{ name: 'pg', port: 5432 }, { name: 'metrics', port: 9187 }]),
  svc('app', 'headless', 'None', [{ port: 80 }]),
  svc('other', 'elsewhere', '10.96.0.99', [{ port: 80 }]),
];

// pkg/kubelet/envvars/envvars.go FromServices
test('Service variables of the pod\'s namespace and the master Service, Docker-link style too', () => {
  const env = serviceEnv(SERVICES, 'app');
  assert.equal(env.KUBERNETES_SERVICE_HOST, '10.96.0.1');
  assert.equal(env.KUBERNETES_SERVICE_PORT_HTTPS, '443');
  assert.equal(env.KUBERNETES_PORT, 'tcp://10.96.0.1:443');
  assert.equal(env.WIN_WEBSERVER_SERVICE_HOST, '10.96.12.34');
  assert.equal(env.WIN_WEBSERVER_SERVICE_PORT, '80');
  assert.equal(env.WIN_WEBSERVER_PORT_80_TCP, 'tcp://10.96.12.34:80');
  assert.equal(env.WIN_WEBSERVER_PORT_80_TCP_PROTO, 'tcp');
  assert.equal(env.WIN_WEBSERVER_PORT_80_TCP_ADDR, '10.96.12.34');
  assert.equal(env.DB_SERVICE_PORT, '5432');
  assert.equal(env.DB_SERVICE_PORT_METRICS, '9187');
  assert.equal(env.HEADLESS_SERVICE_HOST, undefined, 'headless Services give none');
  assert.equal(env.ELSEWHERE_SERVICE_HOST, undefined, 'other namespaces give none');
});

test('enableServiceLinks: false keeps only the master Service', () => {
  const env = serviceEnv(SERVICES, 'app', false);
  assert.deepEqual(Object.keys(env).filter((k) => k.endsWith('_SERVICE_HOST')), ['KUBERNETES_SERVICE_HOST']);
});
