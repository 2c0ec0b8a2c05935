// The CSR approver (pkg/controller/certificates/approver/sarapprove.go): approves kubelet client certificates asked for
// by a bootstrap token (nodeclient) or by the node itself (selfnodeclient). kube decides with a SubjectAccessReview;
// until RBAC serves one here, the requester's groups decide (system:bootstrappers*, system:masters, or the node).
// winkube also approves a node's own kubelet-serving request (kube leaves those to an external approver such as
// kubelet-csr-approver), so joined node agents can serve logs and exec without a manual `kubectl certificate approve`,
// and the node agent's own client certificate (system:winkube:node-agent:<node> in winkube:node-agents, for its shared
// informers) when a bootstrap token asks for it, as it asks for the agent's node certificates.

import { parseCsr, type ParsedCsr } from '../../bootstrap/csr.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { AGENT_CN_PREFIX, NODE_AGENTS_ORG } from '../../bootstrap/node-agent-identity.js';
import { API_CLIENT_SIGNER, isApproved, isDeniedOrFailed, KUBELET_CLIENT_SIGNER, KUBELET_SERVING_SIGNER, requestPem, type Csr } from './csr-types.js';

export const NAME = 'csrapproving';

const CLIENT_USAGES = new Set(['digital signature', 'key encipherment', 'client auth']);
const SERVING_USAGES = new Set(['digital signature', 'key encipherment', 'server auth']);

const isNodeSubject = (x: ParsedCsr) => x.cn.startsWith('system:node:') && x.orgs.length === 1 && x.orgs[0] === 'system:nodes';

/** The reason and message for an approval, or undefined when this approver has no opinion. */
export function approval(csr: Csr, x: ParsedCsr): { reason: string; message: string } | undefined {
  const usages = csr.spec.usages ?? [];
  const groups = csr.spec.groups ?? [];
  const self = csr.spec.username === x.cn;
  if (csr.spec.signerName === KUBELET_CLIENT_SIGNER) {
    // isNodeClientCert: a node identity, client usages only, no SANs.
    if (!isNodeSubject(x) || x.dns.length || x.ips.length || !usages.every((u) => CLIENT_USAGES.has(u))) return undefined;
    const bootstrapper = groups.some((g) => g === 'system:bootstrappers' || g.startsWith('system:bootstrappers:'));
    if (self || bootstrapper || groups.includes('system:masters')) {
      return { reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' };
    }
  }
  if (csr.spec.signerName === API_CLIENT_SIGNER && x.cn.startsWith(AGENT_CN_PREFIX) && x.orgs.length === 1 && x.orgs[0] === NODE_AGENTS_ORG
    && !x.dns.length && !x.ips.length && usages.every((u) => CLIENT_USAGES.has(u))
    && groups.some((g) => g === 'system:bootstrappers' || g.startsWith('system:bootstrappers:') || g === 'system:masters')) {
    return { reason: 'AutoApproved', message: 'Auto approving the winkube node agent\'s client certificate.' };
  }
  if (csr.spec.signerName === KUBELET_SERVING_SIGNER && (self || groups.includes('system:masters')) && isNodeSubject(x) && usages.every((u) => SERVING_USAGES.has(u)) && usages.includes('server auth')) {
    return { reason: 'AutoApproved', message: 'Auto approving the node\'s own kubelet serving certificate.' };
  }
  return undefined;
}

export class CsrApprover extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly csrs: Informer<Csr>;

  constructor(opts: ControllerOptions) {
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
    if (!csr || isApproved(csr) || isDeniedOrFailed(csr) || csr.status?.certificate) return;
    let parsed: ParsedCsr;
    try {
      parsed = parseCsr(requestPem(csr));
    } catch {
      return; // the signer reports a bad request as Failed
    }
    const ok = approval(csr, parsed);
    if (!ok) return;
    const now = rfc3339(this.clock.now());
    const conditions = [...(csr.status?.conditions ?? []), { type: 'Approved', status: 'True', ...ok, lastUpdateTime: now, lastTransitionTime: now }];
    await this.client.update(R.certificatesigningrequests, undefined, { ...csr, status: { ...csr.status, conditions } }, { subresource: 'approval' });
  }
}
