// The scale subresource for the fake client: which resources have one (apps Deployments, ReplicaSets, StatefulSets,
// core ReplicationControllers, and custom resources a test declares) and the autoscaling/v1 Scale view of an object
// (pkg/registry/apps/deployment/storage/storage.go scaleFromDeployment; apiextensions-apiserver's customresource
// scale.go scaleFromCustomResource for the CRD paths).

import { fieldErr, StatusError } from '../../api/errors.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { formatLabelSelector } from '../../api/labels.js';
import type { KubeObject } from '../../api/types.js';
import type { ResourceType } from '../../client/interfaces.js';

/** Where a resource keeps its replicas and selector, as a CRD's `subresources.scale` says (dotted paths). */
export interface FakeScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  /** A path to a string selector (Scale.status.selector); a CRD without it has an empty selector. */
  labelSelectorPath?: string;
  /** The built-ins derive the selector from spec.selector instead of reading a string. */
  selector?: (obj: KubeObject) => string;
}

const specSelector = (obj: KubeObject) => formatLabelSelector((obj.spec as { selector?: LabelSelector } | undefined)?.selector);
/** A ReplicationController's map selector as `k=v` pairs, sorted (labels.SelectorFromSet(...).String()). */
const mapSelector = (obj: KubeObject) =>
  Object.entries((obj.spec as { selector?: Record<string, string> } | undefined)?.selector ?? {}).map(([k, v]) => `${k}=${v}`).sort().join(',');

const replicas = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
const BUILTIN: Record<string, FakeScaleSpec> = {
  'apps/deployments': { ...replicas, selector: specSelector },
  'apps/replicasets': { ...replicas, selector: specSelector },
  'apps/statefulsets': { ...replicas, selector: specSelector },
  '/replicationcontrollers': { ...replicas, selector: mapSelector },
};

/** The scale spec of a resource: a built-in's, else the one a test declared for a custom resource. */
export function scaleSubresourceOf(rt: ResourceType, custom: FakeScaleSpec | undefined): FakeScaleSpec | undefined {
  return BUILTIN[`${rt.group}/${rt.resource}`] ?? custom;
}

function parts(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function getPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of parts(path)) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return cur;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const ps = parts(path);
  let cur = obj;
  for (const p of ps.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
  cur[ps[ps.length - 1]] = value;
}

/** The autoscaling/v1 Scale of an object. */
export function toScale(obj: KubeObject, spec: FakeScaleSpec): KubeObject {
  const m = obj.metadata;
  const selector = spec.selector ? spec.selector(obj) : String(spec.labelSelectorPath ? getPath(obj, spec.labelSelectorPath) ?? '' : '');
  return {
    apiVersion: 'autoscaling/v1', kind: 'Scale',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: (getPath(obj, spec.specReplicasPath) as number | undefined) ?? 0 },
    status: { replicas: (getPath(obj, spec.statusReplicasPath) as number | undefined) ?? 0, selector },
  };
}

/**
 * The parent with the Scale's replicas (ValidateScale first: a non-negative integer), keeping the Scale's uid for the
 * caller's precondition check.
 */
export function fromScale(parent: KubeObject, scale: KubeObject, spec: FakeScaleSpec): KubeObject {
  const want = (scale.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
  if (typeof want !== 'number' || !Number.isInteger(want) || want < 0) {
    throw StatusError.invalid('autoscaling', 'Scale', parent.metadata.name ?? '', [fieldErr.invalid('spec.replicas', want, 'must be greater than or equal to 0')]);
  }
  const next = structuredClone(parent);
  setPath(next as Record<string, unknown>, spec.specReplicasPath, want);
  next.metadata.uid = scale.metadata?.uid || parent.metadata.uid;
  return next;
}
