// Reads kubelets' /stats/summary?only_cpu_and_memory=true through the API server's kubelet client, as
// metrics-server scrapes each node: a bounded number at once, a timeout each, answers kept for a short resolution,
// and a node whose kubelet cannot be reached simply left out.

import type { KubeObject } from '../../api/types.js';
import type { Summary } from '../../node/stats/interfaces.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { nodeProxyTarget } from '../kubelet-locations.js';
import { fetchKubelet, type KubeletClientTls } from '../kubelet-proxy.js';

/** Fetches one node's summary; throws when the kubelet cannot be reached or answers badly. */
export type SummaryFetcher = (node: KubeObject, creds: KubeletClientTls) => Promise<Summary>;

export interface ScraperConfig {
  clock: Clock;
  logger: Logger;
  /** How long an answer is reused (metrics-server's --metric-resolution is 15 s; shorter so new pods show soon). */
  resolutionMs?: number;
  /** metrics-server's --kubelet-request-timeout. */
  timeoutMs?: number;
  /** Kubelets asked at once. */
  concurrency?: number;
  fetch?: SummaryFetcher;
}

/** GET /stats/summary?only_cpu_and_memory=true on the node's kubelet. */
export const fetchSummary: SummaryFetcher = async (node, creds) => {
  const res = await fetchKubelet(nodeProxyTarget(node, ['stats', 'summary'], { only_cpu_and_memory: 'true' }), creds);
  if (res.status !== 200) throw new Error(`request failed, status: "${res.status}"`);
  return JSON.parse(res.body.toString()) as Summary;
};

export class KubeletScraper {
  private readonly cache = new Map<string, { at: number; summary: Summary }>();
  private readonly inflight = new Map<string, Promise<Summary | undefined>>();

  constructor(private readonly cfg: ScraperConfig) {}

  /** The summaries of those `nodes` whose kubelets answered, by node name. */
  async summaries(nodes: KubeObject[], creds: KubeletClientTls | undefined): Promise<Map<string, Summary>> {
    const out = new Map<string, Summary>();
    if (!creds) return out;
    const queue = [...nodes];
    const width = Math.max(1, Math.min(this.cfg.concurrency ?? 32, queue.length));
    await Promise.all(Array.from({ length: width }, async () => {
      for (let node = queue.shift(); node; node = queue.shift()) {
        const s = await this.one(node, creds);
        if (s) out.set(node.metadata.name ?? '', s);
      }
    }));
    return out;
  }

  private one(node: KubeObject, creds: KubeletClientTls): Promise<Summary | undefined> {
    const name = node.metadata.name ?? '';
    const now = this.cfg.clock.now();
    const cached = this.cache.get(name);
    if (cached && now - cached.at < (this.cfg.resolutionMs ?? 5000)) return Promise.resolve(cached.summary);
    let p = this.inflight.get(name);
    if (!p) {
      p = this.scrape(node, creds).finally(() => this.inflight.delete(name));
      this.inflight.set(name, p);
    }
    return p;
  }

  private async scrape(node: KubeObject, creds: KubeletClientTls): Promise<Summary | undefined> {
    const name = node.metadata.name ?? '';
    let timer: NodeJS.Timeout | undefined;
    try {
      // A dial's deadline is wall time, not the emulation clock's.
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('context deadline exceeded')), this.cfg.timeoutMs ?? 10_000);
        timer.unref();
      });
      const summary = await Promise.race([(this.cfg.fetch ?? fetchSummary)(node, creds), timeout]);
      this.cache.set(name, { at: this.cfg.clock.now(), summary });
      return summary;
    } catch (err) {
      // metrics-server logs "Failed to scrape node" and serves the nodes it could reach.
      this.cfg.logger.debug('Failed to scrape node', { node: name, err: String(err) });
      this.cache.delete(name);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}
