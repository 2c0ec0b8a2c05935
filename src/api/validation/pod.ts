// Pod and PodTemplateSpec validation, including what a pod update may change and what a status update may do
// (kubernetes pkg/apis/core/validation/validation.go ValidatePodCreate, ValidatePodUpdate,
// ValidatePodStatusUpdate, ValidatePodTemplateSpec).

import type { Container, ContainerStatus, Pod, PodSpec, PodTemplateSpec, Toleration } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { validateLabels } from './labels.js';
import type { ObjectMeta } from '../types.js';
import { inclusiveRangeError, isDNS1123Subdomain, nameIsDNSSubdomain } from './names.js';
import { deepEqual, validateAnnotations, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { validatePodSpec, validateTolerations } from './pod-spec.js';

const meta = (p: Pod) => p.metadata as unknown as ObjectMeta;

/** ValidatePodCreate; `storedSpec` says the spec is the stored object's own (validated when it was written). */
export function validatePod(pod: Pod, storedSpec = false): FieldError[] {
  const errs = validateObjectMeta(meta(pod), nameIsDNSSubdomain);
  if (storedSpec) return errs;
  errs.push(...validatePodSpec(pod.spec, 'spec'));
  if (pod.spec?.ephemeralContainers?.length) errs.push(fieldErr.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  return errs;
}

/** ValidatePodTemplateSpec: labels are reported at `<path>.labels`, as kube does (not `.metadata.labels`). */
export function validatePodTemplateSpec(t: PodTemplateSpec | undefined, path: string): FieldError[] {
  const m = t?.metadata;
  const errs = validateLabels(m?.labels, `${path}.labels`);
  errs.push(...validateAnnotations(m?.annotations, `${path}.annotations`));
  errs.push(...validatePodSpec(t?.spec, `${path}.spec`));
  if (t?.spec?.ephemeralContainers?.length) {
    errs.push(fieldErr.forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** ValidateContainerUpdates: same count, images present. Returns `stop` when the count changed. */
function validateContainerUpdates(next: Container[] = [], prev: Container[] = [], path: string): { errs: FieldError[]; stop: boolean } {
  if (next.length !== prev.length) return { errs: [fieldErr.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  next.forEach((c, i) => {
    if (!c.image) errs.push(fieldErr.required(`${path}[${i}].image`));
    else if (c.image.trim() !== c.image) errs.push(fieldErr.invalid(`${path}[${i}].image`, c.image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** validateOnlyAddedTolerations: existing tolerations stay, except their tolerationSeconds. */
function validateOnlyAddedTolerations(next: Toleration[] = [], prev: Toleration[] = [], path: string): FieldError[] {
  for (const old of prev) {
    const found = next.some((t) => deepEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!found) return [fieldErr.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, path);
}

export const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,' +
  '`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** A short stand-in for kube's go-cmp diff: the top-level PodSpec fields that differ, old then new. */
function specDiff(prev: PodSpec, next: PodSpec): string {
  const lines = ['  core.PodSpec{'];
  const keys = [...new Set([...Object.keys(prev), ...Object.keys(next)])].sort();
  const rec = (o: PodSpec) => o as unknown as Record<string, unknown>;
  for (const k of keys) {
    const a = rec(prev)[k];
    const b = rec(next)[k];
    if (deepEqual(a, b)) continue;
    if (a !== undefined) lines.push(`- \t${k}: ${JSON.stringify(a)},`);
    if (b !== undefined) lines.push(`+ \t${k}: ${JSON.stringify(b)},`);
  }
  lines.push('  }');
  return lines.join('\n');
}

/** ValidatePodUpdate. */
export function validatePodUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(pod), meta(old));
  errs.push(...validatePod(pod).filter((e) => e.field !== 'spec.ephemeralContainers'));
  const spec = pod.spec ?? ({} as PodSpec);
  const oldSpec = old.spec ?? ({} as PodSpec);
  for (const [field, path] of [['containers', 'spec.containers'], ['initContainers', 'spec.initContainers']] as const) {
    const r = validateContainerUpdates(spec[field], oldSpec[field], path);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const ads = spec.activeDeadlineSeconds;
  const oldAds = oldSpec.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null) {
    if (ads < 0 || ads > 2147483647) {
      errs.push(fieldErr.invalid('spec.activeDeadlineSeconds', ads, inclusiveRangeError(0, 2147483647)));
      return errs;
    }
    if (oldAds !== undefined && oldAds !== null && oldAds < ads) {
      errs.push(fieldErr.invalid('spec.activeDeadlineSeconds', ads, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (oldAds !== undefined && oldAds !== null) {
    errs.push(fieldErr.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(spec.tolerations, oldSpec.tolerations, 'spec.tolerations'));
  if (deepEqual(spec, oldSpec)) return errs;

  // Put back what may change, then any remaining difference is forbidden.
  const munged: PodSpec = {
    ...spec,
    containers: (spec.containers ?? []).map((c, i) => ({ ...c, image: oldSpec.containers?.[i]?.image ?? c.image })),
    activeDeadlineSeconds: oldAds,
    tolerations: oldSpec.tolerations,
    schedulingGates: oldSpec.schedulingGates,
  };
  if (spec.initContainers) {
    munged.initContainers = spec.initContainers.map((c, i) => ({ ...c, image: oldSpec.initContainers?.[i]?.image ?? c.image }));
  }
  if ((oldSpec.terminationGracePeriodSeconds ?? 0) < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
  }
  const clean = (s: PodSpec) => JSON.parse(JSON.stringify(s)) as PodSpec;
  if (!deepEqual(clean(munged), clean(oldSpec))) {
    errs.push(fieldErr.forbidden('spec', `${POD_UPDATE_FORBIDDEN}\n${specDiff(clean(oldSpec), clean(munged))}`));
  }
  return errs;
}

/** ValidateContainerStateTransition: without restartPolicy Always, terminated containers stay terminated. */
function validateStateTransition(next: ContainerStatus[] = [], prev: ContainerStatus[] = [], path: string, restartPolicy?: string): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  prev.forEach((o, i) => {
    const term = o.state?.terminated;
    if (!term) return;
    if (term.exitCode !== 0 && restartPolicy === 'OnFailure') return;
    for (const n of next) {
      if (n.name === o.name && !n.state?.terminated) errs.push(fieldErr.forbidden(`${path}[${i}].state`, 'may not be transitioned to non-terminated state'));
    }
  });
  return errs;
}

/** ValidatePodStatusUpdate. */
export function validatePodStatusUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(pod), meta(old));
  if ((pod.spec?.nodeName ?? '') !== (old.spec?.nodeName ?? '')) errs.push(fieldErr.forbidden('status.nodeName', 'may not be changed directly'));
  const nominated = pod.status?.nominatedNodeName ?? '';
  if (nominated && nominated !== (old.status?.nominatedNodeName ?? '')) {
    for (const m of isDNS1123Subdomain(nominated)) errs.push(fieldErr.invalid('status.nominatedNodeName', nominated, m));
  }
  const rp = old.spec?.restartPolicy;
  errs.push(...validateStateTransition(pod.status?.containerStatuses, old.status?.containerStatuses, 'status.containerStatuses', rp));
  errs.push(...validateStateTransition(pod.status?.initContainerStatuses, old.status?.initContainerStatuses, 'status.initContainerStatuses', rp));
  return errs;
}
