// Container validation: names, image, ports, env, volume mounts, probes, pull policy, resources
// (kubernetes pkg/apis/core/validation/validation.go validateContainers, validateContainerCommon and helpers).

import type { Container, ContainerPort, EnvVar, Probe, VolumeMount } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { isDNS1123Label, isEnvVarName, isRelaxedEnvVarName, isValidPortName, isValidPortNum } from './names.js';
import { featureEnabled } from '../feature-gates.js';
import { validateNonnegative } from './object-meta.js';
import { validateResourceRequirements } from './resources.js';

export const SUPPORTED_PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

export function validateDNS1123Label(value: string, path: string): FieldError[] {
  return isDNS1123Label(value).map((m) => fieldErr.invalid(path, value, m));
}

/** validateContainerPorts. */
function validateContainerPorts(ports: ContainerPort[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((p, i) => {
    const at = `${path}[${i}]`;
    if (p.name) {
      const msgs = isValidPortName(p.name);
      if (msgs.length) for (const m of msgs) errs.push(fieldErr.invalid(`${at}.name`, p.name, m));
      else if (names.has(p.name)) errs.push(fieldErr.duplicate(`${at}.name`, p.name));
      else names.add(p.name);
    }
    if (!p.containerPort) errs.push(fieldErr.required(`${at}.containerPort`));
    else for (const m of isValidPortNum(p.containerPort)) errs.push(fieldErr.invalid(`${at}.containerPort`, p.containerPort, m));
    if (p.hostPort) for (const m of isValidPortNum(p.hostPort)) errs.push(fieldErr.invalid(`${at}.hostPort`, p.hostPort, m));
    if (!p.protocol) errs.push(fieldErr.required(`${at}.protocol`));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(p.protocol)) errs.push(fieldErr.notSupported(`${at}.protocol`, p.protocol, SUPPORTED_PORT_PROTOCOLS));
  });
  return errs;
}

/** The env name rule in force: relaxed while RelaxedEnvironmentVariableValidation is on (ValidateEnv, ValidateEnvFrom). */
const envNameProblems = (name: string): string[] => (featureEnabled('RelaxedEnvironmentVariableValidation') ? isRelaxedEnvVarName(name) : isEnvVarName(name));

/** ValidateEnvFrom: only the prefix's name rule (the sources are trusted). */
function validateEnvFrom(envFrom: Container['envFrom'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  (envFrom ?? []).forEach((e, i) => {
    if (e.prefix) for (const m of envNameProblems(e.prefix)) errs.push(fieldErr.invalid(`${path}[${i}].prefix`, e.prefix, m));
  });
  return errs;
}

/** ValidateEnv (names only; valueFrom sources are trusted). */
function validateEnv(env: EnvVar[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (env ?? []).forEach((e, i) => {
    const at = `${path}[${i}].name`;
    if (!e.name) errs.push(fieldErr.required(at));
    else for (const m of envNameProblems(e.name)) errs.push(fieldErr.invalid(at, e.name, m));
    if (e.valueFrom && e.value) {
      errs.push(fieldErr.invalid(`${path}[${i}].valueFrom`, '', 'may not be specified when `value` is not empty'));
    }
  });
  return errs;
}

/** ValidateVolumeMounts: the volume must exist, mount paths unique. */
function validateVolumeMounts(mounts: VolumeMount[] | undefined, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (mounts ?? []).forEach((m, i) => {
    const at = `${path}[${i}]`;
    if (!m.name) errs.push(fieldErr.required(`${at}.name`));
    if (!volumes.has(m.name)) errs.push(fieldErr.notFound(`${at}.name`, m.name ?? ''));
    if (!m.mountPath) errs.push(fieldErr.required(`${at}.mountPath`));
    if (seen.has(m.mountPath)) errs.push(fieldErr.invalid(`${at}.mountPath`, m.mountPath, 'must be unique'));
    seen.add(m.mountPath);
  });
  return errs;
}

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;

/** validateProbe: exactly one handler, non-negative timings. */
function validateProbe(probe: Probe | undefined, path: string): FieldError[] {
  if (!probe) return [];
  const errs: FieldError[] = [];
  const handlers = HANDLERS.filter((h) => probe[h] !== undefined && probe[h] !== null);
  if (handlers.length === 0) errs.push(fieldErr.required(path, 'must specify a handler type'));
  for (const h of handlers.slice(1)) errs.push(fieldErr.forbidden(`${path}.${h}`, 'may not specify more than 1 handler type'));
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    errs.push(...validateNonnegative(probe[k], `${path}.${k}`));
  }
  const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
  if (port !== undefined) {
    const at = `${path}.${probe.httpGet ? 'httpGet' : 'tcpSocket'}.port`;
    const msgs = typeof port === 'number' ? isValidPortNum(port) : isValidPortName(port);
    for (const m of msgs) errs.push(fieldErr.invalid(at, port, m));
  }
  return errs;
}

/** validatePullPolicy. */
function validatePullPolicy(policy: string | undefined, path: string): FieldError[] {
  if (!policy) return [fieldErr.required(path)];
  const valid = ['Always', 'IfNotPresent', 'Never'];
  return valid.includes(policy) ? [] : [fieldErr.notSupported(path, policy, valid)];
}

/** validateContainerCommon: the checks every kind of container shares. */
function validateContainerCommon(c: Container, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(fieldErr.required(`${path}.name`));
  else errs.push(...validateDNS1123Label(c.name, `${path}.name`));
  if (!c.image) errs.push(fieldErr.required(`${path}.image`));
  const tmp = c.terminationMessagePolicy;
  if (!tmp) errs.push(fieldErr.required(`${path}.terminationMessagePolicy`));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    errs.push(fieldErr.notSupported(`${path}.terminationMessagePolicy`, tmp, ['File', 'FallbackToLogsOnError']));
  }
  errs.push(...validateContainerPorts(c.ports, `${path}.ports`));
  errs.push(...validateEnv(c.env, `${path}.env`));
  errs.push(...validateEnvFrom(c.envFrom, `${path}.envFrom`));
  errs.push(...validateVolumeMounts(c.volumeMounts, volumes, `${path}.volumeMounts`));
  errs.push(...validatePullPolicy(c.imagePullPolicy, `${path}.imagePullPolicy`));
  errs.push(...validateResourceRequirements(c.resources as Parameters<typeof validateResourceRequirements>[0], `${path}.resources`));
  return errs;
}

