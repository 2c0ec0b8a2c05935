// The components ComponentStatus reports, in the order it lists them: scheduler, controller-manager, then one row
// per storage backend (storage_core.go serversToValidate; Go's map makes kube's order random, winkube keeps this one).

import type { KubeObject } from '../../api/types.js';
import type { Store } from '../../storage/interfaces.js';
import { COMPONENT_LEASES, componentProbe, storageProbe, type ComponentProbe, type ProbedComponent } from './probes.js';

export interface ComponentStatusServersConfig {
  store: Pick<Store, 'revision'>;
  /** A Lease from the API server's cache. */
  lease(namespace: string, name: string): KubeObject | undefined;
  now(): number;
}

export class ComponentStatusServers {
  private readonly local = new Map<ProbedComponent, () => boolean>();
  private readonly etcd: ComponentProbe;

  constructor(private readonly cfg: ComponentStatusServersConfig) {
    this.etcd = storageProbe(cfg.store);
  }

  /** This process runs `component`: `running` says whether it does right now (kube probes it on 127.0.0.1). */
  setLocal(component: ProbedComponent, running: () => boolean): void {
    this.local.set(component, running);
  }

  /** The component no longer runs here (its health is read from its Lease again). */
  clearLocal(component: ProbedComponent): void {
    this.local.delete(component);
  }

  servers(): ReadonlyMap<string, ComponentProbe> {
    const probe = (component: ProbedComponent) => componentProbe({
      component, running: this.local.get(component), now: this.cfg.now,
      lease: () => this.cfg.lease('kube-system', COMPONENT_LEASES[component]),
    });
    return new Map([['scheduler', probe('scheduler')], ['controller-manager', probe('controller-manager')], ['etcd-0', this.etcd]]);
  }
}
