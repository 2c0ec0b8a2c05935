// The API objects a pod names, as the Node authorizer's graph records them (pkg/api/v1/pod/util.go
// VisitPodSecretNames / VisitPodConfigmapNames, plugin/pkg/auth/authorizer/node/graph.go AddPod): a kubelet may read
// exactly these for the pods bound to it.

import type { Container, Pod, Volume } from 'kubernetes-types/core/v1.js';

export interface PodReferences {
  secrets: string[];
  configMaps: string[];
  claims: string[];
  serviceAccount?: string;
  resourceClaims: string[];
}

type AnyContainer = Pick<Container, 'env' | 'envFrom'>;

function allContainers(pod: Pod): AnyContainer[] {
  const s = pod.spec;
  return [...(s?.initContainers ?? []), ...(s?.containers ?? []), ...((s?.ephemeralContainers ?? []) as AnyContainer[])];
}

/** Secret names of a volume source (VisitPodSecretNames' volume cases). */
function volumeSecrets(v: Volume, add: (n: string | undefined) => void): void {
  add(v.secret?.secretName);
  add(v.azureFile?.secretName);
  add(v.cephfs?.secretRef?.name);
  add(v.cinder?.secretRef?.name);
  add(v.flexVolume?.secretRef?.name);
  add(v.rbd?.secretRef?.name);
  add(v.iscsi?.secretRef?.name);
  add(v.scaleIO?.secretRef?.name);
  add(v.storageos?.secretRef?.name);
  add(v.csi?.nodePublishSecretRef?.name);
  for (const src of v.projected?.sources ?? []) add(src.secret?.name);
}

export function podReferences(pod: Pod): PodReferences {
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const claims = new Set<string>();
  const addSecret = (n: string | undefined) => { if (n) secrets.add(n); };
  const addConfigMap = (n: string | undefined) => { if (n) configMaps.add(n); };
  for (const ref of pod.spec?.imagePullSecrets ?? []) addSecret(ref.name);
  for (const c of allContainers(pod)) {
    for (const e of c.envFrom ?? []) {
      addSecret(e.secretRef?.name);
      addConfigMap(e.configMapRef?.name);
    }
    for (const e of c.env ?? []) {
      addSecret(e.valueFrom?.secretKeyRef?.name);
      addConfigMap(e.valueFrom?.configMapKeyRef?.name);
    }
  }
  for (const v of pod.spec?.volumes ?? []) {
    volumeSecrets(v, addSecret);
    addConfigMap(v.configMap?.name);
    for (const src of v.projected?.sources ?? []) addConfigMap(src.configMap?.name);
    if (v.persistentVolumeClaim?.claimName) claims.add(v.persistentVolumeClaim.claimName);
    // A generic ephemeral volume's claim is named <pod>-<volume> (pkg/volume/util/ephemeral).
    if (v.ephemeral) claims.add(`${pod.metadata?.name}-${v.name}`);
  }
  const resourceClaims: string[] = [];
  for (const s of (pod.status as { resourceClaimStatuses?: { resourceClaimName?: string }[] } | undefined)?.resourceClaimStatuses ?? []) {
    if (s.resourceClaimName) resourceClaims.push(s.resourceClaimName);
  }
  return {
    secrets: [...secrets], configMaps: [...configMaps], claims: [...claims], resourceClaims,
    serviceAccount: pod.spec?.serviceAccountName || undefined,
  };
}
