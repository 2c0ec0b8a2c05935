// Makes a node agent's unreadable NetworkPolicies visible. A node joined with credentials that may not list/watch
// networkpolicies would otherwise enforce nothing in silence. Like client-go's reflector under calico-node or
// kube-router, the informer keeps retrying with back-off, so policies are enforced as soon as RBAC allows; the
// forbidden error is logged once (with the reflector's "failed to list *v1.NetworkPolicy: …" wording and the
// apiserver's RBAC text), and again when the policies become readable.

import { isStatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Logger } from '../../util/log.js';

export const POLICY_TYPE = '*v1.NetworkPolicy';

/** Watches `policies` for 401/403 list errors; returns whether one has been reported (for tests). */
export function warnWhenPoliciesUnreadable(policies: Informer<KubeObject>, logger: Logger): { reported(): boolean } {
  let reported = false;
  policies.onError((err) => {
    if (reported || !isStatusError(err) || (err.code !== 403 && err.code !== 401)) return;
    reported = true;
    logger.warn('Failed to watch NetworkPolicies; NetworkPolicy is not enforced on this agent\'s nodes until they can be read (retrying)', {
      type: POLICY_TYPE, err: `failed to list ${POLICY_TYPE}: ${err.message}`,
    });
    void policies.waitForSync().then(() => logger.info('NetworkPolicies readable again; enforcing them', { type: POLICY_TYPE }));
  });
  return { reported: () => reported };
}
