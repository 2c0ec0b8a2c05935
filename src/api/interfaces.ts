// The registry's declaration types: one ResourceDecl per resource drives routing, discovery, OpenAPI,
// Table printing, defaulting, validation and patch merge keys.

import type { FieldError } from './errors.js';
import type { KubeObject } from './types.js';

/** A column of server-side Table printing (metav1.TableColumnDefinition). */
export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: '' | 'name' | 'date';
  description: string;
  /** 0 = always shown; 1 = only with -o wide. */
  priority: 0 | 1;
}

export type TableCell = string | number | boolean | null;

/** How kube-apiserver prints one resource (pkg/printers/internalversion/printers.go). */
export interface TableDef {
  columns: TableColumn[];
  /** One row per object; cells line up with `columns`. `now` is the clock's time in ms (for AGE). */
  row(obj: KubeObject, now: number): TableCell[];
  /** Optional row conditions, e.g. Completed for finished pods. */
  conditions?(obj: KubeObject): { type: string; status: string; reason?: string; message?: string }[];
}

/** Context handed to strategy hooks: the clock and what the registry knows. */
export interface StrategyContext {
  now: number;
  /** True for writes through a subresource such as /status. */
  subresource?: string;
}

/**
 * Per-resource behaviour on create and update, like a kube-apiserver RESTCreateStrategy/RESTUpdateStrategy.
 * All hooks are optional; they mutate `obj` in place (the caller passes a private copy).
 */
export interface Strategy {
  /** Apply API defaults (SetDefaults_*). Runs on create and update, before validation. */
  defaults?(obj: KubeObject): void;
  /** Clear fields the user may not set on create (e.g. status), before defaults. */
  prepareForCreate?(obj: KubeObject, ctx: StrategyContext): void;
  /** Carry over what an update may not change (e.g. status on the main resource, spec on /status). */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  /** `old` on update, for rules that depend on what was stored (CEL expressions unchanged since compile in kube's stored environment). */
  validate?(obj: KubeObject, old?: KubeObject): FieldError[];
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): FieldError[];
  /** Field-selector fields beyond metadata.name / metadata.namespace. */
  fieldSelectors?: Record<string, (obj: KubeObject) => string | undefined>;
  /**
   * Whether a field label may be selected on, when the default (metadata.name, metadata.namespace and the
   * fieldSelectors) is not the resource's rule: custom resources' ConvertFieldLabel refuses metadata.namespace when
   * cluster-scoped (apiextensions-apiserver pkg/apiserver/conversion/converter.go).
   */
  fieldLabelSupported?(field: string): boolean;
  /**
   * On the first delete request, before the store decides between removing and marking the object: may add
   * finalizers and conditions (CRDs add customresourcecleanup.apiextensions.k8s.io and Terminating).
   */
  prepareForDelete?(obj: KubeObject, ctx: StrategyContext): void;
  /** Whether spec changes bump metadata.generation (true for workload resources). */
  generation?: boolean;
}

export interface ScaleDecl {
  /** JSON path of the desired replica count in the main object. */
  specReplicasPath: string[];
  statusReplicasPath: string[];
  /** Label selector as a string for Scale.status.selector. */
  selector(obj: KubeObject): string;
}

export interface ResourceDecl {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Verbs on the main resource; defaults to all of get/list/watch/create/update/patch/delete/deletecollection. */
  verbs?: string[];
  subresources?: {
    status?: boolean;
    scale?: ScaleDecl;
    /** Names of further custom subresources (binding, eviction, log, exec, proxy) served by special handlers. */
    extra?: string[];
  };
  strategy: Strategy;
  table?: TableDef;
  /** OpenAPI definition name of the kind, e.g. io.k8s.api.apps.v1.Deployment. */
  definition?: string;
  /**
   * Stored as another resource (same keys, one watch cache) through a conversion, as events.k8s.io/v1 Events are
   * stored as core/v1 Events.
   */
  storedAs?: { group: string; plural: string; codec: Codec };
  /** The kind's own OpenAPI v3 schema, for resources with no built-in definition (custom resources). */
  openapiSchema?: Record<string, unknown>;
  /**
   * Unknown fields against the resource's own schema (custom resources' structural pruning): their paths, and with
   * `prune` they are also removed from `obj`. Built-ins use their `definition` instead.
   */
  unknownFields?(obj: unknown, prune: boolean): string[];
  /** Patch types the resource refuses (custom resources take no strategic merge patch). */
  refusedPatchTypes?: readonly ('strategic')[];
}

/** Converts between a resource's API shape and the shape it is stored in. */
export interface Codec {
  fromStorage(obj: KubeObject): KubeObject;
  toStorage(obj: KubeObject): KubeObject;
  /**
   * A conversion that calls out (a CRD's conversion webhook), run after `fromStorage` on reads and before `toStorage`
   * on writes. It never changes its inputs; a list's objects are converted together. Throws StatusError.
   */
  convert?: {
    fromStorage(objs: readonly KubeObject[], list: boolean): Promise<KubeObject[]>;
    toStorage(obj: KubeObject): Promise<KubeObject>;
  };
}
