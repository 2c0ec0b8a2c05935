// Webhook configuration validation: kube's field paths and messages (admissionregistration/validation).

import test from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../errors.js';
import { validatingWebhookConfigurationStrategy as s } from '../strategies/admission-registration.js';
import type { KubeObject } from '../types.js';

const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'deny.example.com', clientConfig: { url: 'https://127.0.0.1:9443/deny' }, sideEffects: 'None', admissionReviewVersions: ['v1'],
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], ...extra,
});
const cfg = (...webhooks: unknown[]): KubeObject => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'cfg' }, webhooks });
const message = (o: KubeObject) => {
  s.defaults!(o);
  return StatusError.invalid('admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', 'cfg', s.validate!(o)).message;
};

test('a valid configuration is defaulted as v1 defaults it', () => {
  const o = cfg(hook({ clientConfig: { service: { namespace: 'ns', name: 'svc' } } }));
  s.defaults!(o);
  assert.deepEqual(s.validate!(o), []);
  const h = (o.webhooks as Record<string, unknown>[])[0];
  assert.equal(h.failurePolicy, 'Fail');
  assert.equal(h.matchPolicy, 'Equivalent');
  assert.equal(h.timeoutSeconds, 10);
  assert.deepEqual(h.namespaceSelector, {});
  assert.equal((h.clientConfig as { service: { port: number } }).service.port, 443);
  assert.equal((h.rules as { scope: string }[])[0].scope, '*');
});

test('validation messages', () => {
  const prefix = 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "cfg" is invalid: ';
  assert.equal(message(cfg(hook({ name: 'deny' }))), `${prefix}webhooks[0].name: Invalid value: "deny": should be a domain with at least three segments separated by dots`);
  assert.equal(message(cfg(hook({ sideEffects: undefined }))), `${prefix}webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun`);
  assert.equal(message(cfg(hook({ sideEffects: 'Some' }))), `${prefix}webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`);
  assert.equal(message(cfg(hook({ timeoutSeconds: 31 }))), `${prefix}webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds`);
  assert.equal(message(cfg(hook({ clientConfig: { url: 'http://x.example.com/' } }))), `${prefix}webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`);
  assert.equal(message(cfg(hook({ clientConfig: {} }))), `${prefix}webhooks[0].clientConfig: Required value: exactly one of url or service is required`);
  assert.equal(message(cfg(hook({ admissionReviewVersions: [] }))), `${prefix}webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1`);
  assert.equal(message(cfg(hook(), hook())), `${prefix}webhooks[1].name: Duplicate value: "deny.example.com"`);
  assert.equal(message(cfg(hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*/*', 'pods'] }] }))),
    `${prefix}webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`);
  assert.equal(message(cfg(hook({ clientConfig: { service: { namespace: 'ns', name: 'svc', path: 'validate' } } }))),
    `${prefix}webhooks[0].clientConfig.service.path: Invalid value: "validate": must start with a '/'`);
  // matchConditions compile against the webhook's variables (validateMatchConditionsExpression).
  assert.equal(message(cfg(hook({ matchConditions: [{ name: 'only-a', expression: 'true' }] }))), `${prefix}[]`);
  assert.equal(message(cfg(hook({ matchConditions: [{ name: 'a', expression: 'request.nmae == "x"' }] }))),
    `${prefix}webhooks[0].matchConditions[0].expression: Invalid value: "request.nmae == \\"x\\"": compilation failed: ERROR: <input>:1:8: undefined field 'nmae'\n | request.nmae == "x"\n | .......^`);
  assert.match(message(cfg(hook({ matchConditions: [{ name: 'a', expression: 'object.metadata.name' }] }))), /expression: Invalid value: "object\.metadata\.name": must evaluate to bool but got dyn/);
});
