// The fleet file's `network` field of a node entry: validated in kube's field-error style and merged over the OS
// default (defaultNetworkProfile). Backend values flanneld itself refuses (VNI < 4096 on Windows) are accepted here:
// the node then fails as flanneld does, which is what such a file is for.

import { fieldErr, type FieldError } from '../api/errors.js';
import { parseCidr } from './ipam/cidr.js';
import { configNetworkName } from './cni/cni-config.js';
import { CNI_PLUGINS, defaultNetworkProfile, type CniPluginName, type NodeNetworkProfile } from './profile.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const FIELDS = ['plugin', 'backend', 'vni', 'port', 'networkName', 'macPrefix', 'directRouting', 'gbp', 'ipMasq', 'macSpoofing', 'adapterName', 'interfaceName', 'routes', 'flanneldStuck', 'clusterCIDR', 'serviceCIDR', 'cniConfig', 'kubeProxy'];
const PROXY_FIELDS = ['mode', 'networkName', 'sourceVip', 'enableDSR', 'featureGates', 'hostnameOverride'];
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** The plugins a node of each OS can run: the Windows reference plugins have no Linux binary, bridge no Windows one; Calico has both. */
export function pluginsFor(os: 'linux' | 'windows'): CniPluginName[] {
  return os === 'windows' ? CNI_PLUGINS.filter((p) => p !== 'bridge') : ['flannel', 'bridge', 'calico'];
}

/** Validates `v` at `path` (errors appended) and returns the merged profile, or undefined when it is invalid. */
export function parseNetworkProfile(v: unknown, path: string, os: 'linux' | 'windows', errs: FieldError[]): NodeNetworkProfile | undefined {
  if (!isObj(v)) {
    errs.push(fieldErr.invalid(path, v, 'must be a mapping'));
    return undefined;
  }
  const before = errs.length;
  for (const k of Object.keys(v)) if (!FIELDS.includes(k)) errs.push(fieldErr.notSupported(`${path}.${k}`, k, FIELDS));
  const out: NodeNetworkProfile = defaultNetworkProfile(os);
  const plugins = pluginsFor(os);
  if (v.plugin !== undefined) {
    if (typeof v.plugin !== 'string' || !plugins.includes(v.plugin as CniPluginName)) errs.push(fieldErr.notSupported(`${path}.plugin`, v.plugin, plugins));
    else out.plugin = v.plugin as CniPluginName;
  }
  if (out.plugin !== 'flannel') delete out.backend;
  if (v.backend !== undefined) {
    if (out.plugin !== 'flannel') errs.push(fieldErr.forbidden(`${path}.backend`, 'only the flannel plugin has a backend'));
    else if (v.backend !== 'host-gw' && v.backend !== 'vxlan') errs.push(fieldErr.notSupported(`${path}.backend`, v.backend, ['host-gw', 'vxlan']));
    else out.backend = v.backend;
  }
  const int = (k: 'vni' | 'port', min: number, max: number) => {
    const x = v[k];
    if (x === undefined) return;
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) errs.push(fieldErr.invalid(`${path}.${k}`, x, `must be an integer between ${min} and ${max}`));
    else out[k] = x;
  };
  int('vni', 1, 16_777_215);
  int('port', 1, 65_535);
  for (const k of ['directRouting', 'gbp', 'ipMasq', 'macSpoofing', 'flanneldStuck'] as const) {
    if (v[k] === undefined) continue;
    if (typeof v[k] !== 'boolean') errs.push(fieldErr.invalid(`${path}.${k}`, v[k], 'must be a boolean'));
    else out[k] = v[k] as boolean;
  }
  if (v.routes !== undefined) {
    const allowed = ['upstream-l3', 'host-gateway', 'none'];
    if (typeof v.routes !== 'string' || !allowed.includes(v.routes)) errs.push(fieldErr.notSupported(`${path}.routes`, v.routes, allowed));
    else out.routes = v.routes as NonNullable<NodeNetworkProfile['routes']>;
  }
  for (const k of ['networkName', 'macPrefix', 'adapterName', 'interfaceName'] as const) {
    if (v[k] === undefined) continue;
    if (typeof v[k] !== 'string' || !v[k]) errs.push(fieldErr.invalid(`${path}.${k}`, v[k], 'must be a non-empty string'));
    else out[k] = v[k] as string;
  }
  for (const k of ['clusterCIDR', 'serviceCIDR'] as const) {
    if (v[k] === undefined) continue;
    try {
      parseCidr(String(v[k]));
      out[k] = String(v[k]);
    } catch (err) {
      errs.push(fieldErr.invalid(`${path}.${k}`, v[k], (err as Error).message));
    }
  }
  if (v.cniConfig !== undefined) {
    if (typeof v.cniConfig !== 'string') errs.push(fieldErr.invalid(`${path}.cniConfig`, v.cniConfig, 'must be the config file text (JSON)'));
    else {
      // Only well-formedness here: what the plugin makes of it is its business, at sandbox creation.
      try {
        JSON.parse(v.cniConfig);
        out.cniConfig = v.cniConfig;
      } catch (err) {
        errs.push(fieldErr.invalid(`${path}.cniConfig`, '<text>', `must be JSON: ${(err as Error).message}`));
      }
    }
  }
  readKubeProxy(v.kubeProxy, `${path}.kubeProxy`, os, out, errs);
  if (errs.length > before) return undefined;
  // Calico for Windows starts kube-proxy with WinDSR=true and --enable-dsr=true where the platform has DSR
  // (projectcalico/calico, the kube-proxy-service.ps1 of Calico for Windows: 1809 from UBR 1432, 1903 and later), so
  // policy selectors see pod addresses through ClusterIPs; elsewhere it leaves the flag off. A profile's own enableDSR
  // wins (and, as with kube-proxy, fails where HNS has no DSR).
  if (os === 'windows' && out.plugin === 'calico' && !(isObj(v.kubeProxy) && v.kubeProxy.enableDSR !== undefined)) {
    out.kubeProxy.enableDSR = true;
    out.kubeProxy.dsrWherePlatformHasIt = true;
    out.kubeProxy.featureGates = { WinDSR: true, ...out.kubeProxy.featureGates };
  }
  // kube-proxy names the network the plugin uses, unless the file says otherwise (e.g. to reproduce a wrong name).
  if (os === 'windows' && !(isObj(v.kubeProxy) && v.kubeProxy.networkName !== undefined)) out.kubeProxy.networkName = configNetworkName(os, out);
  return out;
}

