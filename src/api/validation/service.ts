// Service validation: type, ports, selector, session affinity, cluster IPs and traffic policies, and what an
// update may not change (kubernetes pkg/apis/core/validation/validation.go ValidateService, ValidateServiceUpdate,
// ValidateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs).

import { isIP } from 'node:net';
import type { Service, ServicePort } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { validateLabels } from './labels.js';
import type { ObjectMeta } from '../types.js';
import { SUPPORTED_PORT_PROTOCOLS, validateDNS1123Label } from './containers.js';
import { goStrings, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { isDNS1123Subdomain, isValidPortName, isValidPortNum, nameIsDNS1035Label } from './names.js';

export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

const isHeadless = (s: Service) => s.spec?.clusterIP === 'None';

/** validateServicePort. */
function validateServicePort(p: ServicePort, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !p.name) errs.push(fieldErr.required(`${path}.name`));
  else if (p.name) {
    errs.push(...validateDNS1123Label(p.name, `${path}.name`));
    if (names.has(p.name)) errs.push(fieldErr.duplicate(`${path}.name`, p.name));
    else names.add(p.name);
  }
  for (const m of isValidPortNum(p.port)) errs.push(fieldErr.invalid(`${path}.port`, p.port ?? 0, m));
  if (!p.protocol) errs.push(fieldErr.required(`${path}.protocol`));
  else if (!SUPPORTED_PORT_PROTOCOLS.includes(p.protocol)) errs.push(fieldErr.notSupported(`${path}.protocol`, p.protocol, SUPPORTED_PORT_PROTOCOLS));
  const tp = p.targetPort;
  if (typeof tp === 'number') for (const m of isValidPortNum(tp)) errs.push(fieldErr.invalid(`${path}.targetPort`, tp, m));
  else if (typeof tp === 'string') for (const m of isValidPortName(tp)) errs.push(fieldErr.invalid(`${path}.targetPort`, tp, m));
  return errs;
}

/** ValidateServiceClusterIPsRelatedFields (the single-cluster subset). */
function validateClusterIPs(s: Service): FieldError[] {
  const spec = s.spec ?? {};
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips = spec.clusterIPs ?? [];
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(fieldErr.required('spec.clusterIPs'));
    else if (ips[0] !== spec.clusterIP) errs.push(fieldErr.invalid('spec.clusterIPs', goStrings(ips), 'first value must match `clusterIP`'));
  } else if (ips.length) {
    errs.push(fieldErr.invalid('spec.clusterIPs', goStrings(ips), 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(fieldErr.notSupported(`spec.ipFamilies[${i}]`, f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(fieldErr.duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && !['PreferDualStack', 'RequireDualStack', 'SingleStack'].includes(policy)) {
    errs.push(fieldErr.notSupported('spec.ipFamilyPolicy', policy, ['PreferDualStack', 'RequireDualStack', 'SingleStack']));
  }
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) errs.push(fieldErr.invalid('spec.clusterIPs', goStrings(ips), "'None' must be the first and only value"));
      return;
    }
    if (!isIP(ip)) errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, ip, INVALID_IP));
  });
  return errs;
}

