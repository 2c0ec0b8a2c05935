// SchedulerConfig: what a profile enables and how the queue behaves, with kube-scheduler's defaults
// (pkg/scheduler/apis/config/v1/default_plugins.go, defaults.go).

import { KUBERNETES_VERSION } from '../api/version.js';
import type { PluginEntry } from './framework/runtime.js';
import { names } from './plugins/names.js';
import { DEFAULT_SCHEDULER_NAME } from './types.js';
import { atLeast, parseKubeVersion } from './util/version.js';

export interface SchedulerConfig {
  /** Pods whose spec.schedulerName is this (or unset) are ours. */
  schedulerName?: string;
  /** The release whose messages and default plugins to follow; the emulated cluster's version. */
  kubernetesVersion?: string;
  /** Plugins in run order with score weights (MultiPoint); replaces the default list when given. */
  plugins?: PluginEntry[];
  /** Names removed from the (default or given) list. */
  disabledPlugins?: string[];
  /** Per-plugin arguments, keyed by plugin name. */
  pluginConfig?: Record<string, unknown>;
  /** 0 = adaptive (50% minus 1% per 125 nodes, at least 5%); 100 = check every node. */
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  /** How long a pod may sit in the unschedulable pool before it is retried anyway (podMaxInUnschedulablePodsDuration). */
  podMaxInUnschedulablePodsDurationSeconds?: number;
}

export type ResolvedConfig = Required<Omit<SchedulerConfig, 'disabledPlugins' | 'pluginConfig'>> & {
  pluginConfig: Record<string, unknown>;
};

/** The default profile: filters run in this order, so a node is reported under the first one that rejects it. */
export function defaultPlugins(kubernetesVersion: string): PluginEntry[] {
  const v = parseKubeVersion(kubernetesVersion);
  const list: PluginEntry[] = [
    { name: names.PrioritySort },
    { name: names.NodeUnschedulable },
    { name: names.NodeName },
    { name: names.TaintToleration, weight: 3 },
    { name: names.NodeAffinity, weight: 2 },
    { name: names.NodePorts },
    { name: names.NodeResourcesFit, weight: 1 },
    // (VolumeRestrictions and NodeVolumeLimits come before VolumeBinding, VolumeZone after it, in kube; winkube has none.)
    { name: names.VolumeBinding },
    { name: names.PodTopologySpread, weight: 2 },
    { name: names.InterPodAffinity, weight: 2 },
  ];
  // DRA is enabled by default from 1.34, which puts DynamicResources (and its PostFilter note) in the profile, just
  // before DefaultPreemption (applyDynamicResources).
  if (atLeast(v, 1, 34)) list.push({ name: names.DynamicResources });
  list.push(
    { name: names.DefaultPreemption },
    { name: names.NodeResourcesBalancedAllocation, weight: 1 },
    { name: names.ImageLocality, weight: 1 },
    { name: names.DefaultBinder },
  );
  return list;
}

/** The version winkube emulates by default (the kubelets report it too). */
export const DEFAULT_KUBERNETES_VERSION = KUBERNETES_VERSION;

export function resolveConfig(cfg: SchedulerConfig): ResolvedConfig {
  const kubernetesVersion = cfg.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  parseKubeVersion(kubernetesVersion);
  const disabled = new Set(cfg.disabledPlugins ?? []);
  const plugins = (cfg.plugins ?? defaultPlugins(kubernetesVersion)).filter((p) => !disabled.has(p.name));
  const pct = cfg.percentageOfNodesToScore ?? 0;
  if (pct < 0 || pct > 100) throw new Error(`percentageOfNodesToScore must be in [0, 100], got ${pct}`);
  const initial = cfg.podInitialBackoffSeconds ?? 1;
  const max = cfg.podMaxBackoffSeconds ?? 10;
  if (initial <= 0 || max < initial) throw new Error('podInitialBackoffSeconds must be > 0 and <= podMaxBackoffSeconds');
  return {
    schedulerName: cfg.schedulerName ?? DEFAULT_SCHEDULER_NAME,
    kubernetesVersion,
    plugins,
    pluginConfig: cfg.pluginConfig ?? {},
    percentageOfNodesToScore: pct,
    podInitialBackoffSeconds: initial,
    podMaxBackoffSeconds: max,
    podMaxInUnschedulablePodsDurationSeconds: cfg.podMaxInUnschedulablePodsDurationSeconds ?? 300,
  };
}
