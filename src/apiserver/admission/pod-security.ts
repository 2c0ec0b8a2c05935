// PodSecurity admission: namespaces choose a Pod Security Standard per mode with `pod-security.kubernetes.io/<mode>`
// labels; `enforce` rejects violating pods, `warn` answers with a Warning header, and pod controllers are warned
// about their templates (staging/src/k8s.io/pod-security-admission/admission/admission.go, api/helpers.go).
// `audit` has no audit log to write to in winkube and is parsed but otherwise ignored.

import type { Container, Namespace, Pod, PodSpec, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { fieldErr, StatusError, type FieldError } from '../../api/errors.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';
import { BASELINE_CHECKS } from './pod-security-baseline.js';
import { evaluatePod, forbiddenDetail, LATEST, levelVersionString, type Check, type Level, type LevelVersion } from './pod-security-policy.js';
import { RESTRICTED_CHECKS } from './pod-security-restricted.js';

export const NAME = 'PodSecurity';
export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const MODES = ['enforce', 'audit', 'warn'] as const;
type Mode = typeof MODES[number];
export type Policy = Record<Mode, LevelVersion>;

export const ALL_CHECKS: Check[] = [...BASELINE_CHECKS, ...RESTRICTED_CHECKS];
const LEVELS: Level[] = ['privileged', 'baseline', 'restricted'];
/** Pod subresources that never change what PodSecurity looks at (ignoredPodSubresources). */
const IGNORED_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

export interface PodSecurityOptions {
  /** The policy for unlabelled namespaces (PodSecurityConfiguration defaults): privileged:latest for every mode. */
  defaults?: Partial<Policy>;
  exemptions?: { namespaces?: string[]; usernames?: string[]; runtimeClasses?: string[] };
}

/** Resolves the namespace labels to a policy; bad values fail closed for enforce and open for audit/warn (PolicyToEvaluate). */
export function policyFromLabels(labels: Record<string, string> | undefined, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const policy: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: FieldError[] = [];
  for (const mode of MODES) {
    const levelKey = `${LABEL_PREFIX}${mode}`;
    const level = labels?.[levelKey];
    if (level !== undefined) {
      if ((LEVELS as string[]).includes(level)) policy[mode].level = level as Level;
      else {
        errors.push(fieldErr.invalid(`metadata.labels[${levelKey}]`, level, `must be one of ${LEVELS.join(', ')}`));
        policy[mode].level = mode === 'enforce' ? 'restricted' : 'privileged';
      }
    }
    const versionKey = `${levelKey}-version`;
    const version = labels?.[versionKey];
    if (version !== undefined) {
      const m = /^v1\.(0|[1-9][0-9]*)$/.exec(version);
      if (version === 'latest' || m) policy[mode].version = m ? Number(m[1]) : LATEST;
      else {
        errors.push(fieldErr.invalid(`metadata.labels[${versionKey}]`, version, 'must be "latest" or "v1.x"'));
        policy[mode].version = LATEST;
      }
    }
  }
  return { policy, errors };
}

/** The pod template of a workload resource, if this is one (DefaultPodSpecExtractor). */
function templateOf(a: AdmissionAttributes): PodTemplateSpec | undefined {
  const obj = a.object as { spec?: { template?: PodTemplateSpec; jobTemplate?: { spec?: { template?: PodTemplateSpec } } }; template?: PodTemplateSpec };
  const key = `${a.decl.group}/${a.decl.plural}`;
  switch (key) {
    case '/podtemplates': return obj.template;
    case '/replicationcontrollers': case 'apps/deployments': case 'apps/replicasets': case 'apps/statefulsets': case 'apps/daemonsets': case 'batch/jobs':
      return obj.spec?.template;
    case 'batch/cronjobs': return obj.spec?.jobTemplate?.spec?.template;
  }
  return undefined;
}

/** Only image changes (or added/removed containers) make a pod update worth re-checking (isSignificantPodUpdate). */
function significantPodUpdate(pod: Pod, old: Pod): boolean {
  const pairs = (a: Container[] | undefined, b: Container[] | undefined) => (a?.length ?? 0) !== (b?.length ?? 0) || (a ?? []).some((c, i) => c.image !== b![i].image);
  if (pairs(pod.spec?.containers, old.spec?.containers) || pairs(pod.spec?.initContainers, old.spec?.initContainers)) return true;
  const oldEphemeral = new Map((old.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  return (pod.spec?.ephemeralContainers ?? []).some((c) => oldEphemeral.get(c.name)?.image !== c.image);
}

export function podSecurity(opts: PodSecurityOptions = {}): AdmissionPlugin {
  const privileged = (): LevelVersion => ({ level: 'privileged', version: LATEST });
  const defaults: Policy = { enforce: privileged(), audit: privileged(), warn: privileged(), ...opts.defaults };
  const ex = opts.exemptions ?? {};

  function evaluate(a: AdmissionAttributes, lookup: AdmissionLookup, meta: ObjectMeta, spec: PodSpec, enforce: boolean): void {
    if (spec.runtimeClassName && ex.runtimeClasses?.includes(spec.runtimeClassName)) return;
    const ns = lookup.get('', 'namespaces', undefined, a.namespace) as unknown as Namespace | undefined;
    if (!ns) return;
    const { policy } = policyFromLabels(ns.metadata?.labels, defaults);
    if (enforce) {
      const violations = evaluatePod(ALL_CHECKS, policy.enforce, meta, spec);
      if (violations.length) {
        throw StatusError.forbidden(a.decl.group, a.decl.plural, a.name,
          `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(violations)}`);
      }
    }
    const warn = evaluatePod(ALL_CHECKS, policy.warn, meta, spec);
    if (warn.length) a.warnings?.push(`would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warn)}`);
  }

  /** Label changes must parse; a stricter enforce level warns about existing pods that would now be rejected (ValidateNamespace). */
  function validateNamespace(a: AdmissionAttributes, lookup: AdmissionLookup): void {
    const labels = a.object!.metadata.labels;
    const oldLabels = a.oldObject?.metadata.labels;
    const psaLabels = (l: Record<string, string> | undefined) => JSON.stringify(Object.entries(l ?? {}).filter(([k]) => k.startsWith(LABEL_PREFIX)).sort());
    if (a.operation === 'UPDATE' && psaLabels(labels) === psaLabels(oldLabels)) return;
    const { policy, errors } = policyFromLabels(labels, defaults);
    if (errors.length) throw StatusError.invalid('', 'Namespace', a.name, errors);
    if (a.operation !== 'UPDATE' || policy.enforce.level === 'privileged') return;
    const old = policyFromLabels(oldLabels, defaults).policy.enforce;
    if (old.level === policy.enforce.level && old.version === policy.enforce.version) return;
    const offenders = new Map<string, string[]>();
    for (const pod of lookup.list('', 'pods', a.name) as unknown as Pod[]) {
      if (pod.spec?.runtimeClassName && ex.runtimeClasses?.includes(pod.spec.runtimeClassName)) continue;
      const v = evaluatePod(ALL_CHECKS, policy.enforce, pod.metadata ?? {}, pod.spec ?? { containers: [] });
      if (!v.length) continue;
      const reason = v.map((x) => x.reason).join(', ');
      offenders.set(reason, [...(offenders.get(reason) ?? []), pod.metadata!.name!]);
    }
    if (!offenders.size) return;
    a.warnings?.push(`existing pods in namespace "${a.name}" violate the new PodSecurity enforce level "${levelVersionString(policy.enforce)}"`);
    const lines = [...offenders].map(([reason, pods]) => {
      const first = [...pods].sort()[0];
      const others = pods.length - 1;
      const who = others === 0 ? first : `${first} (and ${others} other pod${others === 1 ? '' : 's'})`;
      return `${who}: ${reason}`;
    });
    a.warnings?.push(...lines.sort());
  }

  return {
    name: NAME,
    validate(a, lookup) {
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      if (!a.object) return;
      if (!a.decl.group && a.decl.plural === 'namespaces') {
        if (!a.subresource) validateNamespace(a, lookup);
        return;
      }
      if ((a.namespace && ex.namespaces?.includes(a.namespace)) || ex.usernames?.includes(a.user.name)) return;
      if (!a.decl.group && a.decl.plural === 'pods') {
        if (IGNORED_SUBRESOURCES.has(a.subresource)) return;
        const pod = a.object as unknown as Pod;
        if (a.operation === 'UPDATE' && a.oldObject && !significantPodUpdate(pod, a.oldObject as unknown as Pod)) return;
        evaluate(a, lookup, pod.metadata ?? {}, pod.spec ?? { containers: [] }, true);
        return;
      }
      if (a.subresource) return;
      const template = templateOf(a);
      if (template) evaluate(a, lookup, template.metadata ?? {}, template.spec ?? { containers: [] }, false);
    },
  };
}
