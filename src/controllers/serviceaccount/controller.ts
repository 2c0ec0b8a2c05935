// The ServiceAccounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go): every active
// namespace gets a `default` ServiceAccount, recreated if deleted.

import { isAlreadyExists } from '../../api/errors.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import type { NamespaceObj, ServiceAccountObj } from '../util/types.js';

export const NAME = 'serviceaccount-controller';
/** ServiceAccounts every namespace must have (DefaultServiceAccountsControllerOptions). */
export const DEFAULT_SERVICE_ACCOUNTS = ['default'];

export interface ServiceAccountControllerOptions extends ControllerOptions {
  serviceAccounts?: string[];
}

export class ServiceAccountController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly names: string[];
  private readonly namespaces: Informer<NamespaceObj>;
  private readonly accounts: Informer<ServiceAccountObj>;

  constructor(opts: ServiceAccountControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.names = opts.serviceAccounts ?? DEFAULT_SERVICE_ACCOUNTS;
    this.namespaces = opts.informers.for<NamespaceObj>(R.namespaces);
    this.accounts = opts.informers.for<ServiceAccountObj>(R.serviceaccounts);
    this.namespaces.addHandler({ add: (n) => this.queue.add(n.metadata.name!), update: (_o, n) => this.queue.add(n.metadata.name!) });
    this.accounts.addHandler({
      delete: (sa) => { if (this.names.includes(sa.metadata.name!)) this.queue.add(sa.metadata.namespace!); },
    });
  }

  protected informersToSync() {
    return [this.namespaces, this.accounts];
  }

  async reconcile(namespace: string): Promise<void> {
    const ns = this.namespaces.get(namespace);
    // Only active namespaces: creating in a terminating one would fail (and be undone) anyway.
    if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase && ns.status.phase !== 'Active')) return;
    for (const name of this.names) {
      if (this.accounts.get(`${namespace}/${name}`)) continue;
      try {
        await this.client.create<ServiceAccountObj>(R.serviceaccounts, namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
    }
  }
}
