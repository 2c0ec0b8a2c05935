// Keeps the dashboard's snapshot current from shared informers: recomputed once per burst of changes, not per request.

import { InformerFactory, type Informer } from '../client/informer.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { NodeObject } from './node-view.js';
import type { PodObject } from './pod-view.js';
import { buildSnapshot } from './view-model.js';
import type { DeploymentObject, EventObject } from './workload-view.js';

export interface SnapshotSourceOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** How long to gather changes before recomputing; a rollout touches dozens of objects within milliseconds. */
  debounceMs?: number;
}

/** A computed snapshot, serialised once and shared by every reader; `version` grows with each change. */
export interface SerializedSnapshot {
  version: number;
  json: string;
}

export type SnapshotListener = (snap: SerializedSnapshot) => void;

export class SnapshotSource {
  private readonly factory: InformerFactory;
  private readonly nodes: Informer<NodeObject>;
  private readonly pods: Informer<PodObject>;
  private readonly deployments: Informer<DeploymentObject>;
  private readonly events: Informer<EventObject>;
  private readonly listeners = new Set<SnapshotListener>();
  private current: SerializedSnapshot | undefined;
  /** The last snapshot's JSON without its timestamp, to tell a real change from a heartbeat. */
  private lastBody = '';
  private timer: Timer | undefined;
  private readonly debounceMs: number;

  constructor(private readonly opts: SnapshotSourceOptions) {
    this.debounceMs = opts.debounceMs ?? 200;
    this.factory = new InformerFactory({ client: opts.client, clock: opts.clock, logger: opts.logger });
    this.nodes = this.factory.for<NodeObject>(R.nodes);
    this.pods = this.factory.for<PodObject>(R.pods);
    this.deployments = this.factory.for<DeploymentObject>(R.deployments);
    this.events = this.factory.for<EventObject>(R.events);
    const changed = () => this.schedule();
    for (const inf of [this.nodes, this.pods, this.deployments, this.events] as Informer[]) {
      inf.addHandler({ add: changed, update: changed, delete: changed });
    }
  }

  /** Starts the informers and resolves once every cache is filled and the first snapshot exists. */
  async start(): Promise<void> {
    this.factory.start();
    await this.factory.waitForSync();
    this.timer?.cancel();
    this.timer = undefined;
    this.recompute();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.factory.stop();
    this.listeners.clear();
  }

  /** The latest snapshot; computed on the spot only before the first one exists. */
  latest(): SerializedSnapshot {
    return this.current ?? this.recompute();
  }

  /** Calls `fn` with each new snapshot; returns the unsubscribe function. */
  subscribe(fn: SnapshotListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private schedule(): void {
    // Before the first sync the handlers fire once per listed object; start() computes the first snapshot itself.
    if (this.timer || !this.current) return;
    this.timer = this.opts.clock.setTimeout(() => {
      this.timer = undefined;
      this.recompute();
    }, this.debounceMs);
  }

  private recompute(): SerializedSnapshot {
    const snap = buildSnapshot({
      nodes: this.nodes.list(),
      pods: this.pods.list(),
      deployments: this.deployments.list(),
      events: this.events.list(),
      now: this.opts.clock.now(),
    });
    // generatedAt changes every time; compare the rest so an unchanged view is not pushed again.
    const body = JSON.stringify({ ...snap, generatedAt: undefined });
    const prev = this.current;
    if (prev && this.lastBody === body) return prev;
    this.lastBody = body;
    const next = { version: (prev?.version ?? 0) + 1, json: JSON.stringify(snap) };
    this.current = next;
    for (const fn of this.listeners) {
      try {
        fn(next);
      } catch (err) {
        this.opts.logger.error('dashboard snapshot listener failed', { err: String(err) });
      }
    }
    return next;
  }
}
