import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../api/types.js';
import { KUBELET_SERVER_ANNOTATION } from '../api/well-known.js';
import { chooseContainer, logTarget, nodeProxyTarget, streamTarget, validateLogOptions } from './kubelet-locations.js';

const pod = (containers: string[], init: string[] = []): Pod => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { nodeName: 'n1', containers: containers.map((name) => ({ name })), initContainers: init.map((name) => ({ name })) },
});
const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', annotations: { [KUBELET_SERVER_ANNOTATION]: '127.0.0.1:4321' } } };

// pkg/registry/core/pod/strategy.go LogLocation / streamLocation
const choose: { name: string; pod: Pod; requested?: string; want: string | RegExp }[] = [
  { name: 'the only container', pod: pod(['a']), want: 'a' },
  { name: 'named', pod: pod(['a', 'b']), requested: 'b', want: 'b' },
  { name: 'init container by name', pod: pod(['a'], ['i']), requested: 'i', want: 'i' },
  { name: 'several, none named', pod: pod(['a', 'b'], ['i']), want: /^a container name must be specified for pod p, choose one of: \[a b\] or one of the init containers: \[i\]$/ },
  { name: 'unknown', pod: pod(['a']), requested: 'x', want: /^container x is not valid for pod p$/ },
];
for (const c of choose) {
  test(`chooseContainer: ${c.name}`, () => {
    if (typeof c.want === 'string') assert.equal(chooseContainer(c.pod, c.requested), c.want);
    else assert.throws(() => chooseContainer(c.pod, c.requested), (e: Error) => (assert.match(e.message, c.want as RegExp), true));
  });
}

// pkg/apis/core/validation ValidatePodLogOptions
const badOptions: { q: Record<string, string>; want: RegExp }[] = [
  { q: { tailLines: '-1' }, want: /PodLogOptions "p" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0/ },
  { q: { limitBytes: '0' }, want: /limitBytes: Invalid value: 0: must be greater than 0/ },
  { q: { sinceSeconds: '5', sinceTime: '2024-01-01T00:00:00Z' }, want: /at most one of sinceTime or sinceSeconds may be specified/ },
  { q: { stream: 'Both' }, want: /stream: Unsupported value: "Both"/ },
];
for (const c of badOptions) {
  test(`validateLogOptions refuses ${JSON.stringify(c.q)}`, () => assert.throws(() => validateLogOptions(c.q, 'p'), (e: Error) => (assert.match(e.message, c.want), true)));
}

test('targets carry the kubelet path, the node and its loopback endpoint', () => {
  assert.deepEqual(logTarget(pod(['a']), node, { follow: 'true', tailLines: '2', pretty: 'x' }), {
    node: 'n1', host: '127.0.0.1', port: 4321, statusFromBody: true, path: '/containerLogs/ns/p/a?follow=true&tailLines=2',
  });
  assert.equal(logTarget(pod(['a']), undefined, {}), undefined, 'no node yet: no log');
  assert.equal(streamTarget('exec', pod(['a']), node, { command: ['sh', '-c', 'echo hi'], stdout: 'true' }).path, '/exec/ns/p/a?command=sh&command=-c&command=echo+hi&stdout=true');
  assert.throws(() => streamTarget('attach', pod(['a']), undefined, {}), /pod p does not have a host assigned/);
  assert.equal(nodeProxyTarget(node, ['stats', 'summary'], {}).path, '/stats/summary');
  const far = { ...node, metadata: { name: 'n1', annotations: { [KUBELET_SERVER_ANNOTATION]: '10.1.2.3:10250' } } };
  assert.throws(() => nodeProxyTarget(far, ['healthz'], {}), /no kubelet server is reachable for node "n1"/);
});
