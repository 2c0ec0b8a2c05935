// Authorises a non-resource request (/healthz, /version, /api, /apis, /openapi/...): the lower-cased HTTP method is
// the verb and the raw path is asked (apiserver RequestInfoFactory; `/version/` and `/version` are distinct rules).

import { StatusError } from '../../api/errors.js';
import type { UserInfo } from '../admission/interfaces.js';
import { forbiddenReason, type AuthorizationAttributes, type Authorizer } from './interfaces.js';

export async function authorizeNonResource(authorizer: Authorizer, user: UserInfo, method: string, path: string): Promise<void> {
  const attrs: AuthorizationAttributes = {
    user, verb: method.toLowerCase(), isResourceRequest: false, group: '', resource: '', subresource: '', namespace: '', name: '', path,
  };
  const res = await authorizer.authorize(attrs);
  // responsewriters.Forbidden with an empty GroupResource: `forbidden: User ...` and empty details.
  if (res.decision !== 'Allow') throw new StatusError(403, 'Forbidden', `forbidden: ${forbiddenReason(attrs, res.reason)}`, {});
}
