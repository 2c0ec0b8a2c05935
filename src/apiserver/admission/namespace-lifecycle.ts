// NamespaceLifecycle admission: no new objects in missing or terminating namespaces, and the system namespaces
// cannot be deleted (plugin/pkg/admission/namespace/lifecycle/admission.go).

import { StatusError } from '../../api/errors.js';
import type { AdmissionPlugin } from './interfaces.js';

export const NAME = 'NamespaceLifecycle';

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);

export function namespaceLifecycle(): AdmissionPlugin {
  return {
    name: NAME,
    // A mutating-phase plugin in kube (lifecycle.go Admit), so a missing namespace is reported before anything else.
    admit(a, lookup) {
      const isNamespace = a.decl.group === '' && a.decl.plural === 'namespaces';
      if (isNamespace) {
        if (a.operation === 'DELETE' && IMMORTAL.has(a.name)) {
          throw StatusError.forbidden('', 'namespaces', a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (!a.decl.namespaced || a.operation !== 'CREATE' || a.subresource) return;
      const ns = lookup.get('', 'namespaces', undefined, a.namespace);
      if (!ns) throw StatusError.notFound('', 'namespaces', a.namespace);
      if (ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') {
        throw StatusError.forbidden(a.decl.group, a.decl.plural, a.name,
          `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      }
    },
  };
}