/** ValidateService. */
export function validateService(s: Service): FieldError[] {
  const errs = validateObjectMeta(s.metadata as ObjectMeta, nameIsDNS1035Label);
  const spec = s.spec ?? {};
  const ports = spec.ports ?? [];
  if (ports.length === 0 && !isHeadless(s) && spec.type !== 'ExternalName') errs.push(fieldErr.required('spec.ports'));
  switch (spec.type) {
    case 'LoadBalancer': case 'NodePort':
      if (isHeadless(s)) errs.push(fieldErr.invalid('spec.clusterIPs[0]', spec.clusterIPs?.[0] ?? 'None', `may not be set to 'None' for ${spec.type} services`));
      break;
    case 'ExternalName': {
      if (spec.clusterIPs?.length) errs.push(fieldErr.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      if (spec.ipFamilies?.length) errs.push(fieldErr.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined) errs.push(fieldErr.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
      const cname = (spec.externalName ?? '').replace(/\.$/, '');
      if (cname) for (const m of isDNS1123Subdomain(cname)) errs.push(fieldErr.invalid('spec.externalName', cname, m));
      else errs.push(fieldErr.required('spec.externalName'));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`)));
  if (spec.selector) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  const aff = spec.sessionAffinity;
  if (!aff) errs.push(fieldErr.required('spec.sessionAffinity'));
  else if (aff !== 'ClientIP' && aff !== 'None') errs.push(fieldErr.notSupported('spec.sessionAffinity', aff, ['ClientIP', 'None']));
  if (aff === 'ClientIP') {
    const t = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    if (t === undefined) errs.push(fieldErr.required('spec.sessionAffinityConfig.clientIP.timeoutSeconds', 'when session affinity type is ClientIP'));
    else if (t <= 0 || t > 86400) errs.push(fieldErr.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', t, 'must be greater than 0 and less than 86400'));
  } else if (aff === 'None' && spec.sessionAffinityConfig) {
    errs.push(fieldErr.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPs(s));
  (spec.externalIPs ?? []).forEach((ip, i) => {
    if (!isIP(ip)) errs.push(fieldErr.invalid(`spec.externalIPs[${i}]`, ip, INVALID_IP));
  });
  if (!spec.type) errs.push(fieldErr.required('spec.type'));
  else if (!SERVICE_TYPES.includes(spec.type)) errs.push(fieldErr.notSupported('spec.type', spec.type, SERVICE_TYPES));
  if (spec.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort) errs.push(fieldErr.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    if (p.nodePort) {
      const k = `${p.protocol}/${p.nodePort}`;
      if (nodePorts.has(k)) errs.push(fieldErr.duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
      nodePorts.add(k);
    }
    const k = `${p.protocol}/${p.port}`;
    if (portKeys.has(k)) errs.push(fieldErr.duplicate(`spec.ports[${i}]`, { port: p.port, protocol: p.protocol }));
    portKeys.add(k);
  });
  const etp = spec.externalTrafficPolicy;
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') {
    if (!etp) errs.push(fieldErr.required('spec.externalTrafficPolicy'));
  } else if (etp) {
    errs.push(fieldErr.invalid('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
  }
  if (etp && etp !== 'Cluster' && etp !== 'Local') errs.push(fieldErr.notSupported('spec.externalTrafficPolicy', etp, ['Cluster', 'Local']));
  const itp = spec.internalTrafficPolicy;
  if (itp === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type ?? '')) errs.push(fieldErr.required('spec.internalTrafficPolicy'));
  if (itp !== undefined && itp !== 'Cluster' && itp !== 'Local') errs.push(fieldErr.notSupported('spec.internalTrafficPolicy', itp, ['Cluster', 'Local']));
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary cluster IP never changes once set. */
function validateClusterIPUpdate(s: Service, old: Service): FieldError[] {
  if (s.spec?.type === 'ExternalName' || old.spec?.type === 'ExternalName') return [];
  if (isHeadless(s) && isHeadless(old)) return [];
  const next = s.spec?.clusterIPs ?? [];
  const prev = old.spec?.clusterIPs ?? [];
  const errs: FieldError[] = [];
  const bad = (detail: string) => fieldErr.invalid('spec.clusterIPs[0]', goStrings(next), detail);
  if (prev.length === next.length) {
    prev.forEach((ip, i) => {
      if (ip !== next[i]) errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, goStrings(next), 'may not change once set'));
    });
  } else if (prev.length > next.length) {
    if (next.length === 0) errs.push(bad('primary clusterIP can not be unset'));
    if (prev.length > 0 && next.length > 0 && next[0] !== prev[0]) errs.push(bad('may not change once set'));
    if (next.length === 1 && s.spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push(bad("`ipFamilyPolicy` must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (prev.length > 0 && next[0] !== prev[0]) {
    errs.push(bad('may not change once set'));
  }
  return errs;
}

/** ValidateServiceUpdate. */
export function validateServiceUpdate(s: Service, old: Service): FieldError[] {
  const errs = validateObjectMetaUpdate(s.metadata as ObjectMeta, old.metadata as ObjectMeta);
  errs.push(...validateClusterIPUpdate(s, old));
  const fam = s.spec?.ipFamilies ?? [];
  const oldFam = old.spec?.ipFamilies ?? [];
  if (s.spec?.type !== 'ExternalName' && old.spec?.type !== 'ExternalName' && oldFam.length && fam.length && fam[0] !== oldFam[0]) {
    errs.push(fieldErr.invalid('spec.ipFamilies[0]', goStrings(fam), 'may not change once set'));
  }
  errs.push(...validateService(s).filter((e) => !e.field.startsWith('metadata.')));
  return errs;
}
