// What the seed editions say a fleet may be: the Windows OS ↔ Kubernetes version tables, the container runtimes of
// each era and the version-skew policy (pairs they do not list are warnings), and the Linux-only control plane
// (a fleet error).

import { fieldErr, type FieldError } from '../api/errors.js';
import { KUBERNETES_VERSION } from '../api/version.js';
import { KUBELET_GATES } from './feature-gates.js';
import { windowsReleaseName } from './fleet-defaults.js';
import { parseKubeVersion } from './kube-version.js';
import { buildNumber, type NodeProfile } from './profile.js';

/** One line `winkube up` prints: the node, the pair the editions do not list, and the section that says so. */
export interface FleetWarning {
  node: string;
  /** e.g. `Windows Server 2022 (10.0.20348) + kubelet v1.20.15`. */
  pair: string;
  message: string;
  /** The seed file and section (or the Kubernetes document) the rule comes from. */
  source: string;
}

/**
 * Windows OS version support by Kubernetes version, one row per edition table. A row applies from its version up to
 * the next row's, so v1.21 is judged by the v1.20 row and v1.33 by the v1.27 one.
 */
export const WINDOWS_OS_SUPPORT: readonly { since: number; builds: readonly string[]; source: string }[] = [
  // "Windows Server 2016 RTM or later. Windows Server version 1709 or later is preferred".
  { since: 9, builds: ['10.0.14393', '10.0.16299'], source: 'seed 004 "Prerequisites"' },
  { since: 17, builds: ['10.0.17763'], source: 'seed 001 "Windows OS Version Support"' },
  { since: 18, builds: ['10.0.17763', '10.0.18362', '10.0.18363'], source: 'seed 001 "Windows OS Version Support"' },
  { since: 19, builds: ['10.0.17763', '10.0.18363', '10.0.19041'], source: 'seed 001 "Windows OS Version Support"' },
  { since: 20, builds: ['10.0.17763', '10.0.18363', '10.0.19041'], source: 'seed 001 "Windows OS Version Support"' },
  { since: 22, builds: ['10.0.17763', '10.0.19041', '10.0.19042'], source: 'seed 002 "Windows OS version compatibility"' },
  { since: 27, builds: ['10.0.17763', '10.0.20348', '10.0.19042'], source: 'seed 003 "Windows OS version compatibility"' },
];

/** The API server's minor (winkube's control plane), for the skew policy. */
const API_SERVER_MINOR = parseKubeVersion(KUBERNETES_VERSION)!.minor;
/** Version Skew Policy (kubernetes.io/releases/version-skew-policy, since v1.28): kubelets up to three minors older. */
export const KUBELET_MAX_SKEW = 3;

function nums(v: string): number[] {
  return (/(\d+)\.(\d+)(?:\.(\d+))?/.exec(v) ?? []).slice(1, 4).map((x) => Number(x ?? 0));
}

