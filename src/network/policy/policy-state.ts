// What the data plane knows about NetworkPolicy: the policies (indexed by pod selector) and every namespace's labels
// (for namespaceSelector peers), kept from the same informers that feed the rest of the model.

import type { NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import type { Labels } from '../../api/labels.js';
import { compilePolicy } from './compile.js';
import { PolicyIndex } from './policy-index.js';

/** The label the API server puts on every namespace (NamespaceDefaultLabelName, GA in 1.22). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

export class NetworkPolicies {
  readonly index = new PolicyIndex();
  private readonly namespaces = new Map<string, Labels>();
  private readonly listeners = new Set<() => void>();

  /** A policy was added or changed (np given) or deleted. */
  set(namespace: string, name: string, np: NetworkPolicy | undefined): void {
    if (np) this.index.set(compilePolicy(np));
    else this.index.delete(`${namespace}/${name}`);
    this.changed();
  }

  setNamespace(name: string, labels: Labels | undefined | null): void {
    if (labels === null) this.namespaces.delete(name);
    else this.namespaces.set(name, labels);
    this.changed();
  }

  /** A namespace's labels; one not (yet) seen has the name label the API server always gives. */
  namespaceLabels(name: string): Labels {
    return this.namespaces.get(name) ?? { [NAMESPACE_NAME_LABEL]: name };
  }

  /** Called after every change (renderers of the policy, e.g. Calico's HNS ACLs on Windows). */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Pods came, went or changed labels: renderers recompute. */
  changed(): void {
    for (const fn of this.listeners) fn();
  }
}
