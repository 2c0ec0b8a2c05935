// The typed Client over any Transport: builds paths and query strings, turns non-2xx answers into StatusError.

import { StatusError, type Status } from '../api/errors.js';
import type { KubeList, KubeObject, WatchEvent } from '../api/types.js';
import {
  PATCH_CONTENT_TYPES, type ApiRequest, type ApiResponse, type Client, type DeleteOptions, type ListOptions,
  type PatchType, type ResourceType, type Transport, type WatchStream, type WriteOptions,
} from './interfaces.js';
import { collectionPath, objectPath } from './paths.js';

export function createClient(transport: Transport): Client {
  return new TypedClient(transport);
}

function listQuery(opts: ListOptions = {}): Record<string, string | undefined> {
  return {
    labelSelector: opts.labelSelector,
    fieldSelector: opts.fieldSelector,
    limit: opts.limit !== undefined ? String(opts.limit) : undefined,
    continue: opts.continue,
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    timeoutSeconds: opts.timeoutSeconds !== undefined ? String(opts.timeoutSeconds) : undefined,
    allowWatchBookmarks: opts.allowWatchBookmarks ? 'true' : undefined,
  };
}

function writeQuery(opts: WriteOptions = {}): Record<string, string | undefined> {
  return {
    fieldManager: opts.fieldManager,
    dryRun: opts.dryRun ? 'All' : undefined,
    fieldValidation: opts.fieldValidation,
    force: opts.force ? 'true' : undefined,
  };
}

/** client-go's rest client retries an answer that says when to come back this many times (rest/request.go). */
const MAX_RETRIES = 10;

/**
 * The wait a 429 or 500–504 answer asks for in its Retry-After header (checkWait in client-go's rest/request.go;
 * API Priority and Fairness rejects with one before the request ran, so sending it again is safe); undefined when
 * the answer is final.
 */
function retryAfterSeconds(res: ApiResponse): number | undefined {
  if (res.status !== 429 && (res.status < 500 || res.status > 504)) return undefined;
  const v = res.headers?.['Retry-After'] ?? res.headers?.['retry-after'];
  const seconds = v === undefined ? NaN : Number(v);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : undefined;
}

/** Throws the Status carried by an error response, or a generic one built from the HTTP code. */
export function checkResponse(res: ApiResponse): unknown {
  if (res.status >= 200 && res.status < 300) return res.body;
  const body = res.body as Partial<Status> | undefined;
  if (body && typeof body === 'object' && body.kind === 'Status') throw StatusError.fromStatus({ ...body, code: body.code ?? res.status });
  if (res.status === 429) {
    // API Priority and Fairness answers 429 in plain text; client-go makes this Status of it, its wait from Retry-After.
    const retryAfter = Number(res.headers?.['Retry-After'] ?? res.headers?.['retry-after']) || 0;
    throw StatusError.tooManyRequests('the server has received too many requests and has asked us to try again later', retryAfter);
  }
  throw new StatusError(res.status, '', `the server responded with status ${res.status}`);
}

class TypedClient implements Client {
  constructor(readonly transport: Transport) {}

  private async call<T>(req: ApiRequest): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const res = await this.transport.request(req);
      const wait = attempt <= MAX_RETRIES ? retryAfterSeconds(res) : undefined;
      if (wait === undefined) return checkResponse(res) as T;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }

  get<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, name: string, subresource?: string): Promise<T> {
    return this.call({ method: 'GET', path: objectPath(rt, namespace, name, subresource) });
  }

  list<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, opts?: ListOptions): Promise<KubeList<T>> {
    return this.call({ method: 'GET', path: collectionPath(rt, namespace), query: listQuery(opts), handOver: opts?.handOver });
  }

  create<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, obj: T, opts?: WriteOptions): Promise<T> {
    const path = collectionPath(rt, namespace ?? obj.metadata.namespace);
    return this.call({ method: 'POST', path, query: writeQuery(opts), body: obj, contentType: 'application/json', handOver: opts?.handOver });
  }

  update<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, obj: T, opts: WriteOptions & { subresource?: string } = {}): Promise<T> {
    const ns = namespace ?? obj.metadata.namespace;
    return this.call({ method: 'PUT', path: objectPath(rt, ns, obj.metadata.name!, opts.subresource), query: writeQuery(opts), body: obj, contentType: 'application/json' });
  }

  patch<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, name: string, type: PatchType, patch: unknown, opts: WriteOptions & { subresource?: string } = {}): Promise<T> {
    const path = objectPath(rt, namespace, name, opts.subresource);
    return this.call({ method: 'PATCH', path, query: writeQuery(opts), body: patch, contentType: PATCH_CONTENT_TYPES[type], handOver: opts.handOver });
  }

  delete(rt: ResourceType, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<unknown> {
    const body = opts ? { kind: 'DeleteOptions', apiVersion: 'v1', ...opts } : undefined;
    return this.call({ method: 'DELETE', path: objectPath(rt, namespace, name), body, contentType: body ? 'application/json' : undefined });
  }

  createSubresource(rt: ResourceType, namespace: string | undefined, name: string, subresource: string, body: unknown): Promise<unknown> {
    return this.call({ method: 'POST', path: objectPath(rt, namespace, name, subresource), body, contentType: 'application/json' });
  }

  watch<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, opts: ListOptions, onEvent: (ev: WatchEvent<T>) => void): Promise<WatchStream> {
    const query = { ...listQuery(opts), watch: 'true' };
    return this.transport.watch({ method: 'GET', path: collectionPath(rt, namespace), query }, onEvent as (ev: WatchEvent) => void);
  }
}
