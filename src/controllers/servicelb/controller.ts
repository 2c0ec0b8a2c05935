// The emulated cloud's load-balancer controller: a Service of type LoadBalancer gets an ingress IP from a pool on the
// node network (as MetalLB or cloud-provider-kind give one in a kind cluster), with the cloud service controller's
// finalizer and events (k8s.io/cloud-provider controllers/service/controller.go). kube-proxy then programs the IP.

import type { Service } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { EventRecorder } from '../util/events.js';
import { intToIp, ipToInt } from '../../network/ipam/cidr.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';

export const NAME = 'service-lb-controller';
export const COMPONENT = 'service-controller';
/** cloud-provider servicehelper LoadBalancerCleanupFinalizer. */
export const LB_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';
/** The default pool: the top of kind's docker network, where MetalLB examples put theirs. */
export const DEFAULT_LB_POOL = '172.18.255.200-172.18.255.250';

export interface ServiceLbOptions extends RecordingControllerOptions {
  /** `first-last` IPv4 range the ingress IPs come from. */
  pool?: string;
}

type ServiceObj = KubeObject & Service;

export class ServiceLbController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly services: Informer<ServiceObj>;
  private readonly first: number;
  private readonly last: number;
  private readonly pool: string;

  constructor(opts: ServiceLbOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.pool = opts.pool ?? DEFAULT_LB_POOL;
    const [a, b] = this.pool.split('-');
    this.first = ipToInt(a);
    this.last = ipToInt(b);
    this.services = opts.informers.for<ServiceObj>(R.services);
    const key = (s: ServiceObj) => this.queue.add(`${s.metadata.namespace}/${s.metadata.name}`);
    this.services.addHandler({ add: key, update: (_o, s) => key(s) });
  }

  protected informersToSync() {
    return [this.services];
  }

  /** Whether this controller owns the Service: type LoadBalancer without another implementation's class. */
  private wants(s: ServiceObj): boolean {
    return s.spec?.type === 'LoadBalancer' && !s.spec.loadBalancerClass && !s.metadata.deletionTimestamp;
  }

  private inUse(except: string): Set<number> {
    const used = new Set<number>();
    for (const s of this.services.list()) {
      if (`${s.metadata.namespace}/${s.metadata.name}` === except) continue;
      for (const i of s.status?.loadBalancer?.ingress ?? []) if (i.ip) used.add(ipToInt(i.ip));
    }
    return used;
  }

  async reconcile(key: string): Promise<void> {
    const s = this.services.get(key);
    if (!s) return;
    const [namespace, name] = key.split('/');
    const hasFinalizer = s.metadata.finalizers?.includes(LB_FINALIZER) ?? false;
    if (!this.wants(s)) {
      // Deleted, or no longer a LoadBalancer: the load balancer goes, then the status and the finalizer.
      if (!hasFinalizer) return;
      this.recorder.event(s, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
      if (!s.metadata.deletionTimestamp && s.status?.loadBalancer?.ingress?.length) {
        await this.client.patch(R.services, namespace, name, 'merge', { status: { loadBalancer: { ingress: null } } }, { subresource: 'status' });
      }
      // Through services/status, as cloud-provider's servicehelper.PatchService does: the service controller's role
      // (system:controller:service-controller) may patch services/status only, and the status strategy keeps metadata.
      await this.client.patch(R.services, namespace, name, 'merge', {
        metadata: { finalizers: (s.metadata.finalizers ?? []).filter((f) => f !== LB_FINALIZER), resourceVersion: s.metadata.resourceVersion },
      }, { subresource: 'status' });
      this.recorder.event(s, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
      return;
    }
    const current = s.status?.loadBalancer?.ingress?.[0]?.ip;
    if (current && hasFinalizer) return;
    if (!hasFinalizer) {
      await this.client.patch(R.services, namespace, name, 'merge', {
        metadata: { finalizers: [...(s.metadata.finalizers ?? []), LB_FINALIZER], resourceVersion: s.metadata.resourceVersion },
      }, { subresource: 'status' });
      if (current) return;
    }
    this.recorder.event(s, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
    const ip = this.allocate(key, s.spec?.loadBalancerIP);
    if (!ip) {
      this.recorder.event(s, 'Warning', 'SyncLoadBalancerFailed', `Error syncing load balancer: failed to ensure load balancer: no available IP in pool ${this.pool}${s.spec?.loadBalancerIP ? ` for loadBalancerIP ${s.spec.loadBalancerIP}` : ''}`);
      return;
    }
    await this.client.patch(R.services, namespace, name, 'merge', { status: { loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } } }, { subresource: 'status' });
    this.recorder.event(s, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
  }

  /** The requested IP if it is in the pool and free, else the lowest free one (undefined: none). */
  private allocate(key: string, wanted?: string): string | undefined {
    const used = this.inUse(key);
    if (wanted) {
      const n = ipToInt(wanted);
      return n >= this.first && n <= this.last && !used.has(n) ? wanted : undefined;
    }
    for (let n = this.first; n <= this.last; n++) if (!used.has(n)) return intToIp(n);
    return undefined;
  }
}
