// Feature gates the API server consults, with Kubernetes 1.33 defaults (kubernetes pkg/features/kube_features.go).

/**
 * The gates winkube knows. Only gates whose behaviour winkube emulates belong here; an unknown name is an error,
 * as it is for `--feature-gates` on a kube component ("unrecognized feature gate").
 */
export interface FeatureGates {
  /**
   * spec.os is honoured. Alpha (off) in 1.23 (seeds 000, 002), beta (on) 1.24, GA 1.25, removed 1.27 — so always
   * on for 1.33. Kept switchable so a 1.23-era API server can be emulated: off means spec.os gets no validation,
   * as if kube had dropped the field (pkg/api/pod/util.go dropDisabledFields).
   */
  IdentifyPodOS: boolean;
  /**
   * Windows pods that are not HostProcess may join the host's network namespace (seed 003 "Field compatibility
   * for hostNetwork", alpha since 1.26). Deprecated and off by default in 1.33. A kubelet gate: kube-apiserver
   * accepts hostNetwork on Windows pods either way; with it off the kubelet quietly gives the pod a pod network
   * (pkg/kubelet/kuberuntime/kuberuntime_sandbox_windows.go; its test TestGeneratePodSandboxWindowsConfig_HostNetwork).
   */
  WindowsHostNetwork: boolean;
  /**
   * env[].name and envFrom[].prefix may use any printable ASCII but '=' (KEP-4369: alpha 1.30, beta and on 1.32,
   * GA 1.34), e.g. .NET's `Logging:LogLevel`; off restores the C-identifier-like rule that seed 004 "Known
   * Limitations" describes (pkg/apis/core/validation/validation.go ValidateEnv).
   */
  RelaxedEnvironmentVariableValidation: boolean;
}

export type FeatureGateName = keyof FeatureGates;

export const DEFAULT_FEATURE_GATES: Readonly<FeatureGates> = Object.freeze({
  IdentifyPodOS: true,
  WindowsHostNetwork: false,
  RelaxedEnvironmentVariableValidation: true,
});

let current: Readonly<FeatureGates> = DEFAULT_FEATURE_GATES;

export function featureEnabled(name: FeatureGateName): boolean {
  return current[name];
}

/** The gates in force now (a frozen snapshot). */
export function featureGates(): Readonly<FeatureGates> {
  return current;
}

function checkNames(overrides: Partial<FeatureGates>): void {
  for (const name of Object.keys(overrides)) {
    if (!Object.hasOwn(DEFAULT_FEATURE_GATES, name)) throw new Error(`unrecognized feature gate: ${name}`);
  }
}

/**
 * Replaces the gates with the defaults plus `overrides` (process-wide, like kube's DefaultFeatureGate) and returns
 * a function that puts the previous gates back — tests call it in `finally`.
 */
export function setFeatureGates(overrides: Partial<FeatureGates>): () => void {
  checkNames(overrides);
  const previous = current;
  current = Object.freeze({ ...DEFAULT_FEATURE_GATES, ...overrides });
  return () => {
    current = previous;
  };
}

/** Parses a `--feature-gates` value such as `WindowsHostNetwork=true,IdentifyPodOS=false`. */
export function parseFeatureGates(flag: string): Partial<FeatureGates> {
  const out: Partial<FeatureGates> = {};
  for (const part of flag.split(',')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`missing bool value for ${item}`);
    const name = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    // strconv.ParseBool's spellings, as component-base/featuregate accepts them.
    const value = ({ '1': true, t: true, T: true, TRUE: true, true: true, True: true,
      '0': false, f: false, F: false, FALSE: false, false: false, False: false } as Record<string, boolean>)[raw];
    if (value === undefined) throw new Error(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
    checkNames({ [name]: value } as Partial<FeatureGates>);
    out[name as FeatureGateName] = value;
  }
  return out;
}
