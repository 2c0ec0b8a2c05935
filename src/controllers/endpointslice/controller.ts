// The EndpointSlice controller (pkg/controller/endpointslice, staging endpointslice/reconciler.go), simplified:
// per Service and address type, endpoints are grouped by resolved ports and packed 100 to a slice; existing
// managed slices are reused in name order, extra ones deleted, and an empty placeholder kept when nothing matches.

import type { EndpointPort } from 'kubernetes-types/discovery/v1.js';
import { isNotFound } from '../../api/errors.js';
import { objectKey, splitKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { shouldPodBeInEndpoints } from '../util/endpoints.js';
import { canonicalJson } from '../util/json.js';
import { newControllerRef } from '../util/owner.js';
import { mapSelectorMatches } from '../util/selector.js';
import { servicesForPodChange } from '../util/service-pods.js';
import type { EndpointSliceObj, NodeObj, PodObj, ServiceObj } from '../util/types.js';
import { addressTypesFor, endpointPorts, podToEndpoint, type AddressType } from './endpoints.js';

export const NAME = 'endpointslice-controller';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
/** --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;

export interface EndpointSliceControllerOptions extends ControllerOptions {
  maxEndpointsPerSlice?: number;
}

type Desired = Pick<EndpointSliceObj, 'endpoints' | 'ports'>;

export class EndpointSliceController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly maxPerSlice: number;
  private readonly services: Informer<ServiceObj>;
  private readonly pods: Informer<PodObj>;
  private readonly slices: Informer<EndpointSliceObj>;
  private readonly nodes: Informer<NodeObj>;

  constructor(opts: EndpointSliceControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 5);
    this.client = opts.client;
    this.maxPerSlice = opts.maxEndpointsPerSlice ?? MAX_ENDPOINTS_PER_SLICE;
    this.services = opts.informers.for<ServiceObj>(R.services);
    this.pods = opts.informers.for<PodObj>(R.pods);
    this.slices = opts.informers.for<EndpointSliceObj>(R.endpointslices);
    this.nodes = opts.informers.for<NodeObj>(R.nodes);
    const enqueue = (s: ServiceObj) => this.queue.add(objectKey(s));
    this.services.addHandler({ add: enqueue, update: (_o, s) => enqueue(s), delete: enqueue });
    const podChange = (o: PodObj | undefined, p: PodObj) => { for (const k of servicesForPodChange(this.services, o, p)) this.queue.add(k); };
    this.pods.addHandler({ add: (p) => podChange(undefined, p), update: podChange, delete: (p) => podChange(undefined, p) });
    // A slice edited or deleted behind our back is put right on the Service's next sync.
    const sliceChange = (s: EndpointSliceObj) => {
      const svc = s.metadata.labels?.[SERVICE_NAME_LABEL];
      if (svc && s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY) this.queue.add(`${s.metadata.namespace}/${svc}`);
    };
    this.slices.addHandler({ update: (_o, s) => sliceChange(s), delete: sliceChange });
  }

  protected informersToSync() {
    return [this.services, this.pods, this.slices, this.nodes];
  }

  private managedSlices(namespace: string, service: string): EndpointSliceObj[] {
    return this.slices.list(namespace)
      .filter((s) => s.metadata.labels?.[SERVICE_NAME_LABEL] === service && s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY && !s.metadata.deletionTimestamp)
      .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  }

  async reconcile(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const svc = this.services.get(key);
    if (!svc) {
      for (const s of this.managedSlices(namespace, name)) await this.deleteSlice(s);
      return;
    }
    if (!svc.spec?.selector || svc.spec.type === 'ExternalName') return;
    if (namespace === 'default' && name === 'kubernetes') return;
    const selector = svc.spec.selector;
    const pods = this.pods.list(namespace)
      .filter((p) => mapSelectorMatches(selector, p.metadata.labels) && shouldPodBeInEndpoints(p, true))
      .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
    const existing = this.managedSlices(namespace, name);
    const types = addressTypesFor(svc);
    for (const t of types) await this.reconcileType(svc, t, pods, existing.filter((s) => s.addressType === t));
    // Slices of address types the Service no longer has.
    for (const s of existing) if (!types.includes(s.addressType as AddressType)) await this.deleteSlice(s);
  }

  private desiredSlices(svc: ServiceObj, t: AddressType, pods: PodObj[]): Desired[] {
    const groups = new Map<string, Desired & { endpoints: NonNullable<Desired['endpoints']> }>();
    for (const pod of pods) {
      const node = pod.spec?.nodeName ? this.nodes.get(pod.spec.nodeName) : undefined;
      const ep = podToEndpoint(pod, svc, node, t);
      if (!ep) continue;
      const ports = endpointPorts(svc, pod);
      const k = canonicalJson(ports);
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { ports, endpoints: [] }));
      g.endpoints.push(ep);
    }
    const out: Desired[] = [];
    for (const g of groups.values()) {
      for (let i = 0; i < g.endpoints.length; i += this.maxPerSlice) {
        out.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + this.maxPerSlice) });
      }
    }
    // A Service with no endpoints still gets one empty slice, so consumers can tell "none" from "not synced".
    if (!out.length) out.push({ ports: [], endpoints: [] });
    return out;
  }

  private async reconcileType(svc: ServiceObj, t: AddressType, pods: PodObj[], existing: EndpointSliceObj[]): Promise<void> {
    const unused = [...existing];
    const labels = sliceLabels(svc);
    const ns = svc.metadata.namespace!;
    const toCreate: Desired[] = [];
    for (const want of this.desiredSlices(svc, t, pods)) {
      const portsKey = canonicalJson(want.ports ?? []);
      const i = unused.findIndex((s) => canonicalJson(s.ports ?? []) === portsKey);
      if (i < 0) toCreate.push(want);
      else await this.updateIfChanged(unused.splice(i, 1)[0], want, labels);
    }
    for (const want of toCreate) {
      // A slice that would be deleted is rewritten instead of deleting one and creating another (reconciler finalize).
      const recycled = unused.shift();
      if (recycled) {
        await this.updateIfChanged(recycled, want, labels);
        continue;
      }
      await this.client.create<EndpointSliceObj>(R.endpointslices, ns, {
        apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
        metadata: { generateName: `${svc.metadata.name}-`, namespace: ns, labels, ownerReferences: [newControllerRef(svc, 'v1', 'Service')] },
        addressType: t, endpoints: want.endpoints, ports: want.ports,
      });
    }
    for (const s of unused) await this.deleteSlice(s);
  }

  private async updateIfChanged(cur: EndpointSliceObj, want: Desired, labels: Record<string, string>): Promise<void> {
    const same = canonicalJson(cur.endpoints ?? []) === canonicalJson(want.endpoints ?? []) &&
      canonicalJson(cur.ports ?? []) === canonicalJson(want.ports ?? []) &&
      canonicalJson(cur.metadata.labels ?? {}) === canonicalJson(labels);
    if (same) return;
    await this.client.update<EndpointSliceObj>(R.endpointslices, cur.metadata.namespace, {
      ...structuredClone(cur), metadata: { ...structuredClone(cur.metadata), labels }, endpoints: want.endpoints ?? [], ports: want.ports as EndpointPort[],
    });
  }

  private async deleteSlice(s: EndpointSliceObj): Promise<void> {
    try {
      await this.client.delete(R.endpointslices, s.metadata.namespace, s.metadata.name!, { preconditions: { uid: s.metadata.uid } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** The Service's labels plus the controller's own (setEndpointSliceLabels). */
function sliceLabels(svc: ServiceObj): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(svc.metadata.labels ?? {})) {
    if (k === SERVICE_NAME_LABEL || k === MANAGED_BY_LABEL) continue;
    labels[k] = v;
  }
  if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
  labels[SERVICE_NAME_LABEL] = svc.metadata.name!;
  labels[MANAGED_BY_LABEL] = MANAGED_BY;
  return labels;
}