function readKubeProxy(v: unknown, path: string, os: 'linux' | 'windows', out: NodeNetworkProfile, errs: FieldError[]): void {
  if (v === undefined) return;
  if (!isObj(v)) {
    errs.push(fieldErr.invalid(path, v, 'must be a mapping'));
    return;
  }
  for (const k of Object.keys(v)) if (!PROXY_FIELDS.includes(k)) errs.push(fieldErr.notSupported(`${path}.${k}`, k, PROXY_FIELDS));
  const kp = out.kubeProxy;
  if (v.mode !== undefined) {
    const modes = os === 'windows' ? ['kernelspace'] : ['iptables'];
    if (!modes.includes(String(v.mode))) errs.push(fieldErr.notSupported(`${path}.mode`, v.mode, modes));
  }
  if (v.networkName !== undefined) {
    if (typeof v.networkName !== 'string') errs.push(fieldErr.invalid(`${path}.networkName`, v.networkName, 'must be a string'));
    else kp.networkName = v.networkName || undefined;
  }
  if (v.sourceVip !== undefined) {
    if (typeof v.sourceVip !== 'string' || !IPV4.test(v.sourceVip)) errs.push(fieldErr.invalid(`${path}.sourceVip`, v.sourceVip, 'must be an IPv4 address'));
    else kp.sourceVip = v.sourceVip;
  }
  for (const k of ['enableDSR', 'hostnameOverride'] as const) {
    if (v[k] === undefined) continue;
    if (typeof v[k] !== 'boolean') errs.push(fieldErr.invalid(`${path}.${k}`, v[k], 'must be a boolean'));
    else kp[k] = v[k] as boolean;
  }
  if (v.featureGates !== undefined) {
    if (!isObj(v.featureGates) || Object.values(v.featureGates).some((g) => typeof g !== 'boolean')) errs.push(fieldErr.invalid(`${path}.featureGates`, v.featureGates, 'must map gate names to booleans'));
    else kp.featureGates = { ...(v.featureGates as Record<string, boolean>) };
  }
}
