// The authorizer library's selectors and argument checks (staging/src/k8s.io/apiserver/pkg/cel/library/authz.go
// resourceCheckFieldSelector, resourceCheckLabelSelector, authorizerServiceAccount, groupCheckResource).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admissionDeclarations } from './admission-declarations.js';
import { compile, evaluate } from './compile.js';
import { CelAuthorizer, type AuthzCheckAttributes } from './library-authz.js';

const decls = admissionDeclarations({ params: false, authorizer: true });

async function run(expr: string): Promise<{ result: { value?: unknown; error?: string }; asked: AuthzCheckAttributes[] }> {
  const asked: AuthzCheckAttributes[] = [];
  const authorizer = new CelAuthorizer(async (a) => {
    asked.push(a);
    return { decision: a.verb === 'list' ? 'Allow' : 'Deny', reason: 'by test' };
  });
  const c = compile(expr, decls, []);
  if (!c.ok) throw new Error(c.detail);
  return { result: await evaluate(c.program, { authorizer }), asked };
}

describe('authorizer selectors (AuthzSelectors)', () => {
  it('passes field and label selectors with the resource check', async () => {
    const { result, asked } = await run("authorizer.group('').resource('pods').namespace('ns').fieldSelector('spec.nodeName=n1').labelSelector('app=web').check('list').allowed()");
    assert.deepEqual(result, { value: true });
    assert.equal(asked.length, 1);
    assert.equal(asked[0].fieldSelector, 'spec.nodeName=n1');
    assert.equal(asked[0].labelSelector, 'app=web');
    assert.equal(asked[0].namespace, 'ns');
  });

  it('leaves them out when not set', async () => {
    const { asked } = await run("authorizer.group('apps').resource('deployments').check('get').reason() == 'by test'");
    assert.equal('fieldSelector' in asked[0], false);
    assert.equal('labelSelector' in asked[0], false);
  });

  const errors: [string, string][] = [
    ["authorizer.group('').resource(' ').check('get').allowed()", 'resource must not be empty'],
    ["authorizer.serviceAccount('ns', 'Bad_Name').group('').resource('pods').check('get').allowed()", 'Invalid service account name'],
    ["authorizer.serviceAccount('Bad.NS', 'sa').group('').resource('pods').check('get').allowed()", 'Invalid service account namespace'],
  ];
  for (const [expr, error] of errors) {
    it(`${expr} fails`, async () => assert.deepEqual((await run(expr)).result, { error }));
  }
});
