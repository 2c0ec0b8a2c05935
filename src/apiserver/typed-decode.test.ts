import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getComponentSchemas } from '../api/openapi/index.js';
import { QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR } from '../api/quantity.js';
import { unknownFields } from './field-validation.js';
import { typeMismatch } from './typed-decode.js';

const schemas = getComponentSchemas();
const POD = 'io.k8s.api.core.v1.Pod';
const pod = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });

// Messages are encoding/json's UnmarshalTypeError.Error(): "json: cannot unmarshal <value> into Go struct field
// <Struct>.<field path> of type <type>" (Go src/encoding/json/decode.go), as kube-apiserver passes them on.
test('a value of the wrong JSON type is found with encoding/json wording and its path', () => {
  const cases: [string, string, unknown, string, string][] = [
    ['ConfigMap data value', 'io.k8s.api.core.v1.ConfigMap', { data: { a: 5 } },
      'json: cannot unmarshal number into Go struct field ConfigMap.data of type string', 'data[a]'],
    ['labels as a list', 'io.k8s.api.core.v1.ConfigMap', { metadata: { labels: ['a'] } },
      'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string', 'metadata.labels'],
    ['containers as an object', POD, pod({ containers: { name: 'c' } }),
      'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container', 'spec.containers'],
    ['containerPort as a string', POD, pod({ containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] }),
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32', 'spec.containers[0].ports[0].containerPort'],
    ['a list item of the wrong type', POD, pod({ containers: ['c'] }),
      'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container', 'spec.containers[0]'],
    ['a fraction where an int32 goes', 'io.k8s.api.apps.v1.Deployment', { spec: { replicas: 1.5 } },
      'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32', 'spec.replicas'],
    ['an int32 overflow', 'io.k8s.api.apps.v1.Deployment', { spec: { replicas: 2 ** 40 } },
      'json: cannot unmarshal number 1099511627776 into Go struct field DeploymentSpec.spec.replicas of type int32', 'spec.replicas'],
    ['a bool given a string', POD, pod({ hostNetwork: 'yes' }),
      'json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool', 'spec.hostNetwork'],
    ['IntOrString given an object', 'io.k8s.api.core.v1.Service', { spec: { ports: [{ port: 80, targetPort: {} }] } },
      'json: cannot unmarshal object into Go struct field ServicePort.spec.ports.targetPort of type int32', 'spec.ports[0].targetPort'],
    // Quantity.UnmarshalJSON fails its format check (apimachinery pkg/api/resource/quantity.go ErrFormatWrong).
    ['Quantity given a list', POD, pod({ containers: [{ name: 'c', resources: { limits: { cpu: [1] } } }] }),
      QUANTITY_FORMAT_ERROR, 'spec.containers[0].resources.limits[cpu]'],
    // ...and it parses a string there and then, so a malformed one fails decoding too (ErrFormatWrong, ErrSuffix).
    ['Quantity given a word', POD, pod({ containers: [{ name: 'c', resources: { requests: { cpu: 'lots' } } }] }),
      QUANTITY_FORMAT_ERROR, 'spec.containers[0].resources.requests[cpu]'],
    ['Quantity with an unknown suffix', POD, pod({ containers: [{ name: 'c', resources: { requests: { memory: '5ki' } } }] }),
      QUANTITY_SUFFIX_ERROR, 'spec.containers[0].resources.requests[memory]'],
    // encoding/json decodes []byte as base64 (encoding/base64 CorruptInputError).
    ['Secret data that is not base64', 'io.k8s.api.core.v1.Secret', { data: { password: 'p@ssword' } },
      'illegal base64 data at input byte 1', 'data[password]'],
    ['metadata as a string', 'io.k8s.api.core.v1.ConfigMap', { metadata: 'x' },
      'json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta', 'metadata'],
  ];
  for (const [name, def, obj, message, path] of cases) {
    const got = typeMismatch(schemas, def, obj);
    assert.equal(got?.message, message, name);
    assert.equal(got?.path, path, name);
  }
});

