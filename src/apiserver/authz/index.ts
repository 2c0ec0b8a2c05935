// Builds kube-apiserver's authorization for --authorization-mode=Node,RBAC as winkube serves it: system:masters
// first, then the Node authorizer over a graph fed by informers, then RBAC over an index fed by informers, the
// authorization.k8s.io reviews, the escalation check on RBAC writes and the bootstrap policy reconciled at start.

import type { Client } from '../../client/interfaces.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import type { AdmissionPlugin } from '../admission/interfaces.js';
import { reconcileBootstrapPolicy } from './bootstrap/reconcile.js';
import type { Authorizer, RuleResolver } from './interfaces.js';
import { NodeAuthorizer } from './node/authorizer.js';
import { NodeGraph } from './node/graph.js';
import { NodeGraphSource } from './node/graph-source.js';
import { privilegedGroups } from './privileged-groups.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { rbacEscalationCheck } from './rbac/escalation-check.js';
import { PolicyIndex } from './rbac/policy-index.js';
import { PolicySource } from './rbac/policy-source.js';
import { AuthorizationReviewApi } from './review-api.js';
import { union } from './union.js';

export interface AuthorizationConfig {
  clock: Clock;
  logger: Logger;
}

export class Authorization {
  readonly policy = new PolicyIndex();
  readonly rbac = new RbacAuthorizer(this.policy);
  readonly nodeGraph = new NodeGraph();
  readonly node = new NodeAuthorizer(this.nodeGraph);
  readonly authorizer: Authorizer & RuleResolver = union([privilegedGroups(), this.node, this.rbac]);
  readonly reviewApi = new AuthorizationReviewApi({ authorizer: this.authorizer, rules: this.authorizer });
  readonly escalationCheck: AdmissionPlugin = rbacEscalationCheck({ authorizer: this.authorizer, rbac: this.rbac });
  private source?: PolicySource;
  private graphSource?: NodeGraphSource;

  constructor(private readonly cfg: AuthorizationConfig) {}

  /**
   * Writes the bootstrap policy (idempotent), then fills the index before the caller serves anyone: kube-apiserver
   * likewise reports not ready until its RBAC informers have synced.
   */
  async start(client: Client): Promise<void> {
    await reconcileBootstrapPolicy(client);
    this.source = new PolicySource({ client, clock: this.cfg.clock, logger: this.cfg.logger.child('rbac'), policy: this.policy });
    this.graphSource = new NodeGraphSource({ client, clock: this.cfg.clock, logger: this.cfg.logger.child('node-authorizer'), graph: this.nodeGraph });
    await Promise.all([this.source.start(), this.graphSource.start()]);
  }

  stop(): void {
    this.source?.stop();
    this.graphSource?.stop();
  }
}
