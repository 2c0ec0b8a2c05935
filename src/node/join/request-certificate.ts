// Asks the cluster for a certificate the way the kubelet does (client-go util/certificate/csr RequestCertificate and
// WaitForCertificate): create a CertificateSigningRequest for a fresh key, then wait for the signer to fill
// status.certificate; Denied or Failed ends the wait with the condition's message.

import { generateKeyPairSync } from 'node:crypto';
import { isAlreadyExists } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { buildCsr, type CsrSubject } from '../../bootstrap/csr.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { Clock } from '../../util/clock.js';

export interface CertificateRequest {
  client: Client;
  clock: Clock;
  /** kubelet names its CSRs `node-csr-<hash>` / `csr-<random>`; any unique name works. */
  name: string;
  signerName: string;
  usages: string[];
  subject: CsrSubject;
  timeoutMs?: number;
}

type CsrObj = KubeObject & { status?: { certificate?: string; conditions?: { type: string; message?: string }[] } };

export async function requestCertificate(r: CertificateRequest): Promise<{ cert: string; key: string }> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const request = buildCsr(r.subject, privateKey);
  try {
    await r.client.create(R.certificatesigningrequests, undefined, {
      apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: r.name },
      spec: { request: Buffer.from(request).toString('base64'), signerName: r.signerName, usages: r.usages },
    } as KubeObject);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    throw new Error(`a CertificateSigningRequest named ${r.name} already exists`);
  }
  const deadline = r.clock.now() + (r.timeoutMs ?? 60_000);
  for (;;) {
    const csr = await r.client.get<CsrObj>(R.certificatesigningrequests, undefined, r.name);
    const bad = csr.status?.conditions?.find((c) => c.type === 'Denied' || c.type === 'Failed');
    if (bad) throw new Error(`certificate request was ${bad.type === 'Denied' ? 'denied' : 'not signed'}: ${bad.message ?? ''}`);
    if (csr.status?.certificate) {
      return { cert: Buffer.from(csr.status.certificate, 'base64').toString(), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    }
    if (r.clock.now() >= deadline) throw new Error(`timed out waiting for CertificateSigningRequest ${r.name} to be approved and signed`);
    await r.clock.sleep(250);
  }
}
