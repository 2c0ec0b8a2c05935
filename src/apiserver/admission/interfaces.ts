// Admission plugin interface: mutating `admit` then validating `validate`, in kube-apiserver's plugin order.

import type { ResourceDecl } from '../../api/interfaces.js';
import type { KubeObject } from '../../api/types.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface UserInfo {
  name: string;
  groups: string[];
  /** The authenticator's stable id of the user (a ServiceAccount's UID for its tokens). */
  uid?: string;
  /** Extra attributes (user.Info GetExtra), e.g. authentication.kubernetes.io/pod-name of a pod-bound token. */
  extra?: Record<string, string[]>;
}

export interface AdmissionAttributes {
  operation: Operation;
  decl: ResourceDecl;
  namespace: string;
  name: string;
  subresource: string;
  /** The object being written (mutable in `admit`). Absent for DELETE. */
  object?: KubeObject;
  /**
   * The object's kind when it is not the resource's own (a subresource's: policy/v1 Eviction for pods/eviction),
   * which webhooks receive as `kind`/`requestKind` (admission.Attributes GetKind).
   */
  kind?: { group: string; version: string; kind: string };
  /**
   * The defaulting of that kind (the scheme's defaulter for TokenRequest, …), run again on an object a mutating webhook
   * patched, as the dispatcher does after decoding the patched JSON (mutating/dispatcher.go GetObjectDefaulter().Default).
   */
  kindDefaults?: (obj: KubeObject) => void;
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /**
   * Warnings for the client (PodSecurity `warn`), sent as `Warning: 299 - "<text>"` response headers when the request
   * succeeds. The API server supplies the array; plugins push to it.
   */
  warnings?: string[];
  /**
   * Reinvocation (apiserver pkg/admission/reinvocation.go): a plugin that changed the object after another one that
   * wants to see later changes (a mutating webhook with reinvocationPolicy IfNeeded) sets `shouldReinvoke`, and the
   * chain runs every admit once more with `isReinvoke`. `values` holds each plugin's own state across the rounds.
   */
  reinvocation?: { isReinvoke: boolean; shouldReinvoke: boolean; values: Map<string, unknown> };
}

/** Read access to current cluster state, for plugins that look things up (namespaces, RuntimeClasses, …). */
export interface AdmissionLookup {
  get(group: string, resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  list(group: string, resource: string, namespace?: string): KubeObject[];
  /**
   * The object as storage holds it now, past the watch cache (which may lag the server's own writes): for a plugin's
   * rare "last resort" read on a cache miss, as kube's plugins GET through a loopback client. Absent → use `get`.
   */
  getLive?(group: string, resource: string, namespace: string | undefined, name: string): Promise<KubeObject | undefined>;
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating phase: may change `attrs.object`; throws StatusError to reject. */
  admit?(attrs: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void>;
  /** Validating phase: must not change anything; throws StatusError to reject. */
  validate?(attrs: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void>;
}

/** Runs every plugin's admit, then every plugin's validate, in order. */
export class AdmissionChain {
  constructor(readonly plugins: AdmissionPlugin[]) {
    const seen = new Set<string>();
    for (const p of plugins) {
      if (seen.has(p.name)) throw new Error(`admission plugin ${p.name} registered twice`);
      seen.add(p.name);
    }
  }

  async admit(attrs: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> {
    await this.each('admit', attrs, lookup);
    const rc = attrs.reinvocation;
    if (rc?.shouldReinvoke && !rc.isReinvoke) {
      rc.isReinvoke = true;
      await this.each('admit', attrs, lookup);
    }
  }

  validate(attrs: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> {
    return this.each('validate', attrs, lookup);
  }

  /**
   * One phase of every plugin, in order. A plugin that decides at once returns nothing and is not awaited: every
   * write passes some twenty plugins, most with nothing to do, and an await per plugin was a measurable share of the
   * API server's time.
   */
  private async each(phase: 'admit' | 'validate', attrs: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> {
    for (const p of this.plugins) {
      const r = p[phase]?.(attrs, lookup);
      if (r) await r;
    }
  }
}
