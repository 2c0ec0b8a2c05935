// Strategies for the smaller core/v1 kinds: namespaces, nodes, configmaps, secrets, serviceaccounts,
// endpoints, limitranges, resourcequotas (kubernetes pkg/registry/core/*/strategy.go, pkg/apis/core/v1/defaults.go).

import type { ConfigMap, LimitRange, Namespace, Node, ResourceQuota, Secret, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validateConfigMap, validateImmutablePayload, validateNamespace,
  validateNamespaceStatus, validateNode, validateNodeUpdate, validateSecret, validateServiceAccount,
} from '../validation/core-misc.js';
import { validateEndpoints, validateLimitRange, validateResourceQuota } from '../validation/core-policy.js';
import { validateImmutable, validateObjectMetaUpdate } from '../validation/object-meta.js';
import { as, copyField, isStatusWrite, keepStatusOrSpec, updateValidator } from './common.js';

const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** SetDefaults_Namespace: the immutable name label selectors can use. */
function labelNamespaceName(obj: KubeObject): void {
  if (!obj.metadata.name) return;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [NAMESPACE_NAME_LABEL]: obj.metadata.name };
}

export const namespaceStrategy = {
  prepareForCreate(obj: KubeObject): void {
    // On create the namespace is Active and carries the `kubernetes` finalizer the namespace controller removes.
    obj.status = { phase: 'Active' };
    const ns = as<Namespace>(obj);
    const spec = (ns.spec ??= {});
    if (!spec.finalizers?.includes('kubernetes')) spec.finalizers = [...(spec.finalizers ?? []), 'kubernetes'];
    labelNamespaceName(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    if (ctx?.subresource === 'finalize') {
      // namespaces/finalize changes only spec.finalizers.
      const finalizers = as<Namespace>(obj).spec?.finalizers;
      copyField(obj, old, 'status');
      obj.spec = { ...(structuredClone(old.spec) ?? {}), finalizers };
      return;
    }
    keepStatusOrSpec(obj, old, ctx);
    if (!isStatusWrite(ctx)) copyField(obj, old, 'spec');
    labelNamespaceName(obj);
  },
  defaults(obj: KubeObject): void {
    const ns = as<Namespace>(obj);
    if (ns.status && !ns.status.phase) ns.status.phase = 'Active';
    labelNamespaceName(obj);
  },
  validate: (obj: KubeObject) => validateNamespace(as<Namespace>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
    if (isStatusWrite(ctx)) errs.push(...validateNamespaceStatus(as<Namespace>(obj)));
    else errs.push(...validateNamespace(as<Namespace>(obj)).filter((e) => !e.field.startsWith('metadata.')));
    return errs;
  },
  fieldSelectors: { 'status.phase': (o: KubeObject) => as<Namespace>(o).status?.phase ?? '' },
} satisfies Strategy;

export const nodeStrategy = {
  prepareForCreate(obj: KubeObject): void {
    // Nodes register with their status (the kubelet posts it on create), so status is kept.
    const node = as<Node>(obj);
    if (node.status?.capacity && !node.status.allocatable) (node.status as { allocatable?: unknown }).allocatable = { ...node.status.capacity };
  },
  prepareForUpdate: keepStatusOrSpec,
  defaults(obj: KubeObject): void {
    const st = as<Node>(obj).status as { capacity?: Record<string, string>; allocatable?: Record<string, string> } | undefined;
    if (st?.capacity && !st.allocatable) st.allocatable = { ...st.capacity };
  },
  validate: (obj: KubeObject) => validateNode(as<Node>(obj)),
  validateUpdate: updateValidator(() => [], (obj, old) => validateNodeUpdate(as<Node>(obj), as<Node>(old))),
  fieldSelectors: { 'spec.unschedulable': (o: KubeObject) => String(as<Node>(o).spec?.unschedulable ?? false) },
} satisfies Strategy;

const validateCM = (obj: KubeObject) => validateConfigMap(as<ConfigMap>(obj));
export const configMapStrategy = {
  validate: validateCM,
  validateUpdate: updateValidator(validateCM, (obj, old) => validateImmutablePayload(obj, old, ['data', 'binaryData'])),
} satisfies Strategy;

/** SetDefaults_Secret, plus the v1 conversion that folds stringData into data. */
function defaultSecret(obj: KubeObject): void {
  const s = as<Secret>(obj) as Secret & { type?: string; data?: Record<string, string> };
  if (!s.type) s.type = 'Opaque';
  if (s.stringData) {
    s.data = { ...(s.data ?? {}) };
    for (const [k, v] of Object.entries(s.stringData)) s.data[k] = Buffer.from(v, 'utf8').toString('base64');
    delete (s as { stringData?: unknown }).stringData;
  }
}
const validateS = (obj: KubeObject) => validateSecret(as<Secret>(obj));
export const secretStrategy = {
  defaults: defaultSecret,
  validate: validateS,
  validateUpdate: updateValidator(validateS, (obj, old) => [
    ...validateImmutable(obj.type, old.type, 'type'),
    ...validateImmutablePayload(obj, old, ['data']),
  ]),
  fieldSelectors: { type: (o: KubeObject) => String(o.type ?? '') },
} satisfies Strategy;

const validateSA = (obj: KubeObject) => validateServiceAccount(as<ServiceAccount>(obj));
export const serviceAccountStrategy = { validate: validateSA, validateUpdate: updateValidator(validateSA) } satisfies Strategy;

/** SetDefaults_EndpointPort: protocol TCP. */
function defaultEndpoints(obj: KubeObject): void {
  for (const ss of (obj.subsets ?? []) as { ports?: { protocol?: string }[] }[]) for (const p of ss.ports ?? []) p.protocol ||= 'TCP';
}
export const endpointsStrategy = {
  defaults: defaultEndpoints,
  validate: (obj: KubeObject) => validateEndpoints(obj),
  validateUpdate: updateValidator((obj) => validateEndpoints(obj)),
} satisfies Strategy;

/** SetDefaults_LimitRangeItem: for containers, default limit from max, default request from default or min. */
function defaultLimitRange(obj: KubeObject): void {
  for (const item of as<LimitRange>(obj).spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    const def: Record<string, string> = { ...(item.default ?? {}) };
    for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in def)) def[k] = v;
    const req: Record<string, string> = { ...(item.defaultRequest ?? {}) };
    for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
    for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in req)) req[k] = v;
    if (Object.keys(def).length) item.default = def;
    if (Object.keys(req).length) item.defaultRequest = req;
  }
}
const validateLR = (obj: KubeObject) => validateLimitRange(as<LimitRange>(obj));
export const limitRangeStrategy = { defaults: defaultLimitRange, validate: validateLR, validateUpdate: updateValidator(validateLR) } satisfies Strategy;

const validateRQ = (obj: KubeObject) => validateResourceQuota(as<ResourceQuota>(obj));
export const resourceQuotaStrategy = {
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
  },
  prepareForUpdate: keepStatusOrSpec,
  validate: validateRQ,
  validateUpdate: updateValidator(validateRQ),
} satisfies Strategy;
