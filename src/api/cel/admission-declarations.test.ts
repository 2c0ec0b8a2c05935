// namespaceObject as admission expressions see it: a typed Namespace with only the fields kube declares
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go buildNamespaceType).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admissionDeclarations } from './admission-declarations.js';
import { compile, evaluate } from './compile.js';

const decls = admissionDeclarations({ params: false, authorizer: false });
const namespace = { metadata: { name: 'prod', labels: { env: 'prod' }, UID: 'u-1' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };

describe('namespaceObject is typed', () => {
  const ok: [string, string, unknown][] = [
    ['namespaceObject.metadata.labels["env"]', 'string', 'prod'],
    ['namespaceObject.metadata.UID', 'string', 'u-1'],
    ['namespaceObject.status.phase == "Active"', 'bool', true],
    ['namespaceObject.spec.finalizers', 'list(string)', ['kubernetes']],
    ['namespaceObject.metadata.labels.transformList(k, v, k + "=" + v)', 'list(string)', ['env=prod']],
    ['namespaceObject.status.conditions', 'list(kubernetes.NamespaceCondition)', undefined],
  ];
  for (const [expr, type, value] of ok) {
    it(`${expr}: ${type}`, async () => {
      const c = compile(expr, decls, []);
      assert.ok(c.ok, c.ok ? '' : c.detail);
      assert.equal(c.program.outputType, type);
      if (value !== undefined) assert.deepEqual(await evaluate(c.program, { namespaceObject: namespace }), { value });
    });
  }

  const refused: [string, string][] = [
    ['namespaceObject.metadata.uid', "ERROR: <input>:1:25: undefined field 'uid'\n | namespaceObject.metadata.uid\n | ........................^"],
    ['namespaceObject.kind', "ERROR: <input>:1:16: undefined field 'kind'\n | namespaceObject.kind\n | ...............^"],
    ['namespaceObject.metadata.generation + "x"', "ERROR: <input>:1:37: found no matching overload for '_+_' applied to '(int, string)'\n | namespaceObject.metadata.generation + \"x\"\n | ....................................^"],
  ];
  for (const [expr, detail] of refused) {
    it(`${expr} is a compile error`, () => assert.deepEqual(compile(expr, decls, []), { ok: false, detail: `compilation failed: ${detail}` }));
  }
});
