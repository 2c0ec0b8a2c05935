// NamespaceLifecycle admission: no new objects in missing or terminating namespaces, and the system namespaces
// cannot be deleted (staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go).

import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';

export const NAME = 'NamespaceLifecycle';

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);
/** How long after a namespace DELETE its creates skip the cache and ask storage (admission.go forceLiveLookupTTL). */
export const FORCE_LIVE_LOOKUP_TTL_MS = 30_000;
/** How many recently deleted namespaces are remembered (NewLRUExpireCacheWithClock(100, …)). */
const FORCE_LIVE_LOOKUP_SIZE = 100;

export interface NamespaceLifecycleOptions {
  /** Milliseconds since the epoch (the cluster's injectable clock); the live-lookup memory expires by it. */
  now?: () => number;
}

/** A namespace's phase as the plugin reads it: Terminating once deletion has begun. */
function phaseOf(ns: { metadata: { deletionTimestamp?: string }; status?: unknown }): string | undefined {
  if (ns.metadata.deletionTimestamp) return 'Terminating';
  return (ns.status as { phase?: string } | undefined)?.phase;
}

export function namespaceLifecycle(o: NamespaceLifecycleOptions = {}): AdmissionPlugin {
  const now = o.now ?? Date.now;
  // Namespaces deleted through this server lately, by expiry time, oldest first (Map keeps insertion order).
  const forceLive = new Map<string, number>();
  const remember = (name: string) => {
    forceLive.delete(name);
    forceLive.set(name, now() + FORCE_LIVE_LOOKUP_TTL_MS);
    if (forceLive.size > FORCE_LIVE_LOOKUP_SIZE) forceLive.delete(forceLive.keys().next().value as string);
  };
  const recentlyDeleted = (name: string): boolean => {
    const until = forceLive.get(name);
    if (until === undefined) return false;
    if (until > now()) return true;
    forceLive.delete(name);
    return false;
  };
  /** The namespace as storage holds it, past the watch cache: kube's "last resort" client GET. */
  const live = async (lookup: AdmissionLookup, name: string) => (lookup.getLive ? lookup.getLive('', 'namespaces', undefined, name) : lookup.get('', 'namespaces', undefined, name));

  return {
    name: NAME,
    // A mutating-phase plugin in kube (lifecycle.go Admit), so a missing namespace is reported before anything else.
    // Not async: the hot path (a cached, not recently deleted namespace) decides at once and the chain does not wait.
    admit(a, lookup) {
      const isNamespace = a.decl.group === '' && a.decl.plural === 'namespaces';
      if (isNamespace) {
        if (a.operation === 'DELETE') {
          if (IMMORTAL.has(a.name)) throw StatusError.forbidden('', 'namespaces', a.name, 'this namespace may not be deleted');
          // Our cache may still show it Active for a moment: creates into it look at storage for a while.
          remember(a.name);
        }
        return;
      }
      if (!a.decl.namespaced || a.operation !== 'CREATE' || a.subresource) return;
      const ns = lookup.get('', 'namespaces', undefined, a.namespace);
      // A miss (a namespace created a moment ago that the watch cache has not seen yet, e.g. on etcd where a server
      // learns its own writes from the watch) or a namespace deleted lately that the cache still shows Active is
      // settled by a read of storage; the hot path (a cached, not recently deleted namespace) reads nothing more.
      if (!ns || (phaseOf(ns) !== 'Terminating' && recentlyDeleted(a.namespace))) {
        return live(lookup, a.namespace).then((stored) => {
          if (!stored) throw StatusError.notFound('', 'namespaces', a.namespace);
          refuseIfTerminating(a, stored);
        });
      }
      refuseIfTerminating(a, ns);
    },
  };
}

/** Creates in a namespace being deleted are refused with kube's cause, which clients recognise. */
function refuseIfTerminating(a: AdmissionAttributes, ns: KubeObject): void {
  if (phaseOf(ns) !== 'Terminating') return;
  const err = StatusError.forbidden(a.decl.group, a.decl.plural, a.name,
    `unable to create new content in namespace ${a.namespace} because it is being terminated`);
  // v1.NamespaceTerminatingCause, which clients (the namespace controller, kubectl) recognise.
  if (err.details) err.details.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }];
  throw err;
}
