import test from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from './request-info.js';

test('parseRequestInfo', () => {
  const cases: [string, string, boolean, Partial<ReturnType<typeof parseRequestInfo>>][] = [
    ['GET', '/api', false, { isResourceRequest: false, apiPrefix: 'api' }],
    ['GET', '/api/v1', false, { isResourceRequest: false, version: 'v1' }],
    ['GET', '/apis/apps', false, { isResourceRequest: false }],
    ['GET', '/apis/apps/v1', false, { isResourceRequest: false, group: 'apps', version: 'v1' }],
    ['GET', '/api/v1/pods', false, { verb: 'list', resource: 'pods', namespace: '' }],
    ['GET', '/api/v1/namespaces/default/pods', true, { verb: 'watch', resource: 'pods', namespace: 'default' }],
    ['GET', '/api/v1/namespaces/default/pods/web', false, { verb: 'get', name: 'web', namespace: 'default' }],
    // watch=true names no watch on one object: RequestInfoFactory only turns a list into a watch.
    ['GET', '/api/v1/namespaces/default/pods/web', true, { verb: 'get', name: 'web' }],
    ['PUT', '/api/v1/namespaces/default/pods/web/status', false, { verb: 'update', subresource: 'status' }],
    ['GET', '/api/v1/namespaces/kube-system', false, { verb: 'get', resource: 'namespaces', name: 'kube-system', namespace: 'kube-system' }],
    ['PUT', '/api/v1/namespaces/x/finalize', false, { resource: 'namespaces', name: 'x', subresource: 'finalize' }],
    ['GET', '/api/v1/namespaces/x/status', false, { resource: 'namespaces', name: 'x', subresource: 'status' }],
    ['DELETE', '/apis/apps/v1/namespaces/d/deployments', false, { verb: 'deletecollection', group: 'apps' }],
    ['GET', '/api/v1/nodes/n1/proxy/configz', false, { resource: 'nodes', name: 'n1', subresource: 'proxy', rest: ['configz'] }],
  ];
  for (const [method, path, watch, want] of cases) {
    const got = parseRequestInfo(method, path, watch);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k as keyof typeof got], v, `${method} ${path} ${k}`);
  }
});
