// networking.k8s.io/v1 validation essentials with kube's paths and messages (pkg/apis/networking/validation/
// validation.go): NetworkPolicy, Ingress, IngressClass, IPAddress and ServiceCIDR.

import { isIP } from 'node:net';
import type { HTTPIngressPath, Ingress, IngressBackend, IngressClass, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort, NetworkPolicySpec } from 'kubernetes-types/networking/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import type { ObjectMeta } from '../types.js';
import { INVALID_CIDR, parseAnyCidr, strictSubset } from './cidr.js';
import { validateDomainPrefixedPath } from './domain-path.js';
import { validateLabelSelector } from './labels.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortName, isValidPortNum, nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta } from './object-meta.js';

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const MAX_CONTROLLER_LENGTH = 250;

/** The parts of ServiceCIDR/IPAddress that kubernetes-types does not describe yet (networking/v1 in 1.33). */
export interface ServiceCIDR { metadata?: ObjectMeta; spec?: { cidrs?: string[] }; status?: unknown }
export interface IPAddress { metadata?: ObjectMeta; spec?: { parentRef?: { group?: string; resource?: string; namespace?: string; name?: string } } }

function validatePort(p: NetworkPolicyPort, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.protocol != null && !PROTOCOLS.includes(p.protocol)) errs.push(fieldErr.notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  if (p.port == null) {
    if (p.endPort != null) errs.push(fieldErr.invalid(`${path}.endPort`, p.endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof p.port === 'number') {
    for (const m of isValidPortNum(p.port)) errs.push(fieldErr.invalid(`${path}.port`, p.port, m));
    if (p.endPort != null) {
      if (p.endPort < p.port) errs.push(fieldErr.invalid(`${path}.endPort`, p.port, 'must be greater than or equal to `port`'));
      for (const m of isValidPortNum(p.endPort)) errs.push(fieldErr.invalid(`${path}.endPort`, p.endPort, m));
    }
  } else {
    if (p.endPort != null) errs.push(fieldErr.invalid(`${path}.endPort`, p.endPort, 'may not be specified when `port` is non-numeric'));
    for (const m of isValidPortName(p.port)) errs.push(fieldErr.invalid(`${path}.port`, p.port, m));
  }
  return errs;
}

function validatePeer(peer: NetworkPolicyPeer, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  if (peer.podSelector) { n++; errs.push(...validateLabelSelector(peer.podSelector, `${path}.podSelector`)); }
  if (peer.namespaceSelector) { n++; errs.push(...validateLabelSelector(peer.namespaceSelector, `${path}.namespaceSelector`)); }
  if (peer.ipBlock) {
    n++;
    const b = peer.ipBlock;
    if (!b.cidr) errs.push(fieldErr.required(`${path}.ipBlock.cidr`));
    else {
      const outer = parseAnyCidr(b.cidr);
      if (!outer) errs.push(fieldErr.invalid(`${path}.ipBlock.cidr`, b.cidr, INVALID_CIDR));
      else (b.except ?? []).forEach((e, i) => {
        const inner = parseAnyCidr(e);
        if (!inner) errs.push(fieldErr.invalid(`${path}.ipBlock.except[${i}]`, e, INVALID_CIDR));
        else if (!strictSubset(outer, inner)) errs.push(fieldErr.invalid(`${path}.ipBlock.except[${i}]`, e, 'must be a strict subset of `cidr`'));
      });
    }
  }
  if (n === 0) errs.push(fieldErr.required(path, 'must specify a peer'));
  else if (n > 1 && peer.ipBlock) errs.push(fieldErr.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

export function validateNetworkPolicy(np: NetworkPolicy): FieldError[] {
  const errs = validateObjectMeta(meta(np), nameIsDNSSubdomain);
  const s: Partial<NetworkPolicySpec> = np.spec ?? {};
  errs.push(...validateLabelSelector(s.podSelector ?? {}, 'spec.podSelector'));
  (s.ingress ?? []).forEach((r, i) => {
    (r.ports ?? []).forEach((p, j) => errs.push(...validatePort(p, `spec.ingress[${i}].ports[${j}]`)));
    (r.from ?? []).forEach((p, j) => errs.push(...validatePeer(p, `spec.ingress[${i}].from[${j}]`)));
  });
  (s.egress ?? []).forEach((r, i) => {
    (r.ports ?? []).forEach((p, j) => errs.push(...validatePort(p, `spec.egress[${i}].ports[${j}]`)));
    (r.to ?? []).forEach((p, j) => errs.push(...validatePeer(p, `spec.egress[${i}].to[${j}]`)));
  });
  const types = s.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) errs.push(fieldErr.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
  else types.forEach((t, i) => { if (!POLICY_TYPES.includes(t)) errs.push(fieldErr.notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES)); });
  return errs;
}

/** IsWildcardDNS1123Subdomain or IsDNS1123Subdomain, and never an IP address (validateIngressRules). */
function validateHost(host: string, path: string): FieldError[] {
  if (isIP(host)) return [fieldErr.invalid(path, host, 'must be a DNS name, not an IP address')];
  if (host.startsWith('*.')) {
    const rest = host.slice(2);
    if (isDNS1123Subdomain(rest).length || rest.includes('*')) {
      return [fieldErr.invalid(path, host, "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")];
    }
    return [];
  }
  return isDNS1123Subdomain(host).map((m) => fieldErr.invalid(path, host, m));
}

function validateBackend(b: IngressBackend, path: string): FieldError[] {
  const hasService = !!b.service, hasResource = !!b.resource;
  if (hasService && hasResource) return [fieldErr.invalid(path, '', 'cannot set both resource and service backends')];
  if (!hasService && !hasResource) return [fieldErr.invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  if (hasResource) {
    if (!b.resource!.kind) errs.push(fieldErr.required(`${path}.resource.kind`));
    if (!b.resource!.name) errs.push(fieldErr.required(`${path}.resource.name`));
    return errs;
  }
  const svc = b.service!;
  if (!svc.name) errs.push(fieldErr.required(`${path}.service.name`));
  else for (const m of isDNS1035Label(svc.name)) errs.push(fieldErr.invalid(`${path}.service.name`, svc.name, m));
  const port = svc.port ?? {};
  const hasName = !!port.name, hasNumber = port.number != null && port.number !== 0;
  if (hasName && hasNumber) errs.push(fieldErr.invalid(`${path}.service.port`, port, 'cannot set both port name & port number'));
  else if (hasName) for (const m of isValidPortName(port.name!)) errs.push(fieldErr.invalid(`${path}.service.port.name`, port.name, m));
  else if (hasNumber) for (const m of isValidPortNum(port.number!)) errs.push(fieldErr.invalid(`${path}.service.port.number`, port.number, m));
  else errs.push(fieldErr.required(`${path}.service.port`, 'port name or number is required'));
  return errs;
}

function validatePath(p: HTTPIngressPath, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const value = p.path ?? '';
  if (!p.pathType) errs.push(fieldErr.required(`${path}.pathType`, 'pathType must be specified'));
  else if (p.pathType === 'Exact' || p.pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(fieldErr.invalid(`${path}.path`, value, 'must be an absolute path'));
    for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(fieldErr.invalid(`${path}.path`, value, `must not contain '${seq}'`));
    for (const suf of INVALID_PATH_SUFFIXES) if (value.endsWith(suf)) errs.push(fieldErr.invalid(`${path}.path`, value, `cannot end with '${suf}'`));
  } else if (p.pathType === 'ImplementationSpecific') {
    if (value && !value.startsWith('/')) errs.push(fieldErr.invalid(`${path}.path`, value, 'must be an absolute path'));
  } else {
    errs.push(fieldErr.notSupported(`${path}.pathType`, p.pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(p.backend ?? {}, `${path}.backend`));
  return errs;
}

export function validateIngress(ing: Ingress): FieldError[] {
  const errs = validateObjectMeta(meta(ing), nameIsDNSSubdomain);
  const s = ing.spec ?? {};
  if (!s.defaultBackend && !(s.rules ?? []).length) errs.push(fieldErr.invalid('spec', s.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  if (s.defaultBackend) errs.push(...validateBackend(s.defaultBackend, 'spec.defaultBackend'));
  (s.rules ?? []).forEach((r, i) => {
    const rp = `spec.rules[${i}]`;
    if (r.host) errs.push(...validateHost(r.host, `${rp}.host`));
    if (r.http) {
      if (!(r.http.paths ?? []).length) errs.push(fieldErr.required(`${rp}.http.paths`));
      (r.http.paths ?? []).forEach((p, j) => errs.push(...validatePath(p, `${rp}.http.paths[${j}]`)));
    }
  });
  (s.tls ?? []).forEach((t, i) => (t.hosts ?? []).forEach((h, j) => errs.push(...validateHost(h, `spec.tls[${i}].hosts[${j}]`))));
  if (s.ingressClassName != null) for (const m of isDNS1123Subdomain(s.ingressClassName)) errs.push(fieldErr.invalid('spec.ingressClassName', s.ingressClassName, m));
  return errs;
}

export function validateIngressClass(ic: IngressClass): FieldError[] {
  const errs = validateObjectMeta(meta(ic), nameIsDNSSubdomain);
  const s = ic.spec ?? {};
  if (s.controller != null) {
    if (s.controller.length > MAX_CONTROLLER_LENGTH) errs.push(fieldErr.tooLong('spec.controller', '', MAX_CONTROLLER_LENGTH));
    errs.push(...validateDomainPrefixedPath(s.controller, 'spec.controller'));
  } else {
    errs.push(fieldErr.required('spec.controller'));
  }
  const p = s.parameters;
  if (p) {
    if (!p.kind) errs.push(fieldErr.required('spec.parameters.kind'));
    if (!p.name) errs.push(fieldErr.required('spec.parameters.name'));
    const scope = p.scope;
    if (scope != null && scope !== 'Cluster' && scope !== 'Namespace') errs.push(fieldErr.notSupported('spec.parameters.scope', scope, ['Cluster', 'Namespace']));
    if (scope === 'Namespace' && !p.namespace) errs.push(fieldErr.required('spec.parameters.namespace', "`parameters.scope` is set to 'Namespace'"));
    if (scope === 'Cluster' && p.namespace) errs.push(fieldErr.forbidden('spec.parameters.namespace', "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

export function validateServiceCIDR(sc: ServiceCIDR): FieldError[] {
  const errs = validateObjectMeta(meta(sc), nameIsDNSSubdomain);
  const cidrs = sc.spec?.cidrs ?? [];
  // validateServiceCIDRSpec: the count first (and alone), then each CIDR, then one CIDR per family.
  if (!cidrs.length) return [...errs, fieldErr.required('spec.cidrs', 'at least one CIDR required')];
  if (cidrs.length > 2) return [...errs, fieldErr.invalid('spec.cidrs', sc.spec, 'may only hold up to 2 values')];
  const parsed = cidrs.map((c, i) => {
    const p = parseAnyCidr(c);
    if (!p) errs.push(fieldErr.invalid(`spec.cidrs[${i}]`, c, INVALID_CIDR));
    return p;
  });
  if (parsed.length === 2 && parsed[0] && parsed[1] && parsed[0].family === parsed[1].family) {
    errs.push(fieldErr.invalid('spec.cidrs', cidrs, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'));
  }
  return errs;
}

/** ValidateIPAddressName: the name is the IP address in canonical form; parentRef names what holds it. */
export function validateIPAddress(ip: IPAddress): FieldError[] {
  const errs = validateObjectMeta(meta(ip), () => []);
  const name = ip.metadata?.name ?? '';
  if (!isIP(name)) errs.push(fieldErr.invalid('metadata.name', name, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  const ref = ip.spec?.parentRef;
  if (!ref) errs.push(fieldErr.required('spec.parentRef'));
  else {
    if (!ref.resource) errs.push(fieldErr.required('spec.parentRef.resource'));
    if (!ref.name) errs.push(fieldErr.required('spec.parentRef.name'));
  }
  return errs;
}
