// What the API server core takes and gives, independent of HTTP: the HTTP front end and the in-process transport
// both call `ApiServer.handle`.

import type { ResourceDecl } from '../api/interfaces.js';
import type { PatchMask } from './typed-decode.js';
import type { KubeObject } from '../api/types.js';
import type { ApiRequest, ApiResponse } from '../client/interfaces.js';
import type { AdmissionLookup, UserInfo } from './admission/interfaces.js';
import type { WatchSink } from './watch.js';
import type { KubeletClientTls, KubeletProxyResponse } from './kubelet-proxy.js';
import type { RequestInfo } from './request-info.js';
import type { ImpersonationRequest } from './authz/impersonation.js';
import type { WithdrawnLocalApis } from './aggregator/withdrawn.js';

export interface ServerRequest extends ApiRequest {
  user?: UserInfo;
  /** The User-Agent header, which names the field manager of writes that do not name one. */
  userAgent?: string;
  /** Impersonate-* headers (kubectl --as); the core checks and applies them before routing. */
  impersonate?: ImpersonationRequest;
}

export interface WatchResponse {
  status: 200;
  contentType: string;
  /** Response headers written before the first event (API Priority and Fairness's X-Kubernetes-PF-*). */
  headers?: Record<string, string>;
  /** Starts the stream into `sink`; resolves to a function that stops it. */
  watch(sink: WatchSink): Promise<() => void>;
}

/**
 * A backend's answer relayed as it arrives (a watch or another long-running request through an aggregated API):
 * the HTTP front end writes each chunk when it comes and destroys `stream` when the client goes, which closes the
 * connection to the backend. A watch also offers `watch` (its JSON events), for the in-process transport.
 */
export interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  stream: import('node:stream').Readable;
  /** Never a buffered body (callers that read `body` of any answer see none). */
  body?: undefined;
  contentType?: undefined;
  watch?: WatchResponse['watch'];
}

export type ServerResponse = ApiResponse | WatchResponse | KubeletProxyResponse | StreamedResponse;

export function isWatchResponse(r: ServerResponse): r is WatchResponse {
  return typeof (r as WatchResponse).watch === 'function';
}

export function isStreamedResponse(r: ServerResponse): r is StreamedResponse {
  return typeof (r as StreamedResponse).stream === 'object' && (r as StreamedResponse).stream !== null;
}

/** Applies patches; implemented by the patch library (src/apiserver/patch). */
export interface Patcher {
  apply(type: 'json' | 'merge' | 'strategic', current: KubeObject, patch: unknown, decl: ResourceDecl): KubeObject;
  /** Server-side apply of `applied` onto `live` (undefined = create) by `manager`. */
  serverSideApply?(live: KubeObject | undefined, applied: KubeObject, decl: ResourceDecl, manager: string, force: boolean, subresource?: string): KubeObject;
  /** metadata.managedFields after an ordinary write (create, update, non-apply patch) of `next` by `manager`. */
  trackUpdate?(prev: KubeObject | undefined, next: KubeObject, decl: ResourceDecl, manager: string, subresource: string): unknown[];
}

/** The OpenAPI documents (src/api/openapi). */
export interface OpenApiProvider {
  v2Protobuf(): Buffer;
  v2Json(): object;
  v3Discovery(): object;
  v3(groupVersion: string): object | undefined;
  /**
   * Paths of fields the resource's schema does not have (e.g. ["spec.foo"], for fieldValidation); `prune` also
   * deletes them from `obj`; `mask` (a merge patch) limits the search to the paths it sets.
   */
  unknownFields?(decl: ResourceDecl, obj: unknown, prune?: boolean, mask?: PatchMask): string[];
}

/**
 * What a storage hook's beforeWrite did for one write attempt, settled by the API server once the attempt's fate is
 * known (kube's service REST storage keeps such a transaction around the write). Neither may throw: the write's
 * result stands, and the hook logs what it could not undo.
 */
export interface StorageTxn {
  /** The write was stored; `stored` is the object as stored (or as removed, when an update completed a deletion). */
  commit(stored: KubeObject): void | Promise<void>;
  /** The write failed, or is being retried from the start on a newer object: undo what beforeWrite did. */
  revert(): void | Promise<void>;
}

/**
 * Registry-storage work that runs after validation and admission, just before the write (kube does Service IP and
 * NodePort allocation here, in the service REST storage).
 */
export interface StorageHook {
  /** Skipped for subresources and runs again for every attempt of a retried update. */
  beforeWrite(obj: KubeObject, old: KubeObject | undefined, lookup: AdmissionLookup, dryRun: boolean): StorageTxn | undefined | Promise<StorageTxn | undefined>;
  /** After a delete request removed the object from storage (not for dry runs, nor when it was only marked). */
  afterDelete?(deleted: KubeObject): void | Promise<void>;
}

/** A resource of an aggregated API, as discovery lists it. */
export interface AggregatedResource {
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  /** The backend's own aggregated-discovery entry (APIServices proxied to a Service), served as it came. */
  v2?: object;
}

/** What the API server lends an aggregated API for one request: its caches and its credentials towards kubelets. */
export interface AggregatedContext {
  lookup: AdmissionLookup;
  kubeletClient?: KubeletClientTls;
}

/**
 * An API group served beside the registry, as kube-aggregator puts an APIService's group in front of its extension
 * server (metrics.k8s.io is metrics-server's): listed in discovery, authorised like any resource request, then
 * handed to `handle`. Nothing of it is stored.
 */
export interface AggregatedApi {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly AggregatedResource[];
  /** `Stale` when the backend's discovery could not be fetched (aggregated discovery then marks the version failed). */
  readonly freshness?: 'Current' | 'Stale';
  /** The group/version's own discovery document (/apis/<g>/<v>) is the backend's, so it goes to `handle` too. */
  readonly proxiesDiscovery?: boolean;
  handle(req: ServerRequest, info: RequestInfo, ctx: AggregatedContext): Promise<ServerResponse>;
}

/**
 * The aggregation layer in front of the registry (src/apiserver/aggregator): the APIs its APIServices put beside the
 * registry right now, and the discovery rank of each group (kube-aggregator orders groups by APIService priority).
 */
export interface AggregationSource {
  apis(): readonly AggregatedApi[];
  /** Higher first; groups without a rank keep their place after the ranked ones. */
  groupRank(group: string): number | undefined;
  /** Built-in group/versions whose Local APIService is deleted, when there are any: left out of /apis discovery. */
  withdrawn?(): WithdrawnLocalApis | undefined;
}
