// componentstatuses (core/v1, get and list only, deprecated in v1.19+): each request probes the components afresh and
// answers one ComponentStatus per component with a single Healthy condition (pkg/registry/core/componentstatus/rest.go).

import { StatusError, type StatusReason } from '../../api/errors.js';
import type { KubeList, KubeObject } from '../../api/types.js';
import type { CustomRest } from '../custom-rest.js';
import type { ServerResponse } from '../interfaces.js';
import type { RequestContext, ResourceHandler } from '../resource-handler.js';
import { first } from '../server.js';
import { addWarnings } from '../admission/warnings.js';
import type { ComponentProbe, ProbeOutcome, ProbeResult } from './probes.js';

/** The endpoints deprecation warning (apiserver pkg/endpoints/deprecation WarningMessage) for v1 ComponentStatus. */
export const COMPONENT_STATUS_DEPRECATION = 'v1 ComponentStatus is deprecated in v1.19+';

/** ToConditionStatus. */
const CONDITION_STATUS: Record<ProbeOutcome, string> = { Success: 'True', Failure: 'False', Unknown: 'Unknown' };

/** getComponentStatus: name, then one condition whose message and error are omitted when empty. */
export function componentStatusObject(name: string, r: ProbeResult): KubeObject {
  const condition: Record<string, string> = { type: 'Healthy', status: CONDITION_STATUS[r.result] };
  if (r.message) condition.message = r.message;
  if (r.error) condition.error = r.error;
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name, creationTimestamp: null } as unknown as KubeObject['metadata'], conditions: [condition] } as KubeObject;
}

export class ComponentStatusRest implements CustomRest {
  /** `servers`: GetServersToValidate, read on every request (the name order is the list order). */
  constructor(private readonly servers: () => ReadonlyMap<string, ComponentProbe>) {}

  async serve(h: ResourceHandler, ctx: RequestContext): Promise<ServerResponse> {
    addWarnings(ctx.headers, [COMPONENT_STATUS_DEPRECATION]);
    const servers = this.servers();
    if (ctx.info.verb === 'get') {
      const probe = servers.get(ctx.info.name);
      // A plain Go error in REST Get: 500 with no reason, the text as the message.
      if (!probe) throw new StatusError(500, '' as StatusReason, `Component not found: ${ctx.info.name}`);
      return h.render(ctx, componentStatusObject(ctx.info.name, await probe()));
    }
    if (ctx.info.verb !== 'list') throw StatusError.methodNotAllowed(ctx.info.verb, '', 'componentstatuses');
    // The probes run at once; a ComponentStatus has no labels or fields to select on, so any selector empties the list
    // (rest.go List: "effectively filter out all of the results").
    const selects = !!(first(ctx.req.query?.labelSelector) || first(ctx.req.query?.fieldSelector));
    const names = [...servers.keys()];
    const results = await Promise.all(names.map((n) => servers.get(n)!()));
    const items = selects ? [] : names.map((n, i) => componentStatusObject(n, results[i]));
    const list: KubeList = { kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items };
    return h.render(ctx, list);
  }
}
