// ServiceAccount admission: pods run as the namespace's `default` ServiceAccount unless they name one, the account
// must exist, and its API token is mounted (plugin/pkg/admission/serviceaccount/admission.go).

import type { Container, Pod, PodSpec, Volume } from 'kubernetes-types/core/v1.js';
import { StatusError } from '../../api/errors.js';
import { randomSuffix } from '../object-meta.js';
import type { AdmissionPlugin } from './interfaces.js';

export const NAME = 'ServiceAccount';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

function tokenVolume(name: string): Volume {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

export function serviceAccount(): AdmissionPlugin {
  return {
    name: NAME,
    admit(a, lookup) {
      if (a.decl.group !== '' || a.decl.plural !== 'pods' || a.operation !== 'CREATE' || a.subresource || !a.object) return;
      const pod = a.object as unknown as Pod;
      const spec = (pod.spec ??= { containers: [] }) as PodSpec;
      // Mirror pods (created by a kubelet from static manifests) keep no ServiceAccount.
      if (pod.metadata?.annotations?.['kubernetes.io/config.mirror']) return;
      spec.serviceAccountName ||= spec.serviceAccount || 'default';
      spec.serviceAccount = spec.serviceAccountName;
      const sa = lookup.get('', 'serviceaccounts', a.namespace, spec.serviceAccountName);
      if (!sa) {
        throw StatusError.forbidden('', 'pods', a.name,
          `error looking up service account ${a.namespace}/${spec.serviceAccountName}: serviceaccount "${spec.serviceAccountName}" not found`);
      }
      const automount = spec.automountServiceAccountToken ?? (sa as { automountServiceAccountToken?: boolean }).automountServiceAccountToken ?? true;
      if (!automount) return;
      const all: Container[] = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
      if (all.some((c) => c.volumeMounts?.some((m) => m.mountPath === TOKEN_MOUNT_PATH))) return;
      const volName = `kube-api-access-${randomSuffix()}`;
      spec.volumes = [...(spec.volumes ?? []), tokenVolume(volName)];
      for (const c of all) c.volumeMounts = [...(c.volumeMounts ?? []), { name: volName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
    },
  };
}
