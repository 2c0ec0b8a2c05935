// AlwaysAllow: authorises every request (kube-apiserver --authorization-mode=AlwaysAllow).

import type { Authorizer } from './interfaces.js';

export const NAME = 'AlwaysAllow';

export function alwaysAllow(): Authorizer {
  return { name: NAME, authorize: () => ({ decision: 'Allow' }) };
}
