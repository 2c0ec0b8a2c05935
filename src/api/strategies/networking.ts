// Strategies for networking.k8s.io/v1 (pkg/registry/networking/*/strategy.go, pkg/apis/networking/v1/defaults.go):
// defaults, generation on spec changes, spec/status separation and validation.

import type { IngressClass, NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validateIngress, validateIngressClass, validateIPAddress, validateNetworkPolicy, validateServiceCIDR, type IPAddress, type ServiceCIDR,
} from '../validation/networking.js';
import { deepEqual, FIELD_IMMUTABLE } from '../validation/object-meta.js';
import { fieldErr } from '../errors.js';
import { as, keepStatusOrSpec, startGeneration, updateGeneration, updateValidator } from './common.js';

/** SetDefaults_NetworkPolicyPort and SetDefaults_NetworkPolicy: TCP ports; Ingress, plus Egress when egress rules exist. */
export function defaultNetworkPolicy(np: NetworkPolicy): void {
  const spec = (np.spec ??= { podSelector: {} });
  spec.podSelector ??= {};
  for (const r of spec.ingress ?? []) for (const p of r.ports ?? []) p.protocol ??= 'TCP';
  for (const r of spec.egress ?? []) for (const p of r.ports ?? []) p.protocol ??= 'TCP';
  if (!spec.policyTypes?.length) spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
}

const generationOnly = {
  prepareForCreate: (obj: KubeObject) => startGeneration(obj),
  prepareForUpdate: (obj: KubeObject, old: KubeObject, ctx: StrategyContext) => updateGeneration(obj, old, ctx),
};

export const networkPolicyStrategy = {
  generation: true,
  ...generationOnly,
  defaults: (obj: KubeObject) => defaultNetworkPolicy(as<NetworkPolicy>(obj)),
  validate: (obj: KubeObject) => validateNetworkPolicy(as(obj)),
  validateUpdate: updateValidator((obj) => validateNetworkPolicy(as(obj))),
} satisfies Strategy;

export const ingressStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
  validate: (obj: KubeObject) => validateIngress(as(obj)),
  validateUpdate: updateValidator((obj) => validateIngress(as(obj))),
} satisfies Strategy;

export const ingressClassStrategy = {
  generation: true,
  ...generationOnly,
  /** SetDefaults_IngressClass: parameters are cluster-scoped unless said otherwise. */
  defaults(obj: KubeObject): void {
    const p = as<IngressClass>(obj).spec?.parameters;
    if (p) p.scope ??= 'Cluster';
  },
  validate: (obj: KubeObject) => validateIngressClass(as(obj)),
  // validateIngressClassSpecUpdate: the controller cannot change.
  validateUpdate: updateValidator((obj) => validateIngressClass(as(obj)), (obj, old) => {
    const c = as<IngressClass>(obj).spec?.controller, o = as<IngressClass>(old).spec?.controller;
    return c === o ? [] : [fieldErr.invalid('spec.controller', c ?? '', FIELD_IMMUTABLE)];
  }),
} satisfies Strategy;

export const serviceCIDRStrategy = {
  prepareForCreate(obj: KubeObject): void {
    delete obj.status;
  },
  prepareForUpdate: (obj: KubeObject, old: KubeObject, ctx: StrategyContext) => {
    keepStatusOrSpec(obj, old, ctx);
    // metav1.Condition's reason and message are plain strings (no omitempty): the typed round trip stores "" for a
    // condition written without them, e.g. the default ServiceCIDR controller's applied Ready (WithReason unset).
    for (const c of (obj.status as { conditions?: Record<string, unknown>[] } | undefined)?.conditions ?? []) {
      if (c && typeof c === 'object') {
        c.reason ??= '';
        c.message ??= '';
      }
    }
  },
  validate: (obj: KubeObject) => validateServiceCIDR(as<ServiceCIDR>(obj)),
  // ValidateServiceCIDRUpdate: each CIDR is immutable (by index); a single-stack one may only gain the other family.
  validateUpdate: updateValidator((obj) => validateServiceCIDR(as<ServiceCIDR>(obj)), (obj, old) => {
    const n = as<ServiceCIDR>(obj).spec?.cidrs ?? [], o = as<ServiceCIDR>(old).spec?.cidrs ?? [];
    if (n.length === o.length) return o.flatMap((c, i) => (c === n[i] ? [] : [fieldErr.invalid(`spec.cidrs[${i}]`, n[i], FIELD_IMMUTABLE)]));
    if (o.length === 1 && n.length === 2) return n[0] === o[0] ? [] : [fieldErr.invalid('spec.cidrs[0]', n[0], FIELD_IMMUTABLE)];
    return [fieldErr.invalid('spec.cidrs', n, FIELD_IMMUTABLE)];
  }),
} satisfies Strategy;

export const ipAddressStrategy = {
  validate: (obj: KubeObject) => validateIPAddress(as<IPAddress>(obj)),
  validateUpdate: updateValidator((obj) => validateIPAddress(as<IPAddress>(obj)), (obj, old) =>
    deepEqual(obj.spec, old.spec) ? [] : [fieldErr.invalid('spec.parentRef', (obj.spec as IPAddress['spec'])?.parentRef ?? null, FIELD_IMMUTABLE)]),
} satisfies Strategy;
