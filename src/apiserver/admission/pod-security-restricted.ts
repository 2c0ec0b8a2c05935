// The Restricted Pod Security Standard on top of Baseline: volume types, privilege escalation, non-root, capabilities
// and seccomp, with Windows pods exempt from the Linux-only checks from policy v1.25
// (staging/src/k8s.io/pod-security-admission/policy/check_*.go, restricted level; windows-facts §8).

import type { PodSpec, Volume } from 'kubernetes-types/core/v1.js';
import { validSeccomp } from './pod-security-baseline.js';
import { containersPhrase, isWindowsPod, joinQuote, pluralize, sortedSet, visitContainers, type Check, type CheckFn } from './pod-security-policy.js';

/** Volume sources the restricted level allows. */
const ALLOWED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
/** Named restricted sources, in the order kube tests them; anything else is "unknown". */
const RESTRICTED_VOLUMES = ['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume',
  'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos'];

const restrictedVolumes: CheckFn = (_m, spec) => {
  const names: string[] = [];
  const types: string[] = [];
  for (const v of spec.volumes ?? []) {
    const rec = v as Volume & Record<string, unknown>;
    if (ALLOWED_VOLUMES.some((k) => rec[k] != null)) continue;
    names.push(v.name);
    types.push(RESTRICTED_VOLUMES.find((k) => rec[k] != null) ?? 'unknown');
  }
  if (!names.length) return undefined;
  const t = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} `
      + `${pluralize('restricted volume type', 'restricted volume types', t.length)} ${joinQuote(t)}`,
  };
};

/** Skips Windows pods from policy v1.25 on, where the check is Linux-only. */
function linuxOnlyFrom25(since: number, fn: CheckFn): Check['versions'] {
  const skipWindows: CheckFn = (m, spec) => (isWindowsPod(spec) ? undefined : fn(m, spec));
  return since >= 25 ? [{ min: since, fn: skipWindows }] : [{ min: since, fn }, { min: 25, fn: skipWindows }];
}

const allowPrivilegeEscalation: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.allowPrivilegeEscalation !== false) bad.push(c.name); });
  return bad.length
    ? { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false` }
    : undefined;
};

const runAsNonRoot: CheckFn = (_m, spec) => {
  const setters: string[] = [];
  const podValue = spec.securityContext?.runAsNonRoot;
  if (podValue === false) setters.push('pod');
  const explicit: string[] = [];
  const implicit: string[] = [];
  visitContainers(spec, (c) => {
    const v = c.securityContext?.runAsNonRoot;
    if (v === false) explicit.push(c.name);
    else if (v === undefined && podValue !== true) implicit.push(c.name);
  });
  if (explicit.length) setters.push(containersPhrase(explicit));
  if (setters.length) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: CheckFn = (_m, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.runAsUser === 0) bad.push(c.name); });
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
};

const capabilitiesRestricted: CheckFn = (_m, spec) => {
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const added: string[] = [];
  visitContainers(spec, (c) => {
    const caps = c.securityContext?.capabilities;
    if (!caps) {
      missingDrop.push(c.name);
      return;
    }
    if (!(caps.drop ?? []).includes('ALL')) missingDrop.push(c.name);
    const extra = (caps.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (extra.length) {
      adding.push(c.name);
      added.push(...extra);
    }
  });
  const details: string[] = [];
  if (missingDrop.length) details.push(`${containersPhrase(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length) details.push(`${containersPhrase(adding)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`);
  return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

const seccompRestricted: CheckFn = (_m, spec: PodSpec) => {
  const setters: string[] = [];
  const values: string[] = [];
  let podSet = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile) {
    if (validSeccomp(podProfile.type)) podSet = true;
    else {
      setters.push('pod');
      values.push(podProfile.type);
    }
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (p) {
      if (!validSeccomp(p.type)) {
        explicit.push(c.name);
        values.push(p.type);
      }
    } else if (!podSet) implicit.push(c.name);
  });
  if (explicit.length) setters.push(containersPhrase(explicit));
  if (setters.length) {
    return { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}` };
  }
  if (implicit.length) {
    return { reason: 'seccompProfile', detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
  }
  return undefined;
};

export const RESTRICTED_CHECKS: Check[] = [
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ min: 0, fn: restrictedVolumes, overrides: ['hostPathVolumes'] }] },
  { id: 'allowPrivilegeEscalation', level: 'restricted', versions: linuxOnlyFrom25(8, allowPrivilegeEscalation) },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ min: 0, fn: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ min: 23, fn: runAsUser }] },
  { id: 'seccompProfile_restricted', level: 'restricted', versions: linuxOnlyFrom25(19, seccompRestricted) },
  { id: 'capabilities_restricted', level: 'restricted', versions: linuxOnlyFrom25(22, capabilitiesRestricted) },
];
