// The custom and external metrics clients of the HPA (pkg/controller/podautoscaler/metrics/client.go with
// k8s.io/metrics pkg/client/custom_metrics and external_metrics): custom.metrics.k8s.io is found through discovery
// ("no custom metrics API (custom.metrics.k8s.io) registered" when absent), external.metrics.k8s.io is asked
// directly, so with no such API its 404 reads "the server could not find the requested resource (get m.external.metrics.k8s.io)".
// When an APIService serves either group, the same calls go through the aggregator to its backend.

import { milliValue, tryParseQuantity } from '../../api/quantity.js';
import type { Client } from '../../client/interfaces.js';

const CUSTOM = 'custom.metrics.k8s.io';
const EXTERNAL = 'external.metrics.k8s.io';
/** metricVersionsToGV: the versions the client speaks, best first. */
const CUSTOM_VERSIONS = ['v1beta2', 'v1beta1'];

export interface MetricValue { name: string; milli: number; timestamp: number }

export interface CustomMetricsSource {
  /** Per-pod values of a Pods metric (GetRawMetric): pod name → value. */
  podMetrics(namespace: string, podSelector: string, metric: string, metricSelector?: string): Promise<MetricValue[]>;
  /** The value of an Object metric (GetObjectMetric). */
  objectMetric(namespace: string, ref: { apiVersion?: string; kind: string; name: string }, metric: string, metricSelector?: string): Promise<MetricValue>;
  /** The values of an External metric (GetExternalMetric). */
  externalMetric(namespace: string, metric: string, selector?: string): Promise<MetricValue[]>;
}

interface ApiError { status: number; body: unknown }

/** The text client-go gives a failed request: the Status message, or NewGenericServerResponse's for a bare 404. */
function errorText(r: ApiError, resource: string): string {
  const st = r.body as { kind?: string; message?: string } | undefined;
  if (st && typeof st === 'object' && st.kind === 'Status' && st.message && r.status !== 404) return st.message;
  if (r.status === 404) {
    // A Status that names the missing object (a backend answering) is passed on; otherwise the generic text.
    if (st && typeof st === 'object' && st.kind === 'Status' && st.message && !st.message.startsWith('the server could not find the requested resource')) return st.message;
    return `the server could not find the requested resource (get ${resource})`;
  }
  return st && typeof st === 'object' && st.message ? st.message : `an error on the server ("${String(r.body ?? '')}") has prevented the request from succeeding (get ${resource})`;
}

/** Lower-cased plural of a kind, as the REST mapper would give it (enough for the kinds HPAs name). */
function pluralOf(kind: string): string {
  const k = kind.toLowerCase();
  if (/(s|x|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

function value(item: { value?: string; timestamp?: string }): { milli: number; timestamp: number } {
  const q = tryParseQuantity(item.value);
  return { milli: q ? milliValue(q) : 0, timestamp: item.timestamp ? Date.parse(item.timestamp) : 0 };
}

export class ApiCustomMetrics implements CustomMetricsSource {
  constructor(private readonly client: Client) {}

  private async get(path: string, query: Record<string, string | undefined>, resource: string): Promise<Record<string, unknown>> {
    const r = await this.client.transport.request({ method: 'GET', path, query, accept: 'application/json' });
    if (r.status < 200 || r.status > 299) throw new Error(errorText(r, resource));
    return (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as Record<string, unknown>;
  }

  /** apiVersionsFromDiscovery: the group's preferred version the client knows. */
  private async customVersion(): Promise<string> {
    const r = await this.client.transport.request({ method: 'GET', path: '/apis', accept: 'application/json' });
    const body = (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as { groups?: { name: string; preferredVersion?: { version: string }; versions?: { version: string }[] }[] };
    const group = body?.groups?.find((g) => g.name === CUSTOM);
    if (!group) throw new Error(`no custom metrics API (${CUSTOM}) registered`);
    const preferred = group.preferredVersion?.version;
    if (preferred && CUSTOM_VERSIONS.includes(preferred)) return preferred;
    const known = group.versions?.find((v) => CUSTOM_VERSIONS.includes(v.version));
    if (!known) throw new Error(`custom metrics API server advertises no known versions (got ${JSON.stringify(group.versions ?? [])})`);
    return known.version;
  }

  async podMetrics(namespace: string, podSelector: string, metric: string, metricSelector?: string): Promise<MetricValue[]> {
    try {
      const v = await this.customVersion();
      const body = await this.get(`/apis/${CUSTOM}/${v}/namespaces/${namespace}/pods/*/${metric}`, { labelSelector: podSelector, metricLabelSelector: metricSelector }, `pods.${CUSTOM} *`);
      const items = (body.items ?? []) as { describedObject?: { name?: string }; value?: string; timestamp?: string }[];
      if (!items.length) throw new Error('no metrics returned from custom metrics API');
      return items.map((i) => ({ name: i.describedObject?.name ?? '', ...value(i) }));
    } catch (err) {
      throw new Error(`unable to fetch metrics from custom metrics API: ${(err as Error).message}`);
    }
  }

  async objectMetric(namespace: string, ref: { apiVersion?: string; kind: string; name: string }, metric: string, metricSelector?: string): Promise<MetricValue> {
    try {
      const v = await this.customVersion();
      const group = ref.apiVersion?.includes('/') ? ref.apiVersion.split('/')[0] : '';
      const resource = group ? `${pluralOf(ref.kind)}.${group}` : pluralOf(ref.kind);
      const ns = ref.kind === 'Namespace' ? '' : `namespaces/${namespace}/`;
      const body = await this.get(`/apis/${CUSTOM}/${v}/${ns}${resource}/${ref.name}/${metric}`, { metricLabelSelector: metricSelector }, `${resource}.${CUSTOM} ${ref.name}`);
      const items = (body.items ?? [body]) as { value?: string; timestamp?: string }[];
      if (!items.length) throw new Error(`no metrics returned for object ${ref.name}`);
      return { name: ref.name, ...value(items[0]) };
    } catch (err) {
      throw new Error(`unable to fetch metrics from custom metrics API: ${(err as Error).message}`);
    }
  }

  async externalMetric(namespace: string, metric: string, selector?: string): Promise<MetricValue[]> {
    try {
      const body = await this.get(`/apis/${EXTERNAL}/v1beta1/namespaces/${namespace}/${metric}`, { labelSelector: selector || undefined }, `${metric}.${EXTERNAL}`);
      const items = (body.items ?? []) as { metricName?: string; value?: string; timestamp?: string }[];
      if (!items.length) throw new Error('no metrics returned from external metrics API');
      return items.map((i) => ({ name: i.metricName ?? metric, ...value(i) }));
    } catch (err) {
      throw new Error(`unable to fetch metrics from external metrics API: ${(err as Error).message}`);
    }
  }
}
