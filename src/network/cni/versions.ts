// CNI spec versions each plugin binary accepts, by release line (skel's version check happens before the plugin runs).

import { ALL_VERSIONS, type CniEra } from './interfaces.js';

/** containernetworking/cni pkg/version All before spec 1.0.0 (libcni ≤ 0.8). */
export const LEGACY_ALL = ['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0'] as const;

/**
 * win-bridge / win-overlay: PluginSupports("0.1.0","0.2.0","0.3.0") until containernetworking/plugins ba48f8a6
 * (2021-09, v1.0.1) — hence seed 001/002 "do not implement CNI spec v0.4.0" — and version.All afterwards.
 */
export function windowsReferenceVersions(era: CniEra): readonly string[] {
  return era === 'legacy' ? ['0.1.0', '0.2.0', '0.3.0'] : ALL_VERSIONS;
}

/** Plugins built on skel with version.All of their libcni. */
export function allVersions(era: CniEra): readonly string[] {
  return era === 'legacy' ? LEGACY_ALL : ALL_VERSIONS;
}

/** The release line of a node: plugins v1.0.1+ ship with the clusters of kubelet 1.23 and later. */
export function eraOf(kubeletVersion: string): CniEra {
  const m = /^v?1\.(\d+)\./.exec(kubeletVersion);
  return m && Number(m[1]) <= 22 ? 'legacy' : 'current';
}
