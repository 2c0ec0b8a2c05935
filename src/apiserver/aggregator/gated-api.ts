// A service-backed APIService whose group is answered in-process (metrics.k8s.io): served only while the APIService
// is Available, exactly as the proxy would be, so availability and discovery come from the real checks.

import type { AggregatedApi, AggregatedContext, AggregatedResource, ServerRequest, ServerResponse } from '../interfaces.js';
import type { RequestInfo } from '../request-info.js';
import { plainError } from './remote-api.js';

export class GatedApi implements AggregatedApi {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly AggregatedResource[];
  readonly freshness: 'Current' | 'Stale';

  /** `available`: the APIService is Available and its discovery was fetched; otherwise Stale and empty, as kube's. */
  constructor(private readonly inner: AggregatedApi, private readonly available: boolean) {
    this.group = inner.group;
    this.version = inner.version;
    this.resources = available ? inner.resources : [];
    this.freshness = available ? 'Current' : 'Stale';
  }

  handle(req: ServerRequest, info: RequestInfo, ctx: AggregatedContext): Promise<ServerResponse> {
    if (!this.available) return Promise.resolve(plainError(503, 'service unavailable'));
    return this.inner.handle(req, info, ctx);
  }
}
