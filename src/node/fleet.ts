// The fleet file (YAML or JSON): which emulated nodes a node agent hosts. Parsing validates every field and names
// the bad one in kube's field-error style, e.g. `nodes[2].windowsBuild: Unsupported value: "10.0.1": ...`.

import { parse as parseYaml } from 'yaml';
import { fieldErr, type FieldError } from '../api/errors.js';
import { checkEnum, checkEviction, checkFeatureGates, checkResources, checkStringList, checkStringMap, checkTaints } from './fleet-checks.js';
import { linuxControlPlaneError, windowsControlPlaneErrors } from './fleet-support.js';
import { parseCidr } from '../network/ipam/cidr.js';
import { parseCidr6 } from '../network/ipam/cidr6.js';
import { parseNetworkProfile } from '../network/profile-parse.js';
import {
  addressesFor, DEFAULT_ADDRESSING, linuxProfile, type NodeAddresses, runtimeVersion, WINDOWS_RELEASES, windowsProfile, type Addressing,
} from './fleet-defaults.js';
import { DEFAULT_KUBELET_VERSION, WINDOWS_PRIORITY_CLASSES, windowsKernelVersion, type NodeProfile } from './profile.js';
import { CSI_PROXY_VERSIONS, NO_CSI_PROXY } from '../csi/csi-proxy.js';

export const FLEET_API_VERSION = 'winkube.io/v1alpha1';
export const FLEET_KIND = 'NodeFleet';
/** Upper bound on one entry's `count`, so a typo cannot ask one process for a million nodes. */
export const MAX_COUNT = 10_000;

export class FleetError extends Error {
  constructor(readonly errors: FieldError[], source = 'fleet') {
    super(`invalid ${source}: ${errors.map((e) => e.toString()).join('; ')}`);
    this.name = 'FleetError';
  }
}

const TOP_FIELDS = new Set(['apiVersion', 'kind', 'addressing', 'nodes']);
const NODE_FIELDS = new Set([
  'name', 'count', 'os', 'arch', 'windowsBuild', 'windowsUBR', 'osImage', 'kernelVersion', 'kubeletVersion',
  'containerRuntime', 'containerRuntimeVersion', 'isolation', 'capacity', 'kubeReserved', 'systemReserved',
  'evictionHard', 'labels', 'taints', 'roles', 'podCIDR', 'internalIP', 'preloadedImages', 'sandboxImage', 'windowsPriorityClass',
  'featureGates', 'network', 'csiProxy', 'flexVolumeDrivers',
]);
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How the fleet is used. */
export interface FleetOptions {
  /**
   * The fleet is the whole cluster (`winkube up`), so it needs a Linux node for the control plane; false for nodes
   * joined to a cluster whose control plane runs elsewhere. Default true.
   */
  hostsControlPlane?: boolean;
}

/** Parses a fleet document (YAML is a superset of JSON, so one parser reads both). Throws FleetError. */
export function parseFleet(text: string, source = 'fleet', opts: FleetOptions = {}): NodeProfile[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new FleetError([fieldErr.invalid('<document>', '', `not YAML or JSON: ${(err as Error).message}`)], source);
  }
  return fleetFromObject(doc, source, opts);
}

export function fleetFromObject(doc: unknown, source = 'fleet', opts: FleetOptions = {}): NodeProfile[] {
  const errs: FieldError[] = [];
  if (!isObj(doc)) throw new FleetError([fieldErr.invalid('<document>', doc, 'must be a mapping')], source);
  for (const k of Object.keys(doc)) if (!TOP_FIELDS.has(k)) errs.push(fieldErr.notSupported(k, k, [...TOP_FIELDS]));
  if (doc.apiVersion !== undefined && doc.apiVersion !== FLEET_API_VERSION) errs.push(fieldErr.notSupported('apiVersion', doc.apiVersion, [FLEET_API_VERSION]));
  if (doc.kind !== undefined && doc.kind !== FLEET_KIND) errs.push(fieldErr.notSupported('kind', doc.kind, [FLEET_KIND]));
  const addressing = readAddressing(doc.addressing, errs);
  if (!Array.isArray(doc.nodes) || doc.nodes.length === 0) {
    errs.push(fieldErr.required('nodes', 'at least one node entry'));
    throw new FleetError(errs, source);
  }
  const out: NodeProfile[] = [];
  doc.nodes.forEach((entry, i) => readEntry(entry, `nodes[${i}]`, out, addressing, errs));
  const seen = new Map<string, number>();
  out.forEach((p, i) => {
    if (seen.has(p.name)) errs.push(fieldErr.duplicate(`nodes[name=${p.name}]`, p.name));
    seen.set(p.name, i);
  });
  const noLinux = opts.hostsControlPlane === false || errs.length ? undefined : linuxControlPlaneError(out);
  if (noLinux) errs.push(noLinux);
  if (errs.length) throw new FleetError(errs, source);
  return out;
}

