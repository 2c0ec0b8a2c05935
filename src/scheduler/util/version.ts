// Parses the configured Kubernetes version so messages can follow the release they emulate.

export interface KubeVersion {
  major: number;
  minor: number;
  patch: number;
}

/** `v1.33.1`, `1.30`, `v1.34.0-rc.1+abc` → {1, 33, 1}. Throws on anything else: a bad version is a config error. */
export function parseKubeVersion(v: string): KubeVersion {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(v.trim());
  if (!m) throw new Error(`invalid Kubernetes version ${JSON.stringify(v)}`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

/** True when `v` is at least `major.minor.patch`. */
export function atLeast(v: KubeVersion, major: number, minor: number, patch = 0): boolean {
  if (v.major !== major) return v.major > major;
  if (v.minor !== minor) return v.minor > minor;
  return v.patch >= patch;
}
