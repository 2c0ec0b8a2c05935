// Decodes the /openapi/v2 protobuf with an independent reader and checks the fields kubectl reads
// (field numbers from gnostic-models openapiv2/OpenAPIv2.proto).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApiV2Protobuf } from './v2.js';
import { schemaMessage } from './gnostic-v2.js';
import { ProtoWriter } from './proto-writer.js';
import { TEST_DECLS } from './test-fixtures.js';

type Field = { n: number; wire: number; v: number | Buffer };

/** Splits one message into its fields; length-delimited values stay raw for the caller to decode further. */
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): number => {
    let result = 0;
    let mul = 1;
    for (;;) {
      const b = buf[i++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const n = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) out.push({ n, wire, v: varint() });
    else if (wire === 1) {
      out.push({ n, wire, v: buf.subarray(i, i + 8) });
      i += 8;
    } else if (wire === 2) {
      const len = varint();
      out.push({ n, wire, v: buf.subarray(i, i + len) });
      i += len;
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  assert.equal(i, buf.length, 'message must end on a field boundary');
  return out;
}

const all = (buf: Buffer, n: number) => fields(buf).filter((f) => f.n === n).map((f) => f.v as Buffer);
const one = (buf: Buffer, n: number): Buffer | undefined => all(buf, n)[0];
const str = (buf: Buffer | undefined, n: number) => (buf ? one(buf, n)?.toString('utf8') : undefined);
/** repeated NamedX { name = 1; value = 2 } -> Map */
const named = (entries: Buffer[]) => new Map(entries.map((e) => [str(e, 1)!, one(e, 2)!]));
/** repeated NamedAny vendor_extension -> name -> parsed Any.yaml (field 2) */
const extensions = (buf: Buffer, n: number) =>
  new Map(all(buf, n).map((e) => [str(e, 1)!, JSON.parse(str(one(e, 2), 2)!) as unknown]));

const doc = openApiV2Protobuf(TEST_DECLS);
const definitions = named(all(one(doc, 9)!, 1));
const paths = named(all(one(doc, 8)!, 2));

test('Document carries the swagger version and info', () => {
  assert.equal(str(doc, 1), '2.0');
  assert.equal(str(one(doc, 2), 1), 'Kubernetes');
});

test('definitions: type is a TypeItem, properties are NamedSchema with descriptions', () => {
  const podOS = definitions.get('io.k8s.api.core.v1.PodOS')!;
  assert.ok(podOS, 'PodOS definition present');
  assert.deepEqual(all(one(podOS, 22)!, 1).map(String), ['object']);
  assert.deepEqual(all(podOS, 19).map(String), ['name']);
  const props = named(all(one(podOS, 25)!, 1));
  const name = props.get('name')!;
  assert.deepEqual(all(one(name, 22)!, 1).map(String), ['string']);
  assert.match(str(name, 4)!, /operating system/);
});

test('definitions: refs point at #/definitions and GVKs are vendor extensions', () => {
  const pod = definitions.get('io.k8s.api.core.v1.Pod')!;
  const spec = named(all(one(pod, 25)!, 1)).get('spec')!;
  assert.equal(str(spec, 1), '#/definitions/io.k8s.api.core.v1.PodSpec');
  assert.ok(str(spec, 4), 'the property keeps its description beside the $ref');
  assert.deepEqual(extensions(pod, 31).get('x-kubernetes-group-version-kind'), [{ group: '', kind: 'Pod', version: 'v1' }]);
  // Every ref must resolve, or kubectl rejects the whole document (kube-openapi proto "unknown model").
  for (const [defName, body] of definitions) {
    const refs = body.toString('latin1').match(/#\/definitions\/[\w.-]+/g) ?? [];
    for (const r of refs) assert.ok(definitions.has(r.slice('#/definitions/'.length)), `${defName}: ${r}`);
  }
});

test('arrays carry items and maps carry additionalProperties', () => {
  const podSpec = named(all(one(definitions.get('io.k8s.api.core.v1.PodSpec')!, 25)!, 1));
  const containers = podSpec.get('containers')!;
  assert.deepEqual(all(one(containers, 22)!, 1).map(String), ['array']);
  assert.equal(str(all(one(containers, 23)!, 1)[0], 1), '#/definitions/io.k8s.api.core.v1.Container');
  const nodeSelector = podSpec.get('nodeSelector')!;
  const inner = one(one(nodeSelector, 21)!, 1)!;
  assert.deepEqual(all(one(inner, 22)!, 1).map(String), ['string']);
});

test('the Deployment patch operation has its GVK, patch content types and an inline fieldValidation param', () => {
  const item = paths.get('/apis/apps/v1/namespaces/{namespace}/deployments/{name}')!;
  const patch = one(item, 8)!;
  assert.deepEqual(extensions(patch, 13).get('x-kubernetes-group-version-kind'), { group: 'apps', version: 'v1', kind: 'Deployment' });
  assert.ok(all(patch, 7).map(String).includes('application/strategic-merge-patch+json'));
  const params = all(patch, 8).map((p) => one(one(p, 1)!, 2)); // ParametersItem.parameter.non_body_parameter
  const query = params.filter(Boolean).map((nb) => one(nb!, 3)).filter(Boolean) as Buffer[];
  const fv = query.find((q) => str(q, 4) === 'fieldValidation');
  assert.ok(fv, 'fieldValidation query parameter');
  assert.equal(str(fv, 2), 'query');
  assert.equal(str(fv, 6), 'string');
  const pathParams = params.filter(Boolean).map((nb) => one(nb!, 4)).filter(Boolean) as Buffer[];
  const name = pathParams.find((p) => str(p, 4) === 'name')!;
  assert.equal(str(name, 5), 'string', 'path sub-schema type is field 5');
  assert.equal(fields(name).find((f) => f.n === 1)?.v, 1, 'required = true');
  const body = all(patch, 8).map((p) => one(one(p, 1)!, 1)).find(Boolean)!;
  assert.equal(str(one(body, 5), 1), '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
});

test('the scale subresource is tagged with autoscaling/v1 Scale', () => {
  const get = one(paths.get('/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale')!, 2)!;
  assert.deepEqual(extensions(get, 13).get('x-kubernetes-group-version-kind'), { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  assert.ok(definitions.has('io.k8s.api.autoscaling.v1.Scale'));
});

test('schemaMessage edge cases', async (t) => {
  const cases: { name: string; schema: Record<string, unknown>; check: (b: Buffer) => void }[] = [
    {
      name: 'additionalProperties false is written (oneof member)',
      schema: { type: 'object', additionalProperties: false },
      check: (b) => assert.deepEqual(fields(one(b, 21)!), [{ n: 2, wire: 0, v: 0 }]),
    },
    {
      name: 'empty schema encodes to nothing',
      schema: {},
      check: (b) => assert.equal(b.length, 0),
    },
    {
      name: 'long descriptions use multi-byte length varints',
      schema: { description: 'x'.repeat(300) },
      check: (b) => assert.equal(str(b, 4), 'x'.repeat(300)),
    },
    {
      name: 'enum values are Any.yaml',
      schema: { type: 'string', enum: ['A', 'B'] },
      check: (b) => assert.deepEqual(all(b, 20).map((a) => JSON.parse(str(a, 2)!)), ['A', 'B']),
    },
  ];
  for (const c of cases) await t.test(c.name, () => c.check(schemaMessage(c.schema).finish()));
});

test('ProtoWriter rejects values it cannot encode', () => {
  assert.throws(() => new ProtoWriter().int64(1, -1), RangeError);
});