test('well-typed objects pass: unknown fields, numbers as quantities, strings and ints as IntOrString', () => {
  const ok = pod({
    containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 80 }], resources: { limits: { cpu: 2, memory: '1Gi' } }, bogus: [1] }],
    tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 30 }],
  });
  assert.equal(typeMismatch(schemas, POD, ok), undefined);
  assert.equal(typeMismatch(schemas, 'io.k8s.api.core.v1.Service', { spec: { ports: [{ port: 80, targetPort: 'http' }, { port: 81, targetPort: 8081 }] } }), undefined);
  assert.equal(typeMismatch(schemas, 'io.k8s.api.apps.v1.Deployment', { metadata: { managedFields: [{ fieldsV1: { 'f:spec': {} } }] } }), undefined);
});

test('nulls settle as Go decodes them, so later steps never meet null where a list, map or object belongs', () => {
  const obj = pod({
    containers: [null, { name: 'c', args: [null, 'x'], env: null, resources: { limits: { cpu: null } } }],
    nodeSelector: { a: null },
    affinity: null,
  }) as { spec: Record<string, unknown> };
  (obj.spec as Record<string, unknown>).priority = null;
  const conditions = { status: { conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }] } };
  assert.equal(typeMismatch(schemas, POD, obj), undefined);
  assert.equal(typeMismatch(schemas, POD, conditions), undefined);
  assert.deepEqual(obj.spec, {
    containers: [{}, { name: 'c', args: ['', 'x'], resources: { limits: { cpu: '0' } } }],
    nodeSelector: { a: '' },
    priority: null,
  });
  // A null time stays: metav1.Time's zero value prints as null.
  assert.deepEqual(conditions.status.conditions[0], { type: 'Ready', status: 'True', lastProbeTime: null });
});

// A merge patch's key tree limits both decoder walks to what the patch can have changed (resource-handler.ts patch).
test('with a merge patch as mask, only the paths the patch sets are checked', () => {
  // The stored part holds a wrong type and an unknown field on purpose: a mask that reached it would report them.
  const obj = (): Record<string, unknown> & { status: Record<string, unknown> } => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } },
    spec: { containers: [{ name: 'c', image: 'i' }], hostNetwork: 'stale', stray: 1 },
    status: { phase: 'Running', podIP: 7, conditions: [{ type: 'Ready', status: 'True' }], extra: true },
  });
  const cases: [string, Record<string, unknown>, string | undefined, string[]][] = [
    ['a status field of the right type', { status: { phase: 'Pending' } }, undefined, []],
    ['a wrong type the patch sets', { status: { podIP: 7 } }, 'status.podIP', []],
    ['a list the patch replaces is checked whole', { status: { conditions: [{ type: 'Ready', status: 1 }] } }, 'status.conditions[0].status', []],
    ['an unknown field the patch adds', { status: { extra: true } }, undefined, ['status.extra']],
    ['a map the patch merges into', { metadata: { labels: { x: 'y' } } }, undefined, []],
    ['a key the patch deletes', { status: { podIP: null } }, undefined, []],
    ['an object replacing a scalar is checked whole', { spec: { hostNetwork: { on: true } } }, 'spec.hostNetwork', []],
  ];
  for (const [name, mask, badPath, unknown] of cases) {
    const o = obj();
    if ((mask.status as Record<string, unknown> | undefined)?.podIP === null) delete o.status.podIP;
    else Object.assign(o, applyTop(o, mask));
    assert.equal(typeMismatch(schemas, POD, o, mask)?.path, badPath, name);
    assert.deepEqual(unknownFields(schemas, `#/components/schemas/${POD}`, o, false, mask), unknown, name);
  }
  // Without a mask the whole object is walked, stored part included.
  assert.equal(typeMismatch(schemas, POD, obj())?.path, 'spec.hostNetwork');
  assert.deepEqual(unknownFields(schemas, `#/components/schemas/${POD}`, obj()), ['spec.stray', 'status.extra']);
});

/** A shallow two-level merge, enough for the masks above (the real merge is patch/merge-patch.ts). */
function applyTop(o: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) out[k] = { ...(o[k] as object), ...(v as object) };
  return out;
}
