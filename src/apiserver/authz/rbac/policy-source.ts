// Keeps a PolicyIndex in step with the API: informers on Roles, ClusterRoles and their bindings through the API
// server's own loopback client, as kube-apiserver feeds its RBAC authorizer from shared informers.

import type { KubeObject } from '../../../api/types.js';
import { InformerFactory, type Informer } from '../../../client/informer.js';
import type { Client } from '../../../client/interfaces.js';
import { R } from '../../../client/resources.js';
import type { Clock } from '../../../util/clock.js';
import type { Logger } from '../../../util/log.js';
import type { BindingObject, PolicyIndex, RoleObject } from './policy-index.js';

export interface PolicySourceOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  policy: PolicyIndex;
}

export class PolicySource {
  private readonly informers: InformerFactory;
  private readonly all: Informer[];

  constructor(opts: PolicySourceOptions) {
    this.informers = new InformerFactory({ client: opts.client, clock: opts.clock, logger: opts.logger });
    const p = opts.policy;
    const asRole = (o: KubeObject) => o as unknown as RoleObject;
    const asBinding = (o: KubeObject) => o as unknown as BindingObject;
    const cr = this.informers.for(R.clusterroles);
    cr.addHandler({ add: (o) => p.setClusterRole(asRole(o)), update: (_o, n) => p.setClusterRole(asRole(n)), delete: (o) => p.deleteClusterRole(o.metadata.name!) });
    const r = this.informers.for(R.roles);
    r.addHandler({ add: (o) => p.setRole(asRole(o)), update: (_o, n) => p.setRole(asRole(n)), delete: (o) => p.deleteRole(o.metadata.namespace!, o.metadata.name!) });
    const crb = this.informers.for(R.clusterrolebindings);
    crb.addHandler({ add: (o) => p.setClusterRoleBinding(asBinding(o)), update: (_o, n) => p.setClusterRoleBinding(asBinding(n)), delete: (o) => p.deleteClusterRoleBinding(o.metadata.name!) });
    const rb = this.informers.for(R.rolebindings);
    rb.addHandler({ add: (o) => p.setRoleBinding(asBinding(o)), update: (_o, n) => p.setRoleBinding(asBinding(n)), delete: (o) => p.deleteRoleBinding(o.metadata.namespace!, o.metadata.name!) });
    this.all = [cr, r, crb, rb];
  }

  async start(): Promise<void> {
    this.informers.start();
    await Promise.all(this.all.map((i) => i.waitForSync()));
  }

  stop(): void {
    this.informers.stop();
  }
}
