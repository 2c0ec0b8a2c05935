// The ValidatingAdmissionPolicy status controller (pkg/controller/validatingadmissionpolicystatus/controller.go):
// a policy whose generation is newer than status.observedGeneration is type-checked and its status applied
// (observedGeneration and typeChecking.expressionWarnings, field manager = the controller's name, forced). The
// generation check is what keeps its own status write from queueing it again.

import type { KubeObject } from '../../api/types.js';
import { typeCheckPolicy } from '../../apiserver/admission/policy/type-checking.js';
import type { Informer } from '../../client/informer.js';
import { checkResponse } from '../../client/client.js';
import { PATCH_CONTENT_TYPES, type Client, type ResourceType } from '../../client/interfaces.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { clientTypeResolver } from './resolver.js';

export const NAME = 'validatingadmissionpolicy-status-controller';

const GROUP = 'admissionregistration.k8s.io';
export const POLICIES: ResourceType = { group: GROUP, version: 'v1', resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false };

type Policy = KubeObject & { status?: { observedGeneration?: number } };

export class ValidatingAdmissionPolicyStatusController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly policies: Informer<Policy>;

  constructor(opts: ControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.policies = opts.informers.for<Policy>(POLICIES);
    const enqueue = (p: Policy) => this.queue.add(p.metadata.name!);
    this.policies.addHandler({ add: enqueue, update: (_old, p) => enqueue(p) });
  }

  protected informersToSync() {
    return [this.policies];
  }

  async reconcile(name: string): Promise<void> {
    const policy = this.policies.get(name);
    if (!policy) return;
    const generation = policy.metadata.generation ?? 0;
    if (generation <= (policy.status?.observedGeneration ?? 0)) return;
    const warnings = await typeCheckPolicy(policy, clientTypeResolver(this.client));
    const apply = {
      apiVersion: `${GROUP}/v1`, kind: 'ValidatingAdmissionPolicy', metadata: { name },
      // No warnings is an empty typeChecking (the apply configuration's omitempty list).
      status: { observedGeneration: generation, typeChecking: warnings.length ? { expressionWarnings: warnings } : {} },
    };
    const res = await this.client.transport.request({
      method: 'PATCH', path: `/apis/${GROUP}/v1/validatingadmissionpolicies/${encodeURIComponent(name)}/status`,
      query: { fieldManager: NAME, force: 'true' }, body: apply, contentType: PATCH_CONTENT_TYPES.apply,
    });
    checkResponse(res);
  }
}