function versionBelow(have: string, want: string): boolean {
  const a = nums(have);
  const b = nums(want);
  if (a.length === 0) return false;
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

function osWarning(p: NodeProfile, minor: number): Omit<FleetWarning, 'node' | 'pair'> | undefined {
  let row: (typeof WINDOWS_OS_SUPPORT)[number] | undefined;
  for (const r of WINDOWS_OS_SUPPORT) if (r.since <= minor) row = r;
  if (!row) return { message: `no edition lists Windows nodes before Kubernetes v1.9`, source: 'seed 004 "Prerequisites"' };
  if (row.builds.includes(p.windowsBuild ?? '')) return undefined;
  const listed = row.builds.map((b) => windowsReleaseName(b)).join(', ');
  return { message: `not in the Windows OS support table for Kubernetes v1.${row.since}, which lists ${listed}`, source: row.source };
}

/** The runtime eras of the editions, for Windows nodes (Linux nodes "can run any Kubernetes supported Docker Version"). */
function runtimeWarning(p: NodeProfile, minor: number): Omit<FleetWarning, 'node' | 'pair'> | undefined {
  const version = p.containerRuntimeVersion.replace(/^\w+:\/\//, '');
  if (p.containerRuntime === 'containerd') {
    const src = 'seed 001 "Container Runtime"; seed 003 "Container runtimes > ContainerD"';
    if (minor < 20) return { message: 'containerd is listed for Windows nodes from Kubernetes v1.20 (stable), not before', source: src };
    if (versionBelow(version, '1.4.0')) return { message: 'Windows nodes need containerd 1.4.0 or later', source: src };
    return undefined;
  }
  if (minor < 14) {
    const ee = /-ee-(\d+)/.exec(version);
    const tooOld = versionBelow(version, '17.6.1') || (!versionBelow(version, '17.6.1') && !versionBelow('17.6.1', version) && (!ee || Number(ee[1]) < 2));
    return tooOld ? { message: 'Windows nodes of v1.9 need Docker 17.06.1-ee-2 or later', source: 'seed 004 "Prerequisites"' } : undefined;
  }
  if (minor < 24) {
    return versionBelow(version, '19.3.0')
      ? { message: 'Windows nodes need Docker EE-basic 19.03 or later (through the kubelet\'s dockershim)', source: 'seed 001 "Container Runtime > Docker EE"; seed 002 "Docker EE"' }
      : undefined;
  }
  const ws2019OrLater = (buildNumber(p.windowsBuild) ?? 0) >= 17763;
  if (minor >= 27 && ws2019OrLater) return undefined;
  return {
    message: 'the kubelet has no dockershim from v1.24, so Docker runs only through cri-dockerd; the v1.27 edition lists Mirantis Container Runtime for Windows Server 2019 and later',
    source: 'seed 003 "Container runtimes > Mirantis Container Runtime"; KEP-2221 (dockershim removal, v1.24)',
  };
}

/**
 * CNI availability by era on Windows nodes: v1.9 has wincni (l2bridge) and OVN/OVS only ("Flannel and Weavenet are
 * not yet supported"); in the v1.17–1.20 edition flannel host-gw is stable and vxlan alpha (seed 004 "Networking",
 * "Known Limitations"; seed 001 "Network modes").
 */
function cniWarning(p: NodeProfile, minor: number): Omit<FleetWarning, 'node' | 'pair'> | undefined {
  const net = p.network;
  // Only a network the fleet names: a node without one gets winkube's default setup, whatever its era.
  if (!net) return undefined;
  const plugin = net.plugin;
  if (minor < 14 && !['wincni', 'ovn-k8s-cni-overlay', 'win-bridge'].includes(plugin)) {
    return { message: `${plugin} is not available for Windows nodes of this era: v1.9 lists wincni (l2bridge) and OVN/OVS; "Flannel and Weavenet are not yet supported"`, source: 'seed 004 "Networking", "Known Limitations"' };
  }
  if (minor >= 17 && minor <= 20 && plugin === 'flannel' && net.backend === 'vxlan') {
    return { message: 'flannel vxlan (overlay) is alpha for Windows in this era; host-gw is the stable backend', source: 'seed 001 "Network modes", "CNI Plugins"' };
  }
  return undefined;
}

/** Warnings for every pair the editions do not list, grouped by node in fleet order. */
export function fleetWarnings(profiles: readonly NodeProfile[]): FleetWarning[] {
  const out: FleetWarning[] = [];
  for (const p of profiles) {
    const v = parseKubeVersion(p.kubeletVersion);
    if (!v) continue;
    const kubelet = `kubelet ${p.kubeletVersion}`;
    if (v.minor > API_SERVER_MINOR || v.minor < API_SERVER_MINOR - KUBELET_MAX_SKEW) {
      out.push({
        node: p.name, pair: `${kubelet} + kube-apiserver ${KUBERNETES_VERSION}`,
        message: `outside the version skew policy: a kubelet may be up to ${KUBELET_MAX_SKEW} minor versions older than kube-apiserver and never newer`,
        source: 'seeds 002/003 "Windows OS version compatibility": the version-skew policy also applies; kubernetes.io/releases/version-skew-policy',
      });
    }
    if (p.os === 'windows') {
      const os = osWarning(p, v.minor);
      if (os) out.push({ node: p.name, pair: `${windowsReleaseName(p.windowsBuild)} + ${kubelet}`, ...os });
      const rt = runtimeWarning(p, v.minor);
      if (rt) out.push({ node: p.name, pair: `${p.containerRuntimeVersion} + ${kubelet}`, ...rt });
      const cni = cniWarning(p, v.minor);
      if (cni) out.push({ node: p.name, pair: `${p.network!.plugin}${p.network!.backend ? ` ${p.network!.backend}` : ''} + ${kubelet}`, ...cni });
    }
    for (const gate of Object.keys(p.featureGates ?? {})) {
      if (!(gate in KUBELET_GATES)) {
        out.push({
          node: p.name, pair: `--feature-gates=${gate} + ${kubelet}`,
          message: `winkube's kubelet reads no gate named ${gate}, so it changes nothing; gates it reads: ${Object.keys(KUBELET_GATES).join(', ')}`,
          source: 'docs/node-profiles.md "Feature gates"',
        });
      }
    }
  }
  return out;
}

/**
 * The warnings as `winkube up` prints them: one line per pair and rule, naming its nodes (the first few of a large
 * count) and the section it comes from.
 */
export function formatFleetWarnings(warnings: readonly FleetWarning[], maxNames = 3): string[] {
  const groups = new Map<string, { nodes: string[]; w: FleetWarning }>();
  for (const w of warnings) {
    const key = `${w.pair}\u0000${w.message}`;
    const g = groups.get(key);
    if (g) g.nodes.push(w.node);
    else groups.set(key, { nodes: [w.node], w });
  }
  return [...groups.values()].map(({ nodes, w }) => {
    const shown = nodes.slice(0, maxNames).map((n) => `"${n}"`).join(', ');
    const more = nodes.length > maxNames ? ` and ${nodes.length - maxNames} more` : '';
    return `node${nodes.length > 1 ? 's' : ''} ${shown}${more}: ${w.pair}: ${w.message} (${w.source})`;
  });
}

/** Roles (and role labels) that make a node part of the control plane. */
const CONTROL_PLANE_ROLES = ['control-plane', 'master'];

/**
 * Windows nodes are workers only: seed 001 intro ("Windows is only supported as a worker node in the Kubernetes
 * architecture and component matrix"; the control plane "continues to run on Linux"; seeds 002/003 intro).
 */
export function windowsControlPlaneErrors(entry: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const detail = 'Windows is only supported as a worker node in the Kubernetes architecture and component matrix: the control plane runs on Linux';
  if (Array.isArray(entry.roles)) {
    entry.roles.forEach((r, i) => { if (CONTROL_PLANE_ROLES.includes(r as string)) errs.push(fieldErr.forbidden(`${path}.roles[${i}]`, detail)); });
  }
  const labels = entry.labels;
  if (typeof labels === 'object' && labels !== null) {
    for (const role of CONTROL_PLANE_ROLES) {
      const key = `node-role.kubernetes.io/${role}`;
      if (key in labels) errs.push(fieldErr.forbidden(`${path}.labels.${key}`, detail));
    }
  }
  return errs;
}

/**
 * A fleet that hosts the cluster needs a Linux node for the control plane: seed 001 intro, "a Kubernetes cluster must
 * always include Linux master nodes" ("There are no plans to have a Windows-only Kubernetes cluster").
 */
export function linuxControlPlaneError(profiles: readonly NodeProfile[]): FieldError | undefined {
  if (profiles.length === 0 || profiles.some((p) => p.os === 'linux')) return undefined;
  return fieldErr.required('nodes', 'a Kubernetes cluster must always include Linux master nodes: add a linux node to host the control plane');
}
