// PodSpec validation: volumes, containers, policies, scheduling fields, tolerations, plus a seam for
// OS-specific rules (kubernetes pkg/apis/core/validation/validation.go ValidatePodSpec and helpers).

import type { PodSpec, Toleration, Volume } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { validateLabelName, validateLabels } from './labels.js';
import { validateContainers, validateDNS1123Label, validateInitContainers } from './containers.js';
import { inclusiveRangeError, isDNS1123Subdomain, isValidLabelValue } from './names.js';

/** A rule set over a whole PodSpec; `path` is where the spec sits (`spec`, `spec.template.spec`). */
export type PodSpecValidator = (spec: PodSpec, path: string) => FieldError[];

/**
 * OS-specific checks (spec.os, Windows-only and Linux-only fields: validateOS and friends in kube). Empty for
 * now; the Windows job registers its validator here and every pod and pod template then runs it.
 */
export const POD_OS_VALIDATORS: PodSpecValidator[] = [];

export function registerPodOSValidator(v: PodSpecValidator): void {
  if (POD_OS_VALIDATORS.includes(v)) throw new Error('pod OS validator registered twice');
  POD_OS_VALIDATORS.push(v);
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile',
  'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume',
  'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
] as const;

/** ValidateVolumes: unique DNS-label names, exactly one source, required source fields. Returns valid names. */
export function validateVolumes(volumes: Volume[] | undefined, path: string): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  (volumes ?? []).forEach((v, i) => {
    const at = `${path}[${i}]`;
    const el: FieldError[] = [];
    const rec = v as unknown as Record<string, unknown>;
    const sources = VOLUME_SOURCES.filter((s) => rec[s] !== undefined && rec[s] !== null);
    if (sources.length === 0) el.push(fieldErr.required(at, 'must specify a volume type'));
    for (const s of sources.slice(1)) el.push(fieldErr.forbidden(`${at}.${s}`, 'may not specify more than 1 volume type'));
    if (v.hostPath && !v.hostPath.path) el.push(fieldErr.required(`${at}.hostPath.path`));
    if (v.configMap && !v.configMap.name) el.push(fieldErr.required(`${at}.configMap.name`));
    if (v.secret && !v.secret.secretName) el.push(fieldErr.required(`${at}.secret.secretName`));
    if (v.persistentVolumeClaim && !v.persistentVolumeClaim.claimName) el.push(fieldErr.required(`${at}.persistentVolumeClaim.claimName`));
    if (!v.name) el.push(fieldErr.required(`${at}.name`));
    else el.push(...validateDNS1123Label(v.name, `${at}.name`));
    if (names.has(v.name)) el.push(fieldErr.duplicate(`${at}.name`, v.name));
    if (el.length === 0) names.add(v.name);
    else errs.push(...el);
  });
  return { names, errs };
}

function validateEnum(value: string | undefined, valid: string[], path: string): FieldError[] {
  if (!value) return [fieldErr.required(path)];
  return valid.includes(value) ? [] : [fieldErr.notSupported(path, value, valid)];
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaintEffect. */
export function validateTaintEffect(effect: string | undefined, allowEmpty: boolean, path: string): FieldError[] {
  if (!effect) return allowEmpty ? [] : [fieldErr.required(path)];
  return TAINT_EFFECTS.includes(effect) ? [] : [fieldErr.notSupported(path, effect, TAINT_EFFECTS)];
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: Toleration[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const at = `${path}[${i}]`;
    if (t.key) errs.push(...validateLabelName(t.key, `${at}.key`));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(fieldErr.invalid(`${at}.operator`, t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute') {
      errs.push(fieldErr.invalid(`${at}.effect`, t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (t.operator ?? '') {
      case 'Equal': case '': {
        const msgs = isValidLabelValue(t.value ?? '');
        if (msgs.length) errs.push(fieldErr.invalid(`${at}.operator`, t.value ?? '', msgs.join(';')));
        break;
      }
      case 'Exists':
        if (t.value) errs.push(fieldErr.invalid(`${at}.operator`, t, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(fieldErr.notSupported(`${at}.operator`, t.operator, ['Equal', 'Exists']));
    }
    errs.push(...validateTaintEffect(t.effect, true, `${at}.effect`));
  });
  return errs;
}

/** ValidatePreemptionPolicy. */
export function validatePreemptionPolicy(policy: string, path: string): FieldError[] {
  return validateEnum(policy, ['PreemptLowerPriority', 'Never'], path);
}

const subdomainErrs = (value: string, path: string) => isDNS1123Subdomain(value).map((m) => fieldErr.invalid(path, value, m));

/** ValidatePodSpec, in kube's order of checks. */
export function validatePodSpec(spec: PodSpec | undefined, path: string): FieldError[] {
  const s = spec ?? ({} as PodSpec);
  const { names, errs } = validateVolumes(s.volumes, `${path}.volumes`);
  errs.push(...validateContainers(s.containers, names, `${path}.containers`));
  errs.push(...validateInitContainers(s.initContainers, s.containers, names, `${path}.initContainers`));
  errs.push(...validateEnum(s.restartPolicy, ['Always', 'OnFailure', 'Never'], `${path}.restartPolicy`));
  errs.push(...validateEnum(s.dnsPolicy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'], `${path}.dnsPolicy`));
  if (s.dnsPolicy === 'None' && !s.dnsConfig) {
    errs.push(fieldErr.required(`${path}.dnsConfig`, 'must provide `dnsConfig` when `dnsPolicy` is None'));
  }
  errs.push(...validateLabels(s.nodeSelector, `${path}.nodeSelector`));
  if (s.serviceAccountName) errs.push(...subdomainErrs(s.serviceAccountName, `${path}.serviceAccountName`));
  if (s.nodeName) errs.push(...subdomainErrs(s.nodeName, `${path}.nodeName`));
  if (s.activeDeadlineSeconds !== undefined && s.activeDeadlineSeconds !== null) {
    const v = s.activeDeadlineSeconds;
    if (v < 1 || v > 2147483647) errs.push(fieldErr.invalid(`${path}.activeDeadlineSeconds`, v, inclusiveRangeError(1, 2147483647)));
  }
  if (s.hostname) errs.push(...validateDNS1123Label(s.hostname, `${path}.hostname`));
  if (s.subdomain) errs.push(...validateDNS1123Label(s.subdomain, `${path}.subdomain`));
  errs.push(...validateTolerations(s.tolerations, `${path}.tolerations`));
  if (s.priorityClassName) errs.push(...subdomainErrs(s.priorityClassName, `${path}.priorityClassName`));
  if (s.runtimeClassName !== undefined && s.runtimeClassName !== null) {
    errs.push(...subdomainErrs(s.runtimeClassName, `${path}.runtimeClassName`));
  }
  if (s.preemptionPolicy !== undefined && s.preemptionPolicy !== null) {
    errs.push(...validatePreemptionPolicy(s.preemptionPolicy, `${path}.preemptionPolicy`));
  }
  for (const v of POD_OS_VALIDATORS) errs.push(...v(s, path));
  return errs;
}
