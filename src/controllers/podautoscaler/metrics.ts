// The resource metrics client (pkg/controller/podautoscaler/metrics/client.go resourceMetricsClient): pod usage
// from metrics.k8s.io/v1beta1 PodMetrics, summed over containers, in milli-units.

import { milliValue, tryParseQuantity } from '../../api/quantity.js';
import { parseGoDuration } from '../../util/go-duration.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { PodMetricsInfo } from './replica-calculator.js';

export interface ResourceMetricsSource {
  /** Usage of `resource` per pod selected by `selector` in `namespace`; throws with the text kube's client gives. */
  podMetrics(namespace: string, selector: string, resource: string, container?: string): Promise<PodMetricsInfo>;
}

interface PodMetricsObj {
  metadata: { name?: string };
  timestamp?: string;
  window?: string;
  containers?: { name: string; usage?: Record<string, string> }[];
}

export class ApiResourceMetrics implements ResourceMetricsSource {
  constructor(private readonly client: Client) {}

  async podMetrics(namespace: string, selector: string, resource: string, container?: string): Promise<PodMetricsInfo> {
    let items: PodMetricsObj[];
    try {
      items = (await this.client.list(R.podMetrics, namespace, { labelSelector: selector })).items as unknown as PodMetricsObj[];
    } catch (err) {
      throw new Error(`unable to fetch metrics from resource metrics API: ${(err as Error).message}`);
    }
    if (items.length === 0) throw new Error('no metrics returned from resource metrics API');
    const out: PodMetricsInfo = new Map();
    for (const m of items) {
      let sum = 0, missing = false, found = false;
      for (const c of m.containers ?? []) {
        if (container && c.name !== container) continue;
        const q = tryParseQuantity(c.usage?.[resource]);
        if (!q) {
          missing = true;
          break;
        }
        found = true;
        sum += milliValue(q);
      }
      if (missing || (container && !found)) continue;
      let windowMs = 0;
      try {
        windowMs = m.window ? parseGoDuration(m.window) : 0;
      } catch {
        windowMs = 0;
      }
      out.set(m.metadata.name ?? '', { value: sum, timestamp: m.timestamp ? Date.parse(m.timestamp) : 0, windowMs });
    }
    return out;
  }
}
