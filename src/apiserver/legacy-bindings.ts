// The legacy top-level `bindings` resource (core/v1, create only): POST /api/v1/namespaces/<ns>/bindings with a
// Binding names its pod in metadata.name and does what pods/<name>/binding does (pkg/registry/core/pod/storage
// LegacyBindingREST hands it to BindingREST.Create with the object's name).

import { StatusError } from '../api/errors.js';
import type { CustomRest } from './custom-rest.js';
import type { ServerResponse } from './interfaces.js';
import type { RequestContext, ResourceHandler } from './resource-handler.js';
import { bind } from './subresources.js';

export const legacyBindingsRest: CustomRest = {
  async serve(h: ResourceHandler, ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse> {
    const pods = h.server.storeFor('', 'pods');
    if (ctx.info.verb !== 'create' || !pods || !namespace) throw StatusError.methodNotAllowed(ctx.info.verb, '', 'bindings');
    return bind(h, ctx, namespace, { pods });
  },
};
