// Admission plugin interface: mutating `admit` then validating `validate`, in kube-apiserver's plugin order.

import type { ResourceDecl } from '../../api/interfaces.js';
import type { KubeObject } from '../../api/types.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface UserInfo {
  name: string;
  groups: string[];
}

export interface AdmissionAttributes {
  operation: Operation;
  decl: ResourceDecl;
  namespace: string;
  name: string;
  subresource: string;
  /** The object being written (mutable in `admit`). Absent for DELETE. */
  object?: KubeObject;
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /**
   * Warnings for the client (PodSecurity `warn`), sent as `Warning: 299 - "<text>"` response headers when the request
   * succeeds. The API server supplies the array; plugins push to it.
   */
  warnings?: string[];
}

/** Read access to current cluster state, for plugins that look things up (namespaces, RuntimeClasses, …). */
export interface AdmissionLookup {
  get(group: string, resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  list(group: string, resource: string, namespace?: string): KubeObject[];
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
    for (const p of this.plugins) await p.admit?.(attrs, lookup);
  }

  async validate(attrs: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> {
    for (const p of this.plugins) await p.validate?.(attrs, lookup);
  }
}
