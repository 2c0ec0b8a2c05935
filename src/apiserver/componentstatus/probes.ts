// The checks behind ComponentStatus (pkg/registry/core/componentstatus/validator.go and storage_core.go's servers):
// kube-apiserver probes https://127.0.0.1:10257/healthz (controller-manager) and :10259/healthz (scheduler) and asks
// each storage backend. winkube's components are no HTTP servers, so the same questions are answered from what they
// are: a component this process runs is healthy while it runs; one run elsewhere while it renews its leader-election
// Lease; otherwise nothing answers on its port and the probe fails as kube's does against a closed port.

import type { KubeObject } from '../../api/types.js';
import type { Store } from '../../storage/interfaces.js';

/** probe.Result as ToConditionStatus maps it: Success→True, Failure→False, anything else→Unknown. */
export type ProbeOutcome = 'Success' | 'Failure' | 'Unknown';

export interface ProbeResult {
  result: ProbeOutcome;
  /** The condition's message: the healthz body ("ok") or the HTTP prober's failure text. */
  message: string;
  /** The condition's error: what the check itself returned as an error (storage probes). */
  error?: string;
}

export type ComponentProbe = () => Promise<ProbeResult>;

/** ports.KubeControllerManagerPort and kubeschedulerconfig.DefaultKubeSchedulerPort. */
export const COMPONENT_PORTS = { 'controller-manager': 10257, scheduler: 10259 } as const;
export type ProbedComponent = keyof typeof COMPONENT_PORTS;

/** The leader-election Lease each component renews (kube-system/<name>), the component-base default. */
export const COMPONENT_LEASES: Record<ProbedComponent, string> = { 'controller-manager': 'kube-controller-manager', scheduler: 'kube-scheduler' };

/** validator.go probeTimeOut. */
export const PROBE_TIMEOUT_MS = 20_000;

/** What Go's HTTP client says when nothing listens on the port (probe/http DoHTTPProbe turns it into a Failure). */
export function connectionRefused(component: ProbedComponent): string {
  const port = COMPONENT_PORTS[component];
  return `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`;
}

const OK: ProbeResult = { result: 'Success', message: 'ok' };

/** A Lease renewed within its duration: the component holding it is alive. */
export function leaseIsFresh(lease: KubeObject | undefined, nowMs: number): boolean {
  const spec = lease?.spec as { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string } | undefined;
  if (!spec?.holderIdentity || !spec.renewTime || !spec.leaseDurationSeconds) return false;
  const renewed = Date.parse(spec.renewTime);
  return Number.isFinite(renewed) && renewed + spec.leaseDurationSeconds * 1000 > nowMs;
}

export interface ComponentProbeConfig {
  component: ProbedComponent;
  /** Set when this process runs the component: whether it runs now. */
  running?: () => boolean;
  /** The component's Lease from the API server's cache (for a component run by another process). */
  lease: () => KubeObject | undefined;
  now: () => number;
}

export function componentProbe(cfg: ComponentProbeConfig): ComponentProbe {
  return async () => {
    const up = cfg.running ? cfg.running() : leaseIsFresh(cfg.lease(), cfg.now());
    return up ? OK : { result: 'Failure', message: connectionRefused(cfg.component) };
  };
}

/**
 * EtcdServer.DoServerCheck: the storage backend answers a read within the timeout ("ok"), or the row is a Failure
 * carrying the error. winkube's backend is SQLite by default and etcd on request; either is the cluster's one store,
 * so it is `etcd-0`, the name kube gives its first storage backend and the one scripts look for.
 */
export function storageProbe(store: Pick<Store, 'revision'>, timeoutMs = PROBE_TIMEOUT_MS): ComponentProbe {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        store.revision(),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('context deadline exceeded')), timeoutMs); }),
      ]);
      return OK;
    } catch (err) {
      return { result: 'Failure', message: '', error: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
  };
}
