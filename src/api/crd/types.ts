// The apiextensions.k8s.io/v1 shapes winkube reads: CustomResourceDefinition and its JSONSchemaProps
// (staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go, types_jsonschema.go).

import type { KubeObject } from '../types.js';

export interface JSONSchemaProps {
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps | JSONSchemaProps[];
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  pattern?: string;
  maxLength?: number;
  minLength?: number;
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** One x-kubernetes-validations entry (apiextensions/v1 ValidationRule). */
export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface CrdColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CrdScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: Record<string, never>; scale?: CrdScale };
  additionalPrinterColumns?: CrdColumn[];
  selectableFields?: { jsonPath: string }[];
}

export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** spec.conversion (apiextensions/v1 CustomResourceConversion, WebhookConversion, WebhookClientConfig). */
export interface CrdConversion {
  strategy: string;
  webhook?: {
    clientConfig?: {
      url?: string;
      service?: { namespace?: string; name?: string; path?: string; port?: number };
      caBundle?: string;
    };
    conversionReviewVersions?: string[];
  };
}

export interface CrdSpec {
  group: string;
  names: CrdNames;
  scope: string;
  versions: CrdVersion[];
  conversion?: CrdConversion;
  preserveUnknownFields?: boolean;
}

export interface CrdStatus {
  conditions?: CrdCondition[];
  acceptedNames?: CrdNames;
  storedVersions?: string[];
}

export interface Crd extends KubeObject {
  spec: CrdSpec;
  status?: CrdStatus;
}

/** The finalizer that holds a deleted CRD until its custom resources are gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export function findCondition(crd: Crd, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: Crd, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** The one schema item of `items` (structural schemas have no tuple form). */
export function itemsOf(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return Array.isArray(s.items) ? s.items[0] : s.items;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