function readAddressing(v: unknown, errs: FieldError[]): Addressing {
  if (v === undefined) return DEFAULT_ADDRESSING;
  if (!isObj(v)) {
    errs.push(fieldErr.invalid('addressing', v, 'must be a mapping'));
    return DEFAULT_ADDRESSING;
  }
  const a = { ...DEFAULT_ADDRESSING };
  for (const [k, val] of Object.entries(v)) {
    if (k === 'clusterCIDR' || k === 'nodeNetwork') {
      // kube-controller-manager --cluster-cidr style: one CIDR, or an IPv4 and an IPv6 one for dual stack.
      const parts = String(val).split(',').map((x) => x.trim());
      const v4 = parts.filter((x) => !x.includes(':'));
      const v6 = parts.filter((x) => x.includes(':'));
      if (parts.length > 2 || v4.length !== 1 || v6.length > 1) {
        errs.push(fieldErr.invalid(`addressing.${k}`, val, v4.length === 0 ? 'an IPv4 CIDR is required: IPv6-only single stack is not supported on Windows (seed 002 "IPv6 networking")' : 'must be one CIDR, or an IPv4 and an IPv6 CIDR separated by a comma'));
        continue;
      }
      try {
        parseCidr(v4[0]);
        if (v6[0]) parseCidr6(v6[0]);
        a[k] = v4[0];
        if (v6[0]) a[k === 'clusterCIDR' ? 'clusterCIDRv6' : 'nodeNetworkv6'] = v6[0];
      } catch (err) {
        errs.push(fieldErr.invalid(`addressing.${k}`, val, (err as Error).message));
      }
    } else if (k === 'nodeCIDRMaskSize') {
      if (typeof val !== 'number' || !Number.isInteger(val) || val < 8 || val > 30) errs.push(fieldErr.invalid('addressing.nodeCIDRMaskSize', val, 'must be an integer between 8 and 30'));
      else a.nodeCIDRMaskSize = val;
    } else if (k === 'nodeCIDRMaskSizeIPv6') {
      if (typeof val !== 'number' || !Number.isInteger(val) || val < 48 || val > 120) errs.push(fieldErr.invalid('addressing.nodeCIDRMaskSizeIPv6', val, 'must be an integer between 48 and 120'));
      else a.nodeCIDRMaskSizeIPv6 = val;
    } else {
      errs.push(fieldErr.notSupported(`addressing.${k}`, k, ['clusterCIDR', 'nodeCIDRMaskSize', 'nodeCIDRMaskSizeIPv6', 'nodeNetwork']));
    }
  }
  return a;
}

