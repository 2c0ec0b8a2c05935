// Leader election on a coordination.k8s.io Lease, with client-go's rules (tools/leaderelection/leaderelection.go,
// resourcelock/leaselock.go): one holder at a time; a standby takes over only after it has watched the record stay
// unchanged for a whole lease duration on its own clock, so clock skew between machines does not matter.

import { isAlreadyExists, isConflict, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { rfc3339Micro, type Clock, type Timer } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import type { Client } from '../interfaces.js';
import { R } from '../resources.js';

/** kube-controller-manager's and kube-scheduler's defaults (component-base/config/v1alpha1 defaults.go). */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;
/** leaderelection.go JitterFactor: acquisition retries wait retryPeriod × [1, 1.2). */
const JITTER_FACTOR = 1.2;

export interface LeaderElectionConfig {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** The Lease, e.g. kube-system/kube-controller-manager. */
  namespace: string;
  name: string;
  /** Unique per candidate: kube components use `<hostname>_<uuid>`. */
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Random source for the jitter (tests pin it). */
  random?: () => number;
}

export interface LeaderCallbacks {
  onStartedLeading(): void | Promise<void>;
  /** Called once when leadership is lost (renewals failed past the renew deadline) or released. */
  onStoppedLeading(): void;
  /** Whoever holds the lease, whenever that changes (including this candidate). */
  onNewLeader?(identity: string): void;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}
type LeaseObj = KubeObject & { spec?: LeaseSpec };

export class LeaderElector {
  private readonly leaseMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;
  private readonly random: () => number;
  /** The record as last read and the local time it was first seen in that form (leaderelection.go observedTime). */
  private observed?: { key: string; at: number; holder: string };
  private leading = false;
  private stopped = false;
  private timer?: Timer;
  private reportedLeader = '';

  constructor(private readonly cfg: LeaderElectionConfig, private readonly cb: LeaderCallbacks) {
    this.leaseMs = cfg.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.renewDeadlineMs = cfg.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.retryMs = cfg.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    this.random = cfg.random ?? Math.random;
    // NewLeaderElector's checks: the deadlines must nest, or two candidates could both believe they lead.
    if (this.leaseMs <= this.renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.renewDeadlineMs <= JITTER_FACTOR * this.retryMs) throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
    if (!cfg.identity) throw new Error('Lock identity is empty');
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Starts competing: retries acquisition every retryPeriod (jittered), then renews every retryPeriod. */
  run(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops competing; a leader releases the lease so a standby need not wait for it to expire (ReleaseOnCancel). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    if (!this.leading) return;
    this.leading = false;
    await this.release().catch((err) => this.cfg.logger.warn('failed to release lease', { err: String(err) }));
    this.cb.onStoppedLeading();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = this.cfg.clock.setTimeout(() => void this.tick(), ms);
  }

  private lastRenew = 0;

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let ok = false;
    try {
      ok = await this.tryAcquireOrRenew();
    } catch (err) {
      this.cfg.logger.debug('lease attempt failed', { lease: this.leaseName, err: String(err) });
    }
    if (this.stopped) return;
    const now = this.cfg.clock.now();
    if (this.leading) {
      if (ok) {
        this.lastRenew = now;
      } else if (now - this.lastRenew >= this.renewDeadlineMs) {
        // renew(): the renew deadline passed without a successful renewal; another candidate may take over now.
        this.leading = false;
        this.cfg.logger.warn('failed to renew lease', { lease: this.leaseName, identity: this.cfg.identity });
        this.stopped = true;
        this.cb.onStoppedLeading();
        return;
      }
      this.schedule(this.retryMs);
      return;
    }
    if (ok) {
      this.leading = true;
      this.lastRenew = now;
      this.cfg.logger.info('successfully acquired lease', { lease: this.leaseName, identity: this.cfg.identity });
      this.schedule(this.retryMs);
      await this.cb.onStartedLeading();
      return;
    }
    this.schedule(this.retryMs * (1 + (JITTER_FACTOR - 1) * this.random()));
  }

  private get leaseName(): string {
    return `${this.cfg.namespace}/${this.cfg.name}`;
  }

  private record(now: number, old?: LeaseSpec): LeaseSpec {
    const stillOurs = old?.holderIdentity === this.cfg.identity;
    return {
      holderIdentity: this.cfg.identity,
      leaseDurationSeconds: Math.round(this.leaseMs / 1000),
      // A new holder stamps acquireTime and counts a transition; a renewal keeps both (tryAcquireOrRenew).
      acquireTime: stillOurs && old?.acquireTime ? old.acquireTime : rfc3339Micro(now),
      renewTime: rfc3339Micro(now),
      leaseTransitions: stillOurs ? old?.leaseTransitions ?? 0 : (old?.leaseTransitions ?? -1) + 1,
    };
  }

  /** One attempt: create the lease, renew it, or take it over once expired; false when another holds it. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { client, namespace, name } = this.cfg;
    const now = this.cfg.clock.now();
    let lease: LeaseObj;
    try {
      lease = await client.get<LeaseObj>(R.leases, namespace, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        await client.create(R.leases, namespace, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: this.record(now) } as LeaseObj);
      } catch (e) {
        if (isAlreadyExists(e)) return false;
        throw e;
      }
      this.observe(this.cfg.identity, 'created', now);
      return true;
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const key = JSON.stringify([holder, spec.renewTime, spec.acquireTime, spec.leaseTransitions, spec.leaseDurationSeconds]);
    this.observe(holder, key, now);
    const durationMs = (spec.leaseDurationSeconds ?? Math.round(this.leaseMs / 1000)) * 1000;
    if (holder && holder !== this.cfg.identity && this.observed!.at + durationMs > now) return false;
    try {
      const updated = await client.update<LeaseObj>(R.leases, namespace, { ...lease, spec: { ...spec, ...this.record(now, spec) } });
      const u = updated.spec ?? {};
      this.observe(this.cfg.identity, JSON.stringify([u.holderIdentity, u.renewTime, u.acquireTime, u.leaseTransitions, u.leaseDurationSeconds]), now);
      return true;
    } catch (err) {
      // Someone else wrote first (another candidate took it, or renewed): not ours this round.
      if (isConflict(err)) return false;
      throw err;
    }
  }

  private observe(holder: string, key: string, now: number): void {
    if (this.observed?.key !== key) this.observed = { key, at: now, holder };
    if (holder && holder !== this.reportedLeader) {
      this.reportedLeader = holder;
      this.cb.onNewLeader?.(holder);
    }
  }

  /** release(): an empty holder and a one-second duration, so the next candidate acquires at once. */
  private async release(): Promise<void> {
    const { client, namespace, name } = this.cfg;
    const lease = await client.get<LeaseObj>(R.leases, namespace, name);
    if (lease.spec?.holderIdentity !== this.cfg.identity) return;
    const now = rfc3339Micro(this.cfg.clock.now());
    await client.update(R.leases, namespace, {
      ...lease, spec: { leaseTransitions: lease.spec.leaseTransitions ?? 0, leaseDurationSeconds: 1, acquireTime: now, renewTime: now, holderIdentity: '' },
    } as LeaseObj);
  }
}
