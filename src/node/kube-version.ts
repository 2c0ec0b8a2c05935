// Kubelet versions as numbers, so version-gated node behaviour (labels, feature gates, Windows features) compares
// `v1.19.5` against a rule's `1.19.5` instead of strings.

/** A Kubernetes `v1.<minor>.<patch>` version; only minor and patch vary across the releases winkube emulates. */
export interface KubeVersion {
  minor: number;
  patch: number;
}

/** `v1.23.4` (or `1.23.4`, or `v1.23`) → { minor: 23, patch: 4 }; undefined for anything else. */
export function parseKubeVersion(v: string | undefined): KubeVersion | undefined {
  const m = /^v?1\.(\d+)(?:\.(\d+))?/.exec(v ?? '');
  return m ? { minor: Number(m[1]), patch: Number(m[2] ?? 0) } : undefined;
}

/**
 * Whether a kubelet version is at least `1.<minor>.<patch>`. A version that does not parse counts as current: the
 * fleet rejects such strings, so only hand-built profiles get here, and they mean "the default kubelet".
 */
export function kubeletAtLeast(kubeletVersion: string | undefined, minor: number, patch = 0): boolean {
  const v = parseKubeVersion(kubeletVersion);
  if (!v) return true;
  return v.minor > minor || (v.minor === minor && v.patch >= patch);
}

/** The minor of a kubelet version (`v1.23.4` → 23); the current release's for a version that does not parse. */
export function kubeletMinor(kubeletVersion: string | undefined, fallback = Number.MAX_SAFE_INTEGER): number {
  return parseKubeVersion(kubeletVersion)?.minor ?? fallback;
}
