// Writes pod statuses to pods/status, coalescing per pod: at most one write in flight per pod, later changes
// replace the pending one, and a global cap keeps thousands of pods from flooding the API server
// (the role of pkg/kubelet/status/status_manager.go).

import type { PodStatus } from 'kubernetes-types/core/v1.js';
import { isNotFound } from '../api/errors.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { splitKey } from '../api/types.js';
import type { Logger } from '../util/log.js';
import type { Clock } from '../util/clock.js';

interface Slot {
  uid: string;
  pending?: PodStatus;
  inFlight: boolean;
  /** The most recent status asked for (sent, in flight or pending): an identical request is a no-op, which also
   * stops the echo of our own write (watch event → resync → same status) from causing another write. */
  latest?: string;
  waiters: (() => void)[];
  /** Who writes it: the kubelet of the pod's node. */
  client?: Client;
}

export interface StatusWriterOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** Most writes in flight across all pods. */
  maxInFlight?: number;
}

export class StatusWriter {
  private readonly slots = new Map<string, Slot>();
  private readonly ready: string[] = [];
  private inFlight = 0;
  private readonly max: number;

  constructor(private readonly opts: StatusWriterOptions) {
    this.max = opts.maxInFlight ?? 32;
  }

  /** Queues `status` for the pod; it supersedes anything not yet sent. `client` is the pod's kubelet's (its node identity). */
  set(key: string, uid: string, status: PodStatus, client?: Client): void {
    let slot = this.slots.get(key);
    if (!slot || slot.uid !== uid) {
      slot = { uid, inFlight: false, waiters: [] };
      this.slots.set(key, slot);
    }
    slot.client = client;
    const json = JSON.stringify(status);
    if (json === slot.latest) return;
    slot.latest = json;
    const wasQueued = slot.pending !== undefined;
    slot.pending = status;
    if (!slot.inFlight && !wasQueued) this.ready.push(key);
    this.pump();
  }

  /**
   * Forgets what was last sent for the pod, so the next `set` writes even an unchanged status: a restarted kubelet's
   * status manager starts empty and writes every status again (repairing, e.g., Ready=False from the node controller).
   */
  invalidate(key: string): void {
    const slot = this.slots.get(key);
    if (slot) slot.latest = undefined;
  }

  /** Resolves once everything queued for the pod so far has been written (or dropped). */
  flush(key: string): Promise<void> {
    const slot = this.slots.get(key);
    if (!slot || (!slot.inFlight && slot.pending === undefined)) return Promise.resolve();
    return new Promise((resolve) => slot.waiters.push(resolve));
  }

  forget(key: string): void {
    const slot = this.slots.get(key);
    if (slot) for (const w of slot.waiters.splice(0)) w();
    this.slots.delete(key);
  }

  get pendingCount(): number {
    return this.ready.length + this.inFlight;
  }

  private pump(): void {
    while (this.inFlight < this.max && this.ready.length) {
      const key = this.ready.shift()!;
      const slot = this.slots.get(key);
      if (!slot || slot.inFlight || slot.pending === undefined) continue;
      void this.write(key, slot);
    }
  }

  private async write(key: string, slot: Slot): Promise<void> {
    const status = slot.pending!;
    slot.pending = undefined;
    slot.inFlight = true;
    this.inFlight++;
    const { namespace, name } = splitKey(key);
    let retry = false;
    try {
      // A merge patch of the whole status; the uid guards against writing onto a recreated pod of the same name. A merge
      // patch keeps what it does not mention, so addresses the pod no longer has (no sandbox after a reboot) are sent
      // as null, which removes them, as the kubelet's patch from old to new status does.
      const patch = { ...status, podIP: status.podIP ?? null, podIPs: status.podIPs ?? null };
      await (slot.client ?? this.opts.client).patch(R.pods, namespace, name, 'merge', { metadata: { uid: slot.uid }, status: patch }, { subresource: 'status' });
    } catch (err) {
      if (!isNotFound(err)) {
        this.opts.logger.debug('pod status write failed; will retry', { pod: key, err: String(err) });
        retry = true;
      }
    } finally {
      slot.inFlight = false;
      this.inFlight--;
    }
    if (this.slots.get(key) !== slot) return;
    if (retry && slot.pending === undefined) {
      slot.pending = status;
      await this.opts.clock.sleep(1000);
    }
    if (slot.pending !== undefined) this.ready.push(key);
    else for (const w of slot.waiters.splice(0)) w();
    this.pump();
  }
}
