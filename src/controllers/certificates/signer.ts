// The CSR signer (pkg/controller/certificates/signer/signer.go): issues approved requests of the kubelet and
// kube-apiserver-client signers with the cluster CA (--cluster-signing-cert-file/--cluster-signing-key-file), for
// min(spec.expirationSeconds, --cluster-signing-duration) and the usages asked for.

import { createPrivateKey } from 'node:crypto';
import { parseCsr } from '../../bootstrap/csr.js';
import { buildCertificate, subjectOf } from '../../apiserver/x509.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { API_CLIENT_SIGNER, isApproved, isDeniedOrFailed, KUBELET_CLIENT_SIGNER, KUBELET_SERVING_SIGNER, requestPem, type Csr } from './csr-types.js';

export const NAME = 'csrsigning';
/** kube-controller-manager's default --cluster-signing-duration (8760h). */
export const DEFAULT_SIGNING_DURATION_MS = 365 * 24 * 3600_000;
const SIGNERS = new Set([KUBELET_CLIENT_SIGNER, KUBELET_SERVING_SIGNER, API_CLIENT_SIGNER]);

export interface CsrSignerOptions extends ControllerOptions {
  /** The CA that signs (PEM certificate and key). */
  ca: { cert: string; key: string };
  durationMs?: number;
}

export class CsrSigner extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly csrs: Informer<Csr>;

  constructor(private readonly opts: CsrSignerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.csrs = opts.informers.for<Csr>(R.certificatesigningrequests);
    this.csrs.addHandler({ add: (c) => this.queue.add(c.metadata.name!), update: (_o, c) => this.queue.add(c.metadata.name!) });
  }

  protected informersToSync() {
    return [this.csrs];
  }

  async reconcile(name: string): Promise<void> {
    const csr = this.csrs.get(name);
    if (!csr || !isApproved(csr) || isDeniedOrFailed(csr) || csr.status?.certificate || !SIGNERS.has(csr.spec.signerName)) return;
    let certificate: string;
    try {
      certificate = this.sign(csr);
    } catch (err) {
      const now = rfc3339(this.clock.now());
      const failed = { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: (err as Error).message, lastUpdateTime: now, lastTransitionTime: now };
      await this.client.update(R.certificatesigningrequests, undefined, { ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), failed] } }, { subresource: 'status' });
      return;
    }
    await this.client.update(R.certificatesigningrequests, undefined, { ...csr, status: { ...csr.status, certificate: Buffer.from(certificate).toString('base64') } }, { subresource: 'status' });
  }

  private sign(csr: Csr): string {
    const x = parseCsr(requestPem(csr));
    const usages = new Set(csr.spec.usages ?? []);
    const serving = csr.spec.signerName === KUBELET_SERVING_SIGNER;
    // Signer-specific checks (pkg/apis/certificates/v1 helpers: IsKubeletServingCSR / IsKubeletClientCSR).
    if (csr.spec.signerName !== API_CLIENT_SIGNER && !x.cn.startsWith('system:node:')) throw new Error(`subject common name must begin with "system:node:"`);
    if (serving && usages.has('client auth')) throw new Error('usages not allowed for this signer: client auth');
    if (!serving && usages.has('server auth')) throw new Error('usages not allowed for this signer: server auth');
    const now = this.clock.now();
    const duration = Math.min(this.opts.durationMs ?? DEFAULT_SIGNING_DURATION_MS, (csr.spec.expirationSeconds ?? Infinity) * 1000);
    const extensions: object[] = [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: usages.has('key encipherment'), critical: true },
      { name: 'extKeyUsage', serverAuth: usages.has('server auth'), clientAuth: usages.has('client auth') },
    ];
    if (x.dns.length || x.ips.length) {
      extensions.push({ name: 'subjectAltName', altNames: [...x.dns.map((value) => ({ type: 2, value })), ...x.ips.map((ip) => ({ type: 7, ip }))] });
    }
    return buildCertificate({
      publicKey: x.publicKey, subject: { cn: x.cn, orgs: x.orgs }, issuer: subjectOf(this.opts.ca.cert),
      // Back-dated five minutes, as the signer does, for clocks slightly behind.
      notBefore: new Date(now - 5 * 60_000), notAfter: new Date(now + duration), extensions, signingKey: createPrivateKey(this.opts.ca.key),
    });
  }
}
