// Builds kube-apiserver's authorization for --authorization-mode (Node,RBAC by default) as winkube serves it:
// system:masters first, then each mode in order — the Node authorizer over a graph fed by informers, RBAC over an
// index fed by informers, AlwaysAllow, AlwaysDeny — the
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
import { alwaysAllow } from './always-allow.js';
import { alwaysDeny } from './always-deny.js';
import { DEFAULT_AUTHORIZATION_MODES, MODE_ALWAYS_ALLOW, MODE_ALWAYS_DENY, MODE_NODE, MODE_RBAC, validateAuthorizationModes, aggregateMessage } from './modes.js';

export interface AuthorizationConfig {
  clock: Clock;
  logger: Logger;
  /** --authorization-mode, in order (src/apiserver/authz/modes.ts); Node,RBAC when absent. */
  modes?: readonly string[];
}

export class Authorization {
  readonly policy = new PolicyIndex();
  readonly rbac = new RbacAuthorizer(this.policy);
  readonly nodeGraph = new NodeGraph();
  readonly node = new NodeAuthorizer(this.nodeGraph);
  readonly modes: readonly string[];
  readonly authorizer: Authorizer & RuleResolver;
  readonly reviewApi: AuthorizationReviewApi;
  readonly escalationCheck: AdmissionPlugin;
  private source?: PolicySource;
  private graphSource?: NodeGraphSource;

  constructor(private readonly cfg: AuthorizationConfig) {
    this.modes = cfg.modes ?? DEFAULT_AUTHORIZATION_MODES;
    const errs = validateAuthorizationModes(this.modes);
    if (errs.length) throw new Error(aggregateMessage(errs));
    const byMode: Record<string, Authorizer & Partial<RuleResolver>> = {
      [MODE_NODE]: this.node, [MODE_RBAC]: this.rbac, [MODE_ALWAYS_ALLOW]: alwaysAllow(), [MODE_ALWAYS_DENY]: alwaysDeny(),
    };
    // The privileged group always comes first, whatever the modes (pkg/kubeapiserver/authorizer/reload.go).
    this.authorizer = union([privilegedGroups(), ...this.modes.map((m) => byMode[m])]);
    this.reviewApi = new AuthorizationReviewApi({ authorizer: this.authorizer, rules: this.authorizer });
    // RBAC's storage checks escalation against the whole chain and RBAC's own rules, whichever modes are on.
    this.escalationCheck = rbacEscalationCheck({ authorizer: this.authorizer, rbac: this.rbac });
  }

  /**
   * Writes the bootstrap policy (idempotent), then fills the index before the caller serves anyone: kube-apiserver
   * likewise reports not ready until its RBAC informers have synced.
   */
  async start(client: Client): Promise<void> {
    await reconcileBootstrapPolicy(client);
    this.source = new PolicySource({ client, clock: this.cfg.clock, logger: this.cfg.logger.child('rbac'), policy: this.policy });
    // The graph (every pod, volume and attachment) is only kept when the Node authorizer asks it.
    if (this.modes.includes(MODE_NODE)) {
      this.graphSource = new NodeGraphSource({ client, clock: this.cfg.clock, logger: this.cfg.logger.child('node-authorizer'), graph: this.nodeGraph });
    }
    await Promise.all([this.source.start(), this.graphSource?.start()]);
  }

  stop(): void {
    this.source?.stop();
    this.graphSource?.stop();
  }
}