/** checkHostPortConflicts: a hostIP/protocol/hostPort triple may be used once per pod. */
function checkHostPortConflicts(containers: Container[], path: string, seen: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => (c.ports ?? []).forEach((p, pi) => {
    if (!p.hostPort) return;
    const key = `${p.hostIP ?? ''}/${p.protocol ?? ''}/${p.hostPort}`;
    if (seen.has(key)) errs.push(fieldErr.duplicate(`${path}[${ci}].ports[${pi}].hostPort`, key));
    seen.add(key);
  }));
  return errs;
}

/** validateContainers: at least one, unique names, probes. */
export function validateContainers(containers: Container[] | undefined, volumes: Set<string>, path: string): FieldError[] {
  if (!containers || containers.length === 0) return [fieldErr.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const at = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, at));
    if (names.has(c.name)) errs.push(fieldErr.duplicate(`${at}.name`, c.name));
    else names.add(c.name);
    errs.push(...validateProbe(c.livenessProbe, `${at}.livenessProbe`));
    if (c.livenessProbe && (c.livenessProbe.successThreshold ?? 1) !== 1) {
      errs.push(fieldErr.invalid(`${at}.livenessProbe.successThreshold`, c.livenessProbe.successThreshold, 'must be 1'));
    }
    errs.push(...validateProbe(c.readinessProbe, `${at}.readinessProbe`));
    errs.push(...validateProbe(c.startupProbe, `${at}.startupProbe`));
    if (c.startupProbe && (c.startupProbe.successThreshold ?? 1) !== 1) {
      errs.push(fieldErr.invalid(`${at}.startupProbe.successThreshold`, c.startupProbe.successThreshold, 'must be 1'));
    }
  });
  errs.push(...checkHostPortConflicts(containers, path, new Set()));
  return errs;
}

/** validateInitContainers: names must also differ from the regular containers'. */
export function validateInitContainers(inits: Container[] | undefined, regular: Container[] | undefined, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set((regular ?? []).map((c) => c.name));
  (inits ?? []).forEach((c, i) => {
    const at = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, at));
    if (names.has(c.name)) errs.push(fieldErr.duplicate(`${at}.name`, c.name));
    else names.add(c.name);
    // Regular (non-sidecar) init containers run to completion, so these probes make no sense on them.
    if (c.restartPolicy !== 'Always') {
      if (c.livenessProbe) errs.push(fieldErr.forbidden(`${at}.livenessProbe`, 'may not be set for init containers without restartPolicy=Always'));
      if (c.readinessProbe) errs.push(fieldErr.forbidden(`${at}.readinessProbe`, 'may not be set for init containers without restartPolicy=Always'));
      if (c.startupProbe) errs.push(fieldErr.forbidden(`${at}.startupProbe`, 'may not be set for init containers without restartPolicy=Always'));
    }
  });
  if (inits?.length) errs.push(...checkHostPortConflicts(inits, path, new Set()));
  return errs;
}
