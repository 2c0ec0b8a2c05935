// The Baseline Pod Security Standard: each check with kube's reason and detail text
// (staging/src/k8s.io/pod-security-admission/policy/check_*.go, baseline level).

import type { Container, EphemeralContainer, PodSpec } from 'kubernetes-types/core/v1.js';
import { containersPhrase, joinQuote, pluralize, sortedSet, visitContainers, type Check, type CheckFn } from './pod-security-policy.js';

type AnyContainer = Container | EphemeralContainer;

/** The names of containers for which `bad` holds. */
function badContainers(spec: PodSpec, bad: (c: AnyContainer) => boolean): string[] {
  const names: string[] = [];
  visitContainers(spec, (c) => { if (bad(c)) names.push(c.name); });
  return names;
}

const hostNamespaces: CheckFn = (_m, spec) => {
  const used = [spec.hostNetwork && 'hostNetwork=true', spec.hostPID && 'hostPID=true', spec.hostIPC && 'hostIPC=true'].filter(Boolean) as string[];
  return used.length ? { reason: 'host namespaces', detail: used.join(', ') } : undefined;
};

const privileged: CheckFn = (_m, spec) => {
  const bad = badContainers(spec, (c) => c.securityContext?.privileged === true);
  return bad.length ? { reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` } : undefined;
};

const ALLOWED_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const capabilitiesBaseline: CheckFn = (_m, spec) => {
  const added: string[] = [];
  const bad = badContainers(spec, (c) => {
    const extra = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !ALLOWED_CAPABILITIES.has(cap));
    added.push(...extra);
    return extra.length > 0;
  });
  return bad.length
    ? { reason: 'non-default capabilities', detail: `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add` }
    : undefined;
};

const hostPathVolumes: CheckFn = (_m, spec) => {
  const names = (spec.volumes ?? []).filter((v) => v.hostPath).map((v) => v.name);
  return names.length ? { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` } : undefined;
};

const hostPorts: CheckFn = (_m, spec) => {
  const ports: string[] = [];
  const bad = badContainers(spec, (c) => {
    const hp = (c.ports ?? []).filter((p) => p.hostPort).map((p) => String(p.hostPort));
    ports.push(...hp);
    return hp.length > 0;
  });
  if (!bad.length) return undefined;
  const list = sortedSet(ports);
  return {
    reason: 'hostPort',
    detail: `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`,
  };
};

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const appArmorProfile: CheckFn = (meta, spec) => {
  const allowedType = (t: string) => t === 'RuntimeDefault' || t === 'Localhost';
  const setters: string[] = [];
  const values: string[] = [];
  const podType = spec.securityContext?.appArmorProfile?.type;
  if (podType !== undefined && !allowedType(podType)) {
    setters.push('pod');
    values.push(podType);
  }
  const bad = badContainers(spec, (c) => {
    const t = c.securityContext?.appArmorProfile?.type;
    if (t === undefined || allowedType(t)) return false;
    values.push(t);
    return true;
  });
  if (bad.length) setters.push(containersPhrase(bad));
  const badValues = sortedSet(values);
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(([k, v]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !(v === '' || v === 'runtime/default' || v.startsWith('localhost/')))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`).sort();
  if (annotations.length) {
    badValues.push(...annotations);
    setters.push(pluralize('annotation', 'annotations', annotations.length));
  }
  if (!setters.length) return undefined;
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValues.length),
    detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValues)}`,
  };
};

const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const seLinuxOptions: CheckFn = (_m, spec) => {
  const types: string[] = [];
  let user = false;
  let role = false;
  const invalid = (o: { type?: string; user?: string; role?: string } | undefined): boolean => {
    if (!o) return false;
    let bad = false;
    if (!SELINUX_TYPES.has(o.type ?? '')) { types.push(o.type ?? ''); bad = true; }
    if (o.user) { user = true; bad = true; }
    if (o.role) { role = true; bad = true; }
    return bad;
  };
  const setters: string[] = [];
  if (invalid(spec.securityContext?.seLinuxOptions)) setters.push('pod');
  const bad = badContainers(spec, (c) => invalid(c.securityContext?.seLinuxOptions));
  if (bad.length) setters.push(containersPhrase(bad));
  if (!setters.length) return undefined;
  const data: string[] = [];
  const t = sortedSet(types);
  if (t.length) data.push(`${pluralize('type', 'types', t.length)} ${joinQuote(t)}`);
  if (user) data.push('user may not be set');
  if (role) data.push('role may not be set');
  return { reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
};

const procMount: CheckFn = (_m, spec) => {
  const types: string[] = [];
  const bad = badContainers(spec, (c) => {
    const pm = c.securityContext?.procMount;
    if (pm === undefined || pm === 'Default') return false;
    types.push(pm);
    return true;
  });
  return bad.length ? { reason: 'procMount', detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}` } : undefined;
};

export const validSeccomp = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';
const seccompBaseline: CheckFn = (_m, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile && !validSeccomp(podProfile.type)) {
    setters.push('pod');
    values.push(podProfile.type);
  }
  const bad = badContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (!p || validSeccomp(p.type)) return false;
    values.push(p.type);
    return true;
  });
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length
    ? { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}` }
    : undefined;
};

/** Safe sysctls by the policy version that allowed them (check_sysctls.go). */
const SYSCTLS: [number, string[]][] = [
  [0, ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start']],
  [27, ['net.ipv4.ip_local_reserved_ports']],
  [29, ['net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']],
  [32, ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']],
];
function sysctlsFrom(minor: number): CheckFn {
  const allowed = new Set(SYSCTLS.filter(([v]) => v <= minor).flatMap(([, names]) => names));
  return (_m, spec) => {
    const bad = (spec.securityContext?.sysctls ?? []).map((s) => s.name).filter((n) => !allowed.has(n));
    return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
  };
}

/** HostProcess containers run on the Windows host itself (check_windowsHostProcess.go; windows-facts §8). */
const windowsHostProcess: CheckFn = (_m, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  const bad = badContainers(spec, (c) => c.securityContext?.windowsOptions?.hostProcess === true);
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length
    ? { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` }
    : undefined;
};

const v0 = (fn: CheckFn) => [{ min: 0, fn }];

export const BASELINE_CHECKS: Check[] = [
  { id: 'hostNamespaces', level: 'baseline', versions: v0(hostNamespaces) },
  { id: 'privileged', level: 'baseline', versions: v0(privileged) },
  { id: 'capabilities_baseline', level: 'baseline', versions: v0(capabilitiesBaseline) },
  { id: 'hostPathVolumes', level: 'baseline', versions: v0(hostPathVolumes) },
  { id: 'hostPorts', level: 'baseline', versions: v0(hostPorts) },
  { id: 'appArmorProfile', level: 'baseline', versions: v0(appArmorProfile) },
  { id: 'seLinuxOptions', level: 'baseline', versions: v0(seLinuxOptions) },
  { id: 'procMount', level: 'baseline', versions: v0(procMount) },
  // Before 1.19 seccomp was set by annotations, which winkube does not evaluate; the field check starts there.
  { id: 'seccompProfile_baseline', level: 'baseline', versions: [{ min: 19, fn: seccompBaseline }] },
  { id: 'sysctls', level: 'baseline', versions: SYSCTLS.map(([min]) => ({ min, fn: sysctlsFrom(min) })) },
  { id: 'windowsHostProcess', level: 'baseline', versions: v0(windowsHostProcess) },
];
