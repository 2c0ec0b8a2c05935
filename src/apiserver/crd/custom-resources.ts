// The ResourceDecls an established CRD serves: one per served version, all stored under the storage version's key
// with conversion None (apiVersion rewritten), structural pruning and defaulting on write and on read
// (apiextensions-apiserver pkg/apiserver/customresource_handler.go getOrCreateServingInfoFor).

import { crOpenApiSchema } from '../../api/crd/cr-openapi.js';
import { crStrategy } from '../../api/crd/cr-strategy.js';
import { crTable } from '../../api/crd/printer-columns.js';
import { applyDefaults } from '../../api/crd/schema-defaults.js';
import { pruneObject } from '../../api/crd/schema-prune.js';
import type { Crd, CrdScale, CrdVersion, JSONSchemaProps } from '../../api/crd/types.js';
import type { Codec, ResourceDecl, ScaleDecl } from '../../api/interfaces.js';
import { getComponentSchemas } from '../../api/openapi/index.js';
import type { KubeObject } from '../../api/types.js';
import { compareKubeAwareVersions } from '../../api/version-priority.js';
import type { CallContext } from '../admission/webhook/client.js';
import { unknownFields } from '../field-validation.js';
import { WebhookConverter } from './conversion.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

const getPath = (obj: unknown, path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
const split = (jsonPath: string): string[] => jsonPath.replace(/^\./, '').split('.');

function scaleDecl(s: CrdScale): ScaleDecl {
  const selectorPath = s.labelSelectorPath ? split(s.labelSelectorPath) : undefined;
  return {
    specReplicasPath: split(s.specReplicasPath),
    statusReplicasPath: split(s.statusReplicasPath),
    // The label selector is read as the string found at labelSelectorPath (empty when absent).
    selector: (obj) => {
      const v = selectorPath ? getPath(obj, selectorPath) : undefined;
      return typeof v === 'string' ? v : '';
    },
  };
}

/** Unknown fields of a custom resource: the schema's (structural pruning) and metadata's (ObjectMeta coercion). */
function unknownOf(schema: JSONSchemaProps | undefined, preserve: boolean) {
  return (obj: unknown, prune: boolean): string[] => {
    const out = schema && !preserve ? pruneObject(schema, obj, prune) : [];
    const meta = (obj as KubeObject | undefined)?.metadata;
    if (meta && typeof meta === 'object') out.unshift(...unknownFields(getComponentSchemas(), OBJECT_META, meta, prune).map((p) => `metadata.${p}`));
    return out;
  };
}

/** Conversion None between served versions and the storage version: apiVersion rewritten, defaults applied on read. */
function codec(crd: Crd, v: CrdVersion, storage: string): Codec {
  const apiVersion = `${crd.spec.group}/${v.name}`;
  const storageApiVersion = `${crd.spec.group}/${storage}`;
  const schema = v.schema?.openAPIV3Schema;
  const preserve = crd.spec.preserveUnknownFields === true;
  return {
    fromStorage(obj) {
      obj.apiVersion = apiVersion;
      if (schema && !preserve) {
        pruneObject(schema, obj, true);
        applyDefaults(schema, obj);
      }
      return obj;
    },
    toStorage: (obj) => ({ ...obj, apiVersion: storageApiVersion }),
  };
}

/**
 * Conversion Webhook: objects keep the version they were stored in (pruned and defaulted when that is this version);
 * the webhook converts the others on the way out and writes to the storage version on the way in (conversion.ts).
 */
function webhookCodec(crd: Crd, v: CrdVersion, storage: string, converter: WebhookConverter): Codec {
  const apiVersion = `${crd.spec.group}/${v.name}`;
  const schema = v.schema?.openAPIV3Schema;
  const preserve = crd.spec.preserveUnknownFields === true;
  return {
    fromStorage(obj) {
      if (obj.apiVersion === apiVersion && schema && !preserve) {
        pruneObject(schema, obj, true);
        applyDefaults(schema, obj);
      }
      return obj;
    },
    toStorage: (obj) => obj,
    convert: {
      fromStorage: (objs, list) => converter.convert(objs, v.name, list),
      toStorage: async (obj) => (await converter.convert([obj], storage, false))[0],
    },
  };
}

/**
 * The decls of `crd`'s served versions, preferred version first; `terminating` is asked on every create. `conversion`
 * is how a Webhook strategy's calls reach the webhook.
 */
export function customResourceDecls(crd: Crd, terminating: () => boolean, conversion?: () => CallContext): ResourceDecl[] {
  const names = { ...crd.spec.names, ...(crd.status?.acceptedNames ?? {}) };
  const storage = crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]!.name;
  const preserve = crd.spec.preserveUnknownFields === true;
  const served = crd.spec.versions.filter((v) => v.served).sort((a, b) => compareKubeAwareVersions(a.name, b.name));
  const converter = crd.spec.conversion?.strategy === 'Webhook' && conversion ? new WebhookConverter(crd, conversion) : undefined;
  return served.map((v): ResourceDecl => {
    const schema = v.schema?.openAPIV3Schema;
    const scale = v.subresources?.scale;
    const status = v.subresources?.status !== undefined && v.subresources.status !== null;
    return {
      group: crd.spec.group,
      version: v.name,
      kind: names.kind,
      plural: names.plural,
      singular: names.singular || names.kind.toLowerCase(),
      namespaced: crd.spec.scope === 'Namespaced',
      shortNames: names.shortNames?.length ? [...names.shortNames] : undefined,
      categories: names.categories?.length ? [...names.categories] : undefined,
      subresources: status || scale ? { status: status || undefined, scale: scale ? scaleDecl(scale) : undefined } : undefined,
      strategy: crStrategy({
        group: crd.spec.group, plural: names.plural, schema, statusSubresource: status, scale, terminating,
        namespaced: crd.spec.scope === 'Namespaced', selectableFields: v.selectableFields,
      }),
      table: crTable(v.additionalPrinterColumns),
      storedAs: { group: crd.spec.group, plural: names.plural, codec: converter ? webhookCodec(crd, v, storage, converter) : codec(crd, v, storage) },
      openapiSchema: crOpenApiSchema(schema),
      unknownFields: unknownOf(schema, preserve),
      refusedPatchTypes: ['strategic'],
    };
  });
}
