// The root CA certificate publisher (pkg/controller/certificates/rootcacertpublisher/publisher.go): every namespace
// gets a ConfigMap `kube-root-ca.crt` holding the cluster CA, which every pod's projected service-account volume
// mounts as ca.crt. It is put back when deleted or changed.

import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import type { NamespaceObj } from '../util/types.js';

export const NAME = 'root-ca-certificate-publisher-controller';
export const CONFIGMAP_NAME = 'kube-root-ca.crt';
const DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCaPublisherOptions extends ControllerOptions {
  /** The cluster CA certificate (PEM), as kube-controller-manager's --root-ca-file gives it. */
  rootCA: string;
}

type ConfigMapObj = KubeObject & { data?: Record<string, string> };

export class RootCaPublisher extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly rootCA: string;
  private readonly namespaces: Informer<NamespaceObj>;
  private readonly configMaps: Informer<ConfigMapObj>;

  constructor(opts: RootCaPublisherOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.rootCA = opts.rootCA;
    this.namespaces = opts.informers.for<NamespaceObj>(R.namespaces);
    this.configMaps = opts.informers.for<ConfigMapObj>(R.configmaps);
    this.namespaces.addHandler({ add: (n) => this.queue.add(n.metadata.name!), update: (_o, n) => this.queue.add(n.metadata.name!) });
    const mine = (cm: ConfigMapObj) => { if (cm.metadata.name === CONFIGMAP_NAME) this.queue.add(cm.metadata.namespace!); };
    this.configMaps.addHandler({ update: (_o, cm) => mine(cm), delete: mine });
  }

  protected informersToSync() {
    return [this.namespaces, this.configMaps];
  }

  async reconcile(namespace: string): Promise<void> {
    const ns = this.namespaces.get(namespace);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase && ns.status.phase !== 'Active')) return;
    const cm = this.configMaps.get(`${namespace}/${CONFIGMAP_NAME}`);
    const data = { 'ca.crt': this.rootCA };
    if (!cm) {
      try {
        await this.client.create<ConfigMapObj>(R.configmaps, namespace, {
          apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CONFIGMAP_NAME, namespace, annotations: { 'kubernetes.io/description': DESCRIPTION } }, data,
        });
      } catch (err) {
        if (!isAlreadyExists(err) && !isNotFound(err)) throw err;
      }
      return;
    }
    if (cm.data?.['ca.crt'] === this.rootCA && Object.keys(cm.data).length === 1 && cm.metadata.annotations?.['kubernetes.io/description'] === DESCRIPTION) return;
    // An update (publisher.go syncNamespace): system:controller:root-ca-cert-publisher may create and update configmaps only.
    await this.client.update(R.configmaps, namespace, {
      ...cm, metadata: { ...cm.metadata, annotations: { ...cm.metadata.annotations, 'kubernetes.io/description': DESCRIPTION } }, data,
    });
  }
}
