// The node lifecycle controller's settings with kube-controller-manager's defaults (v1.33), and a parser for the
// Go durations its flags take (`--node-monitor-grace-period=40s`).

/** --node-monitor-period: how often node health is checked. */
export const NODE_MONITOR_PERIOD_MS = 5_000;
/** --node-monitor-grace-period: 50 s since v1.32 (40 s before; CHANGELOG-1.32, kubernetes/kubernetes#126287). */
export const NODE_MONITOR_GRACE_PERIOD_MS = 50_000;
/** --node-startup-grace-period: for a node that never posted a Ready condition. */
export const NODE_STARTUP_GRACE_PERIOD_MS = 60_000;
/** --node-eviction-rate and --secondary-node-eviction-rate: nodes per second tainted NoExecute, healthy / unhealthy zone. */
export const NODE_EVICTION_RATE = 0.1;
export const SECONDARY_NODE_EVICTION_RATE = 0.01;
/** --large-cluster-size-threshold: at or below it a partially disrupted zone stops tainting altogether. */
export const LARGE_CLUSTER_SIZE_THRESHOLD = 50;
/** --unhealthy-zone-threshold: the share of NotReady nodes (at least 3) that makes a zone partially disrupted. */
export const UNHEALTHY_ZONE_THRESHOLD = 0.55;
/** pkg/controller/nodelifecycle/scheduler: the NoExecute tainting pass period, token-bucket burst, status retries. */
export const NODE_EVICTION_PERIOD_MS = 100;
export const EVICTION_RATE_LIMITER_BURST = 1;
export const NODE_HEALTH_UPDATE_RETRY = 5;

export interface NodeLifecycleConfig {
  monitorPeriodMs: number;
  monitorGracePeriodMs: number;
  startupGracePeriodMs: number;
  evictionRate: number;
  secondaryEvictionRate: number;
  largeClusterThreshold: number;
  unhealthyZoneThreshold: number;
}

export const DEFAULT_CONFIG: NodeLifecycleConfig = {
  monitorPeriodMs: NODE_MONITOR_PERIOD_MS,
  monitorGracePeriodMs: NODE_MONITOR_GRACE_PERIOD_MS,
  startupGracePeriodMs: NODE_STARTUP_GRACE_PERIOD_MS,
  evictionRate: NODE_EVICTION_RATE,
  secondaryEvictionRate: SECONDARY_NODE_EVICTION_RATE,
  largeClusterThreshold: LARGE_CLUSTER_SIZE_THRESHOLD,
  unhealthyZoneThreshold: UNHEALTHY_ZONE_THRESHOLD,
};

