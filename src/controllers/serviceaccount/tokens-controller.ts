// The tokens controller (pkg/controller/serviceaccount/tokens_controller.go): a Secret of type
// kubernetes.io/service-account-token that names a ServiceAccount gets a legacy (non-expiring) token, the root CA and
// the namespace; its Secret goes when the account goes. Since 1.24 no such Secret is made unless a user asks for one.

import { isConflict, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { legacyClaims, type TokenSigner } from '../../apiserver/authn/service-account-token.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import type { ServiceAccountObj } from '../util/types.js';

export const NAME = 'serviceaccount-token-controller';
export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SA_UID_ANNOTATION = 'kubernetes.io/service-account.uid';

export interface TokensControllerOptions extends ControllerOptions {
  /** kube-controller-manager --service-account-private-key-file; without it the controller does nothing. */
  signer?: TokenSigner;
  /** --root-ca-file: the ca.crt put beside the token. */
  rootCA?: string;
}

type SecretObj = KubeObject & { type?: string; data?: Record<string, string> };

const b64 = (s: string) => Buffer.from(s).toString('base64');

export class TokensController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly signer?: TokenSigner;
  private readonly rootCA?: string;
  private readonly secrets: Informer<SecretObj>;
  private readonly accounts: Informer<ServiceAccountObj>;

  constructor(opts: TokensControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.signer = opts.signer;
    this.rootCA = opts.rootCA;
    this.secrets = opts.informers.for<SecretObj>(R.secrets);
    this.accounts = opts.informers.for<ServiceAccountObj>(R.serviceaccounts);
    if (!this.signer) return;
    const secret = (s: SecretObj) => { if (s.type === SERVICE_ACCOUNT_TOKEN_TYPE) this.queue.add(`secret/${s.metadata.namespace}/${s.metadata.name}`); };
    this.secrets.addHandler({ add: secret, update: (_o, s) => secret(s) });
    // An account deleted (or recreated with another UID) takes its token Secrets with it.
    const account = (sa: ServiceAccountObj) => {
      for (const s of this.secrets.list(sa.metadata.namespace)) if (s.metadata.annotations?.[SA_NAME_ANNOTATION] === sa.metadata.name) secret(s);
    };
    this.accounts.addHandler({ add: account, delete: account });
  }

  protected informersToSync() {
    return [this.secrets, this.accounts];
  }

  async reconcile(key: string): Promise<void> {
    const [, namespace, name] = key.split('/');
    const s = this.secrets.get(`${namespace}/${name}`);
    if (!s || s.type !== SERVICE_ACCOUNT_TOKEN_TYPE || s.metadata.deletionTimestamp || !this.signer) return;
    const saName = s.metadata.annotations?.[SA_NAME_ANNOTATION] ?? '';
    const wantUID = s.metadata.annotations?.[SA_UID_ANNOTATION];
    const sa = this.accounts.get(`${namespace}/${saName}`);
    if (!sa || (wantUID && sa.metadata.uid !== wantUID)) {
      // The cache may lag a just-created account: only a live miss deletes (tokens_controller.go getServiceAccount).
      const live = await this.client.get<ServiceAccountObj>(R.serviceaccounts, namespace, saName).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      if (live && (!wantUID || live.metadata.uid === wantUID)) return void this.queue.addAfter(key, 100);
      await this.client.delete(R.secrets, namespace, name, { preconditions: { uid: s.metadata.uid } }).catch((err: unknown) => {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      });
      return;
    }
    const data = s.data ?? {};
    if (data.token && data.namespace && (data['ca.crt'] || !this.rootCA) && wantUID) return;
    const token = data.token ? Buffer.from(data.token, 'base64').toString('utf8')
      : await this.signer.sign(legacyClaims(namespace, { name: saName, uid: sa.metadata.uid ?? '' }, name));
    // An update of the read version (tokens_controller.go generateTokenIfNeeded): the controller-manager's own role
    // (system:kube-controller-manager) may update secrets but not patch them.
    await this.client.update(R.secrets, namespace, {
      ...s,
      metadata: { ...s.metadata, annotations: { ...s.metadata.annotations, [SA_NAME_ANNOTATION]: saName, [SA_UID_ANNOTATION]: sa.metadata.uid ?? '' } },
      data: { ...data, token: b64(token), namespace: b64(namespace), ...(this.rootCA ? { 'ca.crt': b64(this.rootCA) } : {}) },
    });
  }
}
