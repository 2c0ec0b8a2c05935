// Service validation: type, ports, selector, session affinity, cluster IPs and traffic policies, and what an
// update may not change (kubernetes pkg/apis/core/validation/validation.go ValidateService, ValidateServiceUpdate,
// ValidateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs, validateUpgradeDowngradeIPFamilies).

import { isIP, isIPv6 } from 'node:net';
import type { Service, ServicePort } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { validateLabels } from './labels.js';
import type { ObjectMeta } from '../types.js';
import { SUPPORTED_PORT_PROTOCOLS, validateDNS1123Label } from './containers.js';
import { GoValue } from './go-value.js';
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

const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

/** isHeadlessService: clusterIPs is exactly ["None"]. */
const headlessByIPs = (s: Service | undefined) => s?.spec?.clusterIPs?.length === 1 && s.spec.clusterIPs[0] === 'None';

/** spec.ipFamilies as kube prints it: the internal type's []core.IPFamily under %#v. */
export function goIPFamilies(v: string[] | undefined): GoValue {
  return new GoValue(v ?? null, v ? `[]core.IPFamily{${v.map((f) => JSON.stringify(f)).join(', ')}}` : '[]core.IPFamily(nil)');
}

/** spec.ipFamilyPolicy as kube prints it: a *IPFamilyPolicy, dereferenced, or "null" when unset. */
export function goPolicy(p: string | undefined | null): GoValue | string {
  return p ?? new GoValue(null, '"null"');
}

/**
 * ValidateServiceClusterIPsRelatedFields: clusterIP/clusterIPs in step, families and policy from their enums, at most
 * one valid IP per family, and each IP of the family its ipFamilies entry names. Exported: the IP family
 * initialisation runs it before it defaults anything (registry/core/service/storage/alloc.go initIPFamilyFields).
 */
export function validateServiceClusterIPsRelatedFields(s: Service): FieldError[] {
  const spec = s.spec ?? {};
  // ExternalName: every one of these must be unset, which validateService checks.
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
    if (!IP_FAMILIES.includes(f)) errs.push(fieldErr.notSupported(`spec.ipFamilies[${i}]`, f, IP_FAMILIES));
    // No duplicates also means at most one of each family, in either order.
    if (seen.has(f)) errs.push(fieldErr.duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && policy !== null && !IP_FAMILY_POLICIES.includes(policy)) {
    errs.push(fieldErr.notSupported('spec.ipFamilyPolicy', policy, IP_FAMILY_POLICIES));
  }
  let invalidIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalidIPs = true;
        errs.push(fieldErr.invalid('spec.clusterIPs', goStrings(ips), "'None' must be the first and only value"));
      }
      return;
    }
    if (!isIP(ip)) {
      invalidIPs = true;
      errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, ip, INVALID_IP));
    }
  });
  if (ips.length > 2) errs.push(fieldErr.invalid('spec.clusterIPs', goStrings(ips), 'may only hold up to 2 values'));
  // A bad or misplaced value would only skew the family checks below.
  if (invalidIPs) return errs;
  if (ips.length > 1) {
    // netutils.IsDualStackIPStrings: at least one address of each family.
    const v6 = ips.filter((ip) => isIPv6(ip)).length;
    if (v6 === 0 || v6 === ips.length) errs.push(fieldErr.invalid('spec.clusterIPs', goStrings(ips), 'may specify no more than one IP for each IP family'));
  }
  const fams = spec.ipFamilies ?? [];
  if (!headlessByIPs(s) && ips.length && fams.length) {
    for (let i = 0; i < ips.length && i < fams.length; i++) {
      if (fams[i] === 'IPv4' && isIPv6(ips[i])) errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, ips[i], `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (fams[i] === 'IPv6' && !isIPv6(ips[i])) errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, ips[i], `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    }
  }
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
  errs.push(...validateServiceClusterIPsRelatedFields(s));
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

/** validateUpgradeDowngradeClusterIPs: the primary ClusterIP never changes; dropping the secondary needs SingleStack. */
function validateUpgradeDowngradeClusterIPs(old: Service, s: Service): FieldError[] {
  if (s.spec?.type === 'ExternalName' || old.spec?.type === 'ExternalName') return [];
  if (headlessByIPs(s) && headlessByIPs(old)) return [];
  const next = s.spec?.clusterIPs;
  const n = next ?? [];
  const prev = old.spec?.clusterIPs ?? [];
  const errs: FieldError[] = [];
  const changed = () => fieldErr.invalid('spec.clusterIPs[0]', goStrings(next), 'may not change once set');
  if (prev.length === n.length) {
    prev.forEach((ip, i) => {
      if (ip !== n[i]) errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, goStrings(next), 'may not change once set'));
    });
  } else if (prev.length > n.length) {
    if (n.length === 0) errs.push(fieldErr.invalid('spec.clusterIPs[0]', goStrings(next), 'primary clusterIP can not be unset'));
    if (prev.length > 0 && n.length > 0 && n[0] !== prev[0]) errs.push(changed());
    if (n.length === 1 && s.spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErr.invalid('spec.ipFamilyPolicy', goPolicy(s.spec?.ipFamilyPolicy), "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (prev.length > 0 && n[0] !== prev[0]) {
    // Adding a secondary: RequireDualStack or PreferDualStack is checked when the families are initialised.
    errs.push(changed());
  }
  return errs;
}

/** validateUpgradeDowngradeIPFamilies: the primary family never changes; dropping the secondary needs SingleStack. */
function validateUpgradeDowngradeIPFamilies(old: Service, s: Service): FieldError[] {
  if (s.spec?.type === 'ExternalName' || old.spec?.type === 'ExternalName') return [];
  // To or from headless, and headless itself, may change families.
  if (headlessByIPs(s) || headlessByIPs(old)) return [];
  const next = s.spec?.ipFamilies;
  const n = next ?? [];
  const prev = old.spec?.ipFamilies ?? [];
  const errs: FieldError[] = [];
  // kube's own quirk: these two report the clusterIPs as the bad value.
  const changed = () => fieldErr.invalid('spec.ipFamilies[0]', goStrings(s.spec?.clusterIPs), 'may not change once set');
  if (prev.length === n.length) {
    prev.forEach((f, i) => {
      if (f !== n[i]) errs.push(fieldErr.invalid('spec.ipFamilies[0]', goIPFamilies(next), 'may not change once set'));
    });
  } else if (prev.length > n.length) {
    if (!s.spec?.clusterIPs?.length) errs.push(fieldErr.invalid('spec.ipFamilies[0]', goIPFamilies(next), 'primary ipFamily can not be unset'));
    if (n.length > 0 && n[0] !== prev[0]) errs.push(changed());
    if (n.length === 1 && s.spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErr.invalid('spec.ipFamilyPolicy', goPolicy(s.spec?.ipFamilyPolicy), "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (prev.length > 0 && n.length > 0 && n[0] !== prev[0]) {
    errs.push(changed());
  }
  return errs;
}

/** ValidateServiceUpdate. */
export function validateServiceUpdate(s: Service, old: Service): FieldError[] {
  const errs = validateObjectMetaUpdate(s.metadata as ObjectMeta, old.metadata as ObjectMeta);
  // Upgrading (adding the secondary clusterIP or family) and downgrading are allowed; changing the primary is not,
  // except to, from or on ExternalName.
  errs.push(...validateUpgradeDowngradeClusterIPs(old, s));
  errs.push(...validateUpgradeDowngradeIPFamilies(old, s));
  errs.push(...validateService(s).filter((e) => !e.field.startsWith('metadata.')));
  return errs;
}