function readEntry(entry: unknown, path: string, out: NodeProfile[], addressing: Addressing, errs: FieldError[]): void {
  if (!isObj(entry)) {
    errs.push(fieldErr.invalid(path, entry, 'must be a mapping'));
    return;
  }
  const before = errs.length;
  for (const k of Object.keys(entry)) if (!NODE_FIELDS.has(k)) errs.push(fieldErr.notSupported(`${path}.${k}`, k, [...NODE_FIELDS]));
  const name = entry.name;
  if (typeof name !== 'string' || !name) errs.push(fieldErr.required(`${path}.name`));
  else if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) errs.push(fieldErr.invalid(`${path}.name`, name, 'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character'));
  const count = entry.count ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_COUNT) errs.push(fieldErr.invalid(`${path}.count`, count, `must be an integer between 1 and ${MAX_COUNT}`));
  const os = entry.os ?? 'linux';
  if (os !== 'linux' && os !== 'windows') errs.push(fieldErr.notSupported(`${path}.os`, os, ['linux', 'windows']));
  const build = entry.windowsBuild;
  if (os === 'windows' && build === undefined) errs.push(fieldErr.required(`${path}.windowsBuild`, 'Windows nodes need a build, e.g. 10.0.17763'));
  if (os === 'windows' && build !== undefined && !(typeof build === 'string' && build in WINDOWS_RELEASES)) errs.push(fieldErr.notSupported(`${path}.windowsBuild`, build, Object.keys(WINDOWS_RELEASES)));
  if (os === 'linux' && build !== undefined) errs.push(fieldErr.forbidden(`${path}.windowsBuild`, 'may not be set for a linux node'));
  if (entry.windowsUBR !== undefined && !(Number.isInteger(entry.windowsUBR) && (entry.windowsUBR as number) >= 0)) errs.push(fieldErr.invalid(`${path}.windowsUBR`, entry.windowsUBR, 'must be a non-negative integer'));
  checkEnum(entry, 'arch', os === 'windows' ? ['amd64'] : ['amd64', 'arm64'], path, errs);
  checkEnum(entry, 'containerRuntime', ['containerd', 'docker'], path, errs);
  checkEnum(entry, 'isolation', os === 'windows' ? ['process', 'hyperv'] : ['process'], path, errs);
  if (entry.windowsPriorityClass !== undefined) {
    if (os !== 'windows') errs.push(fieldErr.forbidden(`${path}.windowsPriorityClass`, 'only Windows kubelets take --windows-priorityclass'));
    else checkEnum(entry, 'windowsPriorityClass', WINDOWS_PRIORITY_CLASSES, path, errs);
  }
  for (const f of ['osImage', 'kernelVersion', 'containerRuntimeVersion', 'sandboxImage'] as const) {
    if (entry[f] !== undefined && (typeof entry[f] !== 'string' || !entry[f])) errs.push(fieldErr.invalid(`${path}.${f}`, entry[f], 'must be a non-empty string'));
  }
  if (entry.kubeletVersion !== undefined && !(typeof entry.kubeletVersion === 'string' && /^v1\.\d+\.\d+$/.test(entry.kubeletVersion))) errs.push(fieldErr.invalid(`${path}.kubeletVersion`, entry.kubeletVersion, 'must look like v1.33.1'));
  for (const f of ['capacity', 'kubeReserved', 'systemReserved'] as const) checkResources(entry[f], `${path}.${f}`, errs);
  checkEviction(entry.evictionHard, `${path}.evictionHard`, errs);
  checkStringMap(entry.labels, `${path}.labels`, errs);
  checkTaints(entry.taints, `${path}.taints`, errs);
  checkStringList(entry.roles, `${path}.roles`, errs);
  if (os === 'windows') errs.push(...windowsControlPlaneErrors(entry, path));
  checkFeatureGates(entry.featureGates, typeof entry.kubeletVersion === 'string' ? entry.kubeletVersion : DEFAULT_KUBELET_VERSION, `${path}.featureGates`, errs);
  checkStringList(entry.preloadedImages, `${path}.preloadedImages`, errs);
  checkStringList(entry.flexVolumeDrivers, `${path}.flexVolumeDrivers`, errs);
  if (entry.csiProxy !== undefined) {
    if (os !== 'windows') errs.push(fieldErr.forbidden(`${path}.csiProxy`, 'csi-proxy runs on Windows nodes only'));
    else checkEnum(entry, 'csiProxy', [...CSI_PROXY_VERSIONS, NO_CSI_PROXY], path, errs);
  }
  if ((entry.podCIDR !== undefined || entry.internalIP !== undefined) && count !== 1) errs.push(fieldErr.forbidden(`${path}.podCIDR`, 'podCIDR and internalIP may only be set when count is 1'));
  if (entry.podCIDR !== undefined) {
    try { parseCidr(String(entry.podCIDR)); } catch (err) { errs.push(fieldErr.invalid(`${path}.podCIDR`, entry.podCIDR, (err as Error).message)); }
  }
  if (entry.internalIP !== undefined && !/^(\d{1,3}\.){3}\d{1,3}$/.test(String(entry.internalIP))) errs.push(fieldErr.invalid(`${path}.internalIP`, entry.internalIP, 'must be an IPv4 address'));
  if (entry.network !== undefined && (os === 'linux' || os === 'windows')) parseNetworkProfile(entry.network, `${path}.network`, os, errs);
  if (errs.length > before) return;

  const n = count as number;
  for (let k = 1; k <= n; k++) {
    const nodeName = n === 1 ? (name as string) : `${name}-${k}`;
    const index = out.length;
    let addr: NodeAddresses;
    try {
      addr = addressesFor(index, addressing);
    } catch (err) {
      errs.push(fieldErr.invalid(`${path}.count`, count, (err as Error).message));
      return;
    }
    out.push(buildProfile(entry, os as 'linux' | 'windows', nodeName, index, addr));
  }
}

function buildProfile(e: Obj, os: 'linux' | 'windows', name: string, index: number, addr: NodeAddresses): NodeProfile {
  const over: Partial<NodeProfile> = { ...addr };
  const copy = <K extends keyof NodeProfile>(k: K) => { if (e[k] !== undefined) (over as Record<string, unknown>)[k] = e[k]; };
  for (const k of ['arch', 'osImage', 'kernelVersion', 'kubeletVersion', 'containerRuntime', 'isolation', 'labels', 'taints', 'roles', 'podCIDR', 'internalIP', 'preloadedImages', 'windowsUBR', 'sandboxImage', 'windowsPriorityClass', 'featureGates', 'csiProxy', 'flexVolumeDrivers'] as const) copy(k);
  if (e.containerRuntime !== undefined && e.containerRuntimeVersion === undefined) over.containerRuntimeVersion = runtimeVersion(e.containerRuntime as 'containerd' | 'docker');
  copy('containerRuntimeVersion');
  const base = os === 'windows' ? windowsProfile(name, index, e.windowsBuild as string, over) : linuxProfile(name, index, over);
  // Resource maps merge over the defaults so a file can change only memory.
  for (const k of ['capacity', 'kubeReserved', 'systemReserved', 'evictionHard'] as const) {
    if (isObj(e[k])) base[k] = { ...base[k], ...(e[k] as Record<string, string>) };
  }
  if (os === 'windows' && e.kernelVersion === undefined) base.kernelVersion = windowsKernelVersion(base.windowsBuild!, base.windowsUBR!);
  // Validated in readEntry; parsed again here so each node of the entry gets its own profile object.
  if (e.network !== undefined) base.network = parseNetworkProfile(e.network, 'network', os, []);
  return base;
}
