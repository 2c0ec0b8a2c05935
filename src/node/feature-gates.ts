// Kubelet feature gates (--feature-gates) by kubelet version: which gates a kubelet knows, their defaults, and what a
// profile's `featureGates` turns on — the switches the emulated kubelet consults for version-gated Windows features.

import { parseKubeVersion, type KubeVersion } from './kube-version.js';

type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

/** One gate's history (pkg/features/kube_features.go of each release; alpha defaults off, beta and GA on). */
interface GateHistory {
  alpha: string;
  beta?: string;
  ga?: string;
  /** From this release `--feature-gates=<gate>=false` is refused: the GA gate is LockToDefault. */
  lockedFrom?: string;
  /** From this release the gate is Deprecated (and off by default unless `defaults` says otherwise). */
  deprecated?: string;
  /** From this release the gate no longer exists, so naming it stops the kubelet ("unrecognized feature gate"). */
  removedIn?: string;
  /** Defaults that differ from the stage's usual one (alpha off, beta and GA on), from the release named, in order. */
  defaults?: { from: string; default: boolean }[];
  /** Where the history comes from. */
  source: string;
}

/** The gates winkube's kubelet reads; other gate names are passed through without effect. */
export const KUBELET_GATES: Record<string, GateHistory> = {
  // seed 004 "Hyper-V Containers": experimental in v1.10 behind HyperVContainer=true; Deprecated in 1.20 and removed in
  // 1.21 (kube_features.go 1.20 `HyperVContainer: {Default: false, PreRelease: featuregate.Deprecated}`; website
  // well-known annotations: "Experimental Hyper-V support was removed in 1.21").
  HyperVContainer: { alpha: '1.10', deprecated: '1.20', removedIn: '1.21', source: 'seed 004 "Hyper-V Containers"; kube_features.go HyperVContainer' },
  // seed 000 "Managing Workload Identity with GMSA": from v1.14 (alpha 1.14, beta 1.16, GA 1.18).
  WindowsGMSA: { alpha: '1.14', beta: '1.16', ga: '1.18', source: 'seed 000 "Managing Workload Identity with GMSA"; kube_features.go WindowsGMSA' },
  // seed 000 "Using configurable Container usernames": from v1.16 (alpha 1.16, beta 1.17, GA 1.18).
  WindowsRunAsUserName: { alpha: '1.16', beta: '1.17', ga: '1.18', source: 'seed 000 "Using configurable Container usernames"; kube_features.go WindowsRunAsUserName' },
  // seed 002 "Pods > OS field" (alpha 1.23), seed 003 "OS field" note (needed before 1.24); GA 1.25 locked, removed 1.27.
  IdentifyPodOS: { alpha: '1.23', beta: '1.24', ga: '1.25', lockedFrom: '1.25', removedIn: '1.27', source: 'seed 002 "Pods > OS field"; kube_features.go IdentifyPodOS' },
  // seed 003 "HostProcess containers": alpha 1.22, beta 1.23, GA 1.26 locked, removed 1.28.
  WindowsHostProcessContainers: { alpha: '1.22', beta: '1.23', ga: '1.26', lockedFrom: '1.26', removedIn: '1.28', source: 'seed 003 "HostProcess containers"; kube_features.go WindowsHostProcessContainers' },
  // seed 003 "Field compatibility for hostNetwork": alpha 1.26 — and on by default while alpha (kube_features.go
  // 1.26–1.32 `WindowsHostNetwork: {Default: true, PreRelease: featuregate.Alpha}`); Deprecated and off from 1.33
  // (versioned specs), KEP-3503 withdrawn; still present in the newest source read (1.35), so not removed.
  WindowsHostNetwork: {
    alpha: '1.26', deprecated: '1.33', defaults: [{ from: '1.26', default: true }, { from: '1.33', default: false }],
    source: 'seed 003 "Field compatibility for hostNetwork"; kube_features.go WindowsHostNetwork; KEP-3503',
  },
};

const at = (v: KubeVersion, release: string | undefined): boolean => {
  if (release === undefined) return false;
  const r = parseKubeVersion(release)!;
  return v.minor > r.minor || (v.minor === r.minor && v.patch >= r.patch);
};

/** What a kubelet of the version makes of a gate: unknown, or its stage, default and lock. */
export type GateState = { known: false } | { known: true; stage: Stage; default: boolean; locked: boolean };

export function gateAt(gate: string, kubeletVersion: string): GateState | undefined {
  const h = KUBELET_GATES[gate];
  if (!h) return undefined;
  const v = parseKubeVersion(kubeletVersion);
  if (!v) return undefined;
  if (!at(v, h.alpha) || at(v, h.removedIn)) return { known: false };
  const stage: Stage = at(v, h.deprecated) ? 'DEPRECATED' : at(v, h.ga) ? 'GA' : at(v, h.beta) ? 'BETA' : 'ALPHA';
  // A deprecated gate keeps the default it had unless the release turned it off (as Deprecated gates usually are).
  let def = stage === 'BETA' || stage === 'GA';
  for (const d of h.defaults ?? []) if (at(v, d.from)) def = d.default;
  return { known: true, stage, default: def, locked: at(v, h.lockedFrom) };
}

/** The part of a profile feature checks read. */
export interface GatedProfile {
  kubeletVersion: string;
  featureGates?: Record<string, boolean>;
}

/**
 * Whether the feature behind a gate is on for the node: the profile's setting where the kubelet knows the gate,
 * else its default; a gate the kubelet predates is off, and one removed after GA is simply on.
 */
export function featureEnabled(p: GatedProfile, gate: keyof typeof KUBELET_GATES): boolean {
  const h = KUBELET_GATES[gate];
  const v = parseKubeVersion(p.kubeletVersion);
  if (!v) return true;
  if (!at(v, h.alpha)) return false;
  if (at(v, h.removedIn)) return h.ga !== undefined;
  const state = gateAt(gate, p.kubeletVersion);
  if (!state?.known) return false;
  if (state.locked) return state.default;
  return p.featureGates?.[gate] ?? state.default;
}

/**
 * Why a kubelet of the version would refuse to start with the gates, in component-base's words
 * (staging/src/k8s.io/component-base/featuregate/feature_gate.go Set): one message per bad gate.
 */
export function featureGateProblems(gates: Record<string, boolean>, kubeletVersion: string): { gate: string; message: string }[] {
  const out: { gate: string; message: string }[] = [];
  for (const [gate, value] of Object.entries(gates)) {
    const state = gateAt(gate, kubeletVersion);
    if (!state) continue;
    if (!state.known) out.push({ gate, message: `unrecognized feature gate: ${gate}` });
    else if (state.locked && value !== state.default) out.push({ gate, message: `cannot set feature gate ${gate} to ${value}, feature is locked to ${state.default}` });
  }
  return out;
}
