// metrics.k8s.io/v1beta1 as metrics-server serves it (pkg/api/node.go, pod.go, table.go), as an aggregated API
// rather than registry declarations: nothing is stored or watched, every answer is computed from the kubelets'
// summaries, so a declaration would only bring a store prefix, a watch cache and OpenAPI that do not apply.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { StatusError } from '../../api/errors.js';
import { fieldSelector, unsupportedFieldMessage } from '../../api/field-selectors.js';
import { parseSelector, SelectorError } from '../../api/labels.js';
import type { KubeObject } from '../../api/types.js';
import { rfc3339, type Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import type { AggregatedApi, AggregatedContext, AggregatedResource, ServerRequest, ServerResponse } from '../interfaces.js';
import { chooseRendering } from '../negotiate.js';
import type { RequestInfo } from '../request-info.js';
import { json } from '../server.js';
import { nodeUsage, podUsages, usageList, windowText, type NodeUsage, type PodUsage } from './convert.js';
import { KubeletScraper, type SummaryFetcher } from './scraper.js';
import { metricsTable } from './table.js';

export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
const API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;

export interface MetricsApiConfig {
  clock: Clock;
  logger: Logger;
  /** How long a kubelet's answer is reused, in clock ms. */
  resolutionMs?: number;
  /** Replaces the HTTPS fetch of a kubelet's summary (tests). */
  fetch?: SummaryFetcher;
}

type Filter = (o: KubeObject) => boolean;

/** labelSelector and fieldSelector over object metadata only (generic.AddObjectMetaFieldsSet), as metrics-server filters. */
function selectors(req: ServerRequest): Filter {
  const one = (k: string) => {
    const v = req.query?.[k];
    return Array.isArray(v) ? v[0] : v;
  };
  try {
    const labels = one('labelSelector') ? parseSelector(one('labelSelector')!) : undefined;
    const fields = one('fieldSelector') ? fieldSelector(one('fieldSelector')!) : undefined;
    for (const r of fields?.requirements ?? []) {
      if (r.field !== 'metadata.name' && r.field !== 'metadata.namespace') throw StatusError.badRequest(unsupportedFieldMessage(r.field));
    }
    return (o) => (!labels || labels.matches(o.metadata.labels)) && (!fields || fields.matches((f) => (f === 'metadata.name' ? o.metadata.name : o.metadata.namespace ?? '')));
  } catch (err) {
    if (err instanceof SelectorError) throw StatusError.badRequest(err.message);
    throw err;
  }
}

const byName = (a: KubeObject, b: KubeObject) => {
  const x = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
  const y = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  return x < y ? -1 : x > y ? 1 : 0;
};

export class MetricsApi implements AggregatedApi {
  readonly group = METRICS_GROUP;
  readonly version = METRICS_VERSION;
  // metrics-server's storages give no singular name (GetSingularName returns "").
  readonly resources: readonly AggregatedResource[] = [
    { plural: 'nodes', singular: '', kind: 'NodeMetrics', namespaced: false, verbs: ['get', 'list'] },
    { plural: 'pods', singular: '', kind: 'PodMetrics', namespaced: true, verbs: ['get', 'list'] },
  ];
  private readonly scraper: KubeletScraper;

  constructor(private readonly cfg: MetricsApiConfig) {
    this.scraper = new KubeletScraper({ clock: cfg.clock, logger: cfg.logger, resolutionMs: cfg.resolutionMs, fetch: cfg.fetch });
  }

  async handle(req: ServerRequest, info: RequestInfo, ctx: AggregatedContext): Promise<ServerResponse> {
    const resource = this.resources.find((r) => r.plural === info.resource);
    const namespaced = info.namespace !== '';
    if (!resource || info.subresource || (!resource.namespaced && namespaced)) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
    if (info.verb !== 'get' && info.verb !== 'list') {
      throw new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
    }
    if (resource.kind === 'NodeMetrics') return this.render(req, resource, info.name ? await this.getNode(info.name, ctx) : await this.listNodes(req, ctx));
    if (info.name && !namespaced) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
    return this.render(req, resource, info.name ? await this.getPod(info.namespace, info.name, ctx) : await this.listPods(req, info.namespace || undefined, ctx));
  }

  private async listNodes(req: ServerRequest, ctx: AggregatedContext): Promise<KubeObject[]> {
    const nodes = ctx.lookup.list('', 'nodes', undefined).filter(selectors(req)).sort(byName);
    const summaries = await this.scraper.summaries(nodes, ctx.kubeletClient);
    return nodes.flatMap((n) => {
      const s = summaries.get(n.metadata.name ?? '');
      const u = s && nodeUsage(s);
      return u ? [this.nodeMetrics(n, u)] : [];
    });
  }

  private async getNode(name: string, ctx: AggregatedContext): Promise<KubeObject> {
    const node = ctx.lookup.get('', 'nodes', undefined, name);
    // The node lister's NotFound comes back as it is; a node without a sample is NotFound in the metrics group.
    if (!node) throw new StatusError(404, 'NotFound', `node "${name}" not found`, { name, kind: 'node' });
    const s = (await this.scraper.summaries([node], ctx.kubeletClient)).get(name);
    const u = s && nodeUsage(s);
    if (!u) throw StatusError.notFound(METRICS_GROUP, 'nodemetrics', name);
    return this.nodeMetrics(node, u);
  }

  private async listPods(req: ServerRequest, namespace: string | undefined, ctx: AggregatedContext): Promise<KubeObject[]> {
    const pods = ctx.lookup.list('', 'pods', namespace).filter(selectors(req)).sort(byName);
    const usage = await this.podUsage(pods, ctx);
    return pods.flatMap((p) => {
      const u = usage.get(`${p.metadata.namespace}/${p.metadata.name}`);
      return u ? [this.podMetrics(p, u)] : [];
    });
  }

  private async getPod(namespace: string, name: string, ctx: AggregatedContext): Promise<KubeObject> {
    const pod = ctx.lookup.get('', 'pods', namespace, name);
    if (!pod) throw new StatusError(404, 'NotFound', `pod "${name}" not found`, { name, kind: 'pod' });
    const u = (await this.podUsage([pod], ctx)).get(`${namespace}/${name}`);
    if (!u) throw StatusError.notFound(METRICS_GROUP, 'podmetrics', `${namespace}/${name}`);
    return this.podMetrics(pod, u);
  }

  /** Usage of the Running pods among `pods`, from the summaries of the nodes they run on. */
  private async podUsage(pods: KubeObject[], ctx: AggregatedContext): Promise<Map<string, PodUsage>> {
    const running = pods.filter((p) => (p as unknown as Pod).status?.phase === 'Running');
    const nodeNames = new Set(running.map((p) => (p as unknown as Pod).spec?.nodeName).filter((n): n is string => !!n));
    const nodes = [...nodeNames].flatMap((n) => {
      const node = ctx.lookup.get('', 'nodes', undefined, n);
      return node ? [node] : [];
    });
    const summaries = await this.scraper.summaries(nodes, ctx.kubeletClient);
    const out = new Map<string, PodUsage>();
    const byNode = new Map<string, Map<string, PodUsage>>();
    for (const [node, s] of summaries) byNode.set(node, podUsages(s));
    for (const p of running) {
      const key = `${p.metadata.namespace}/${p.metadata.name}`;
      const u = byNode.get((p as unknown as Pod).spec?.nodeName ?? '')?.get(key);
      if (u) out.set(key, u);
    }
    return out;
  }

  private nodeMetrics(node: KubeObject, u: NodeUsage): KubeObject {
    const metadata: KubeObject['metadata'] = { name: node.metadata.name, creationTimestamp: rfc3339(this.cfg.clock.now()) };
    if (node.metadata.labels) metadata.labels = node.metadata.labels;
    return { kind: 'NodeMetrics', apiVersion: API_VERSION, metadata, timestamp: rfc3339(u.timestamp), window: windowText(u.windowMs), usage: usageList(u) };
  }

  private podMetrics(pod: KubeObject, u: PodUsage): KubeObject {
    const metadata: KubeObject['metadata'] = { name: pod.metadata.name, namespace: pod.metadata.namespace, creationTimestamp: rfc3339(this.cfg.clock.now()) };
    if (pod.metadata.labels) metadata.labels = pod.metadata.labels;
    return {
      kind: 'PodMetrics', apiVersion: API_VERSION, metadata, timestamp: rfc3339(u.timestamp), window: windowText(u.windowMs),
      containers: u.containers.map((c) => ({ name: c.name, usage: usageList(c) })),
    };
  }

  /** JSON (an item, or a list whose items carry no kind) or the Table metrics-server prints. */
  private render(req: ServerRequest, resource: AggregatedResource, body: KubeObject | KubeObject[]): ServerResponse {
    const rendering = chooseRendering(req.accept);
    if (!rendering) throw StatusError.notAcceptable('only the following media types are accepted: application/json, application/yaml, application/json;as=Table;v=v1;g=meta.k8s.io');
    const items = Array.isArray(body) ? body : [body];
    if (rendering.kind === 'table') return json(200, metricsTable(items, rendering.tableVersion ?? 'v1', req));
    if (!Array.isArray(body)) return json(200, body);
    return json(200, { kind: `${resource.kind}List`, apiVersion: API_VERSION, metadata: {}, items: body.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) });
  }
}
