// The bootstrap signer (pkg/controller/bootstrap/bootstrapsigner.go): keeps one detached JWS signature of the
// cluster-info kubeconfig per signing bootstrap token in kube-public/cluster-info, so a joining node can trust the
// ConfigMap it fetched anonymously once it holds a token.

import type { KubeObject } from '../../api/types.js';
import { detachedSignature, jwsKey } from '../../bootstrap/jws.js';
import { tokenFromSecret } from '../../bootstrap/token.js';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE } from '../../cluster/cluster-config.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';

export const NAME = 'bootstrap-signer-controller';
const KEY = `${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_NAME}`;

type DataObj = KubeObject & { data?: Record<string, string> };

export class BootstrapSigner extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly configMaps: Informer<DataObj>;
  private readonly secrets: Informer<DataObj>;

  constructor(opts: ControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), 1);
    this.client = opts.client;
    this.configMaps = opts.informers.for<DataObj>(R.configmaps);
    this.secrets = opts.informers.for<DataObj>(R.secrets);
    // Everything funnels into one key: there is one ConfigMap to sign.
    const cm = (o: DataObj) => { if (`${o.metadata.namespace}/${o.metadata.name}` === KEY) this.queue.add(KEY); };
    const secret = (o: DataObj) => { if (o.metadata.namespace === 'kube-system' && (o as { type?: string }).type === 'bootstrap.kubernetes.io/token') this.queue.add(KEY); };
    this.configMaps.addHandler({ add: cm, update: (_o, n) => cm(n) });
    this.secrets.addHandler({ add: secret, update: (_o, n) => secret(n), delete: secret });
  }

  protected informersToSync() {
    return [this.configMaps, this.secrets];
  }

  async reconcile(): Promise<void> {
    const cm = this.configMaps.get(KEY);
    const content = cm?.data?.kubeconfig;
    if (!cm || content === undefined) return;
    const want: Record<string, string> = {};
    for (const s of this.secrets.list('kube-system')) {
      const t = tokenFromSecret(s, this.clock.now());
      if (t?.usages.has('signing')) want[jwsKey(t.id)] = detachedSignature(content, t.id, t.secret);
    }
    const patch: Record<string, string | null> = {};
    for (const k of Object.keys(cm.data ?? {})) if (k.startsWith('jws-kubeconfig-') && !(k in want)) patch[k] = null;
    for (const [k, v] of Object.entries(want)) if (cm.data?.[k] !== v) patch[k] = v;
    if (Object.keys(patch).length === 0) return;
    // An update, as bootstrapsigner's signConfigMap does: the system:controller:bootstrap-signer Role in kube-public
    // grants `update` on cluster-info and nothing else that writes (bootstrappolicy/namespace_policy.go).
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...cm.data, ...patch })) if (v !== null) data[k] = v;
    await this.client.update(R.configmaps, CLUSTER_INFO_NAMESPACE, { ...cm, metadata: { ...cm.metadata }, data });
  }
}
