// The API client every component uses: one request model, two transports (HTTP to any API server, in-process).

import type { KubeList, KubeObject, WatchEvent } from '../api/types.js';

/** A request in API terms: what an HTTP request to kube-apiserver carries, without the socket. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** URL path, e.g. /api/v1/namespaces/default/pods/web-0/status */
  path: string;
  query?: Record<string, string | string[] | undefined>;
  /** Request body: an object (in-process) or its serialisation (HTTP). */
  body?: unknown;
  /** Content-Type of the body; patches name their patch type here. */
  contentType?: string;
  accept?: string;
  /**
   * The caller gives the body up and will never change the answer: the in-process transport then skips both copies
   * (the answer may be the server's frozen object). HTTP has nothing to skip. For hot fire-and-forget writes.
   */
  handOver?: boolean;
  /** Aborts when the caller gives up (HTTP: the client closed the request); a request API Priority and Fairness still queues then leaves its queue. */
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface WatchStream {
  /** Resolves when the stream ends (server closed it, or `stop` was called). */
  readonly done: Promise<void>;
  stop(): void;
}

/** How requests travel. Both transports give the same answers for the same request. */
export interface Transport {
  request(req: ApiRequest): Promise<ApiResponse>;
  /**
   * Opens a watch (the request has watch=true); each event is delivered in order. A non-2xx answer rejects.
   * Event objects are read-only: the in-process transport hands every watcher the same frozen object, so copy one
   * (src/util/json.ts cloneJson) before changing it.
   */
  watch(req: ApiRequest, onEvent: (ev: WatchEvent) => void): Promise<WatchStream>;
  close?(): void;
}

/** Which collection: group ('' = core), version, plural resource, and whether it is namespaced. */
export interface ResourceType {
  group: string;
  version: string;
  resource: string;
  namespaced: boolean;
  kind: string;
  /** The verbs it serves when not every verb of a stored resource (discovery's verbs), e.g. the Metrics API's get/list. */
  verbs?: readonly string[];
}

/** Whether a resource serves every one of `verbs` (discovery.SupportsAllVerbs). */
export function supportsVerbs(rt: ResourceType, verbs: readonly string[]): boolean {
  return !rt.verbs || verbs.every((v) => rt.verbs!.includes(v));
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  /** See ApiRequest.handOver: the items are read-only (in-process: the server's own frozen objects, uncopied). */
  handOver?: boolean;
}

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** Server-side apply takes the fields other managers own (`?force=true`; apply patches only). */
  force?: boolean;
  /** See ApiRequest.handOver: `obj` is not touched again and the result is read-only. */
  handOver?: boolean;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** Typed helpers over a Transport; errors are thrown as StatusError. */
export interface Client {
  readonly transport: Transport;
  get<T extends KubeObject = KubeObject>(rt: ResourceType, namespace: string | undefined, name: string, subresource?: string): Promise<T>;
  list<T extends KubeObject = KubeObject>(rt: ResourceType, namespace: string | undefined, opts?: ListOptions): Promise<KubeList<T>>;
  create<T extends KubeObject = KubeObject>(rt: ResourceType, namespace: string | undefined, obj: T, opts?: WriteOptions): Promise<T>;
  update<T extends KubeObject = KubeObject>(rt: ResourceType, namespace: string | undefined, obj: T, opts?: WriteOptions & { subresource?: string }): Promise<T>;
  patch<T extends KubeObject = KubeObject>(rt: ResourceType, namespace: string | undefined, name: string, type: PatchType, patch: unknown, opts?: WriteOptions & { subresource?: string }): Promise<T>;
  delete(rt: ResourceType, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<unknown>;
  /** POST to a subresource, e.g. pods/binding or pods/eviction. */
  createSubresource(rt: ResourceType, namespace: string | undefined, name: string, subresource: string, body: unknown): Promise<unknown>;
  watch<T extends KubeObject = KubeObject>(rt: ResourceType, namespace: string | undefined, opts: ListOptions, onEvent: (ev: WatchEvent<T>) => void): Promise<WatchStream>;
}
