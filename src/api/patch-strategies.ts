// Strategic-merge-patch metadata of the built-in types: the `patchStrategy` / `patchMergeKey` struct tags of
// k8s.io/api (core/v1/types.go, apps/v1/types.go, batch/v1, policy/v1, autoscaling/v2, networking/v1) and
// k8s.io/apimachinery (meta/v1 ObjectMeta), keyed by OpenAPI definition name, then JSON field name.
// The OpenAPI generator turns these into x-kubernetes-patch-strategy / x-kubernetes-patch-merge-key.
// discovery/v1, node/v1, coordination/v1 and events/v1 declare no patch strategies, so they have no rows.

export interface PatchStrategy {
  /** `merge`, `retainKeys`, `merge,retainKeys` or `replace`. */
  strategy: string;
  mergeKey?: string;
}

const merge = (mergeKey?: string): PatchStrategy => (mergeKey ? { strategy: 'merge', mergeKey } : { strategy: 'merge' });
const mergeRetain = (mergeKey: string): PatchStrategy => ({ strategy: 'merge,retainKeys', mergeKey });
const conditions = { conditions: merge('type') };

// Container and EphemeralContainer (EphemeralContainerCommon) carry the same tags.
const containerFields = {
  ports: merge('containerPort'),
  env: merge('name'),
  volumeMounts: merge('mountPath'),
  volumeDevices: merge('devicePath'),
};

export const PATCH_STRATEGIES: Record<string, Record<string, PatchStrategy>> = {
  // k8s.io/apimachinery/pkg/apis/meta/v1/types.go
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    finalizers: merge(),
    ownerReferences: merge('uid'),
  },

  // k8s.io/api/core/v1/types.go
  'io.k8s.api.core.v1.PodSpec': {
    volumes: mergeRetain('name'),
    initContainers: merge('name'),
    containers: merge('name'),
    ephemeralContainers: merge('name'),
    imagePullSecrets: merge('name'),
    hostAliases: merge('ip'),
    topologySpreadConstraints: merge('topologyKey'),
    schedulingGates: merge('name'),
    resourceClaims: mergeRetain('name'),
  },
  'io.k8s.api.core.v1.Container': containerFields,
  'io.k8s.api.core.v1.EphemeralContainer': containerFields,
  'io.k8s.api.core.v1.ContainerStatus': {
    volumeMounts: merge('mountPath'),
    allocatedResourcesStatus: merge('name'),
  },
  'io.k8s.api.core.v1.PodStatus': {
    conditions: merge('type'),
    podIPs: merge('ip'),
    hostIPs: merge('ip'),
    resourceClaimStatuses: mergeRetain('name'),
  },
  'io.k8s.api.core.v1.NodeSpec': {
    podCIDRs: merge(),
  },
  'io.k8s.api.core.v1.NodeStatus': {
    conditions: merge('type'),
    addresses: merge('type'),
  },
  'io.k8s.api.core.v1.ServiceSpec': {
    ports: merge('port'),
  },
  'io.k8s.api.core.v1.ServiceStatus': conditions,
  'io.k8s.api.core.v1.ServiceAccount': {
    secrets: merge('name'),
  },
  'io.k8s.api.core.v1.NamespaceStatus': conditions,
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': conditions,
  'io.k8s.api.core.v1.ReplicationControllerStatus': conditions,
  'io.k8s.api.core.v1.ComponentStatus': conditions,

  // k8s.io/api/apps/v1/types.go
  'io.k8s.api.apps.v1.DeploymentSpec': {
    strategy: { strategy: 'retainKeys' },
  },
  'io.k8s.api.apps.v1.DeploymentStatus': conditions,
  'io.k8s.api.apps.v1.ReplicaSetStatus': conditions,
  'io.k8s.api.apps.v1.StatefulSetStatus': conditions,
  'io.k8s.api.apps.v1.DaemonSetStatus': conditions,

  // k8s.io/api/batch/v1, policy/v1, autoscaling/v2, networking/v1 status conditions
  'io.k8s.api.batch.v1.JobStatus': conditions,
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': conditions,
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': conditions,
  'io.k8s.api.networking.v1.ServiceCIDRStatus': conditions,
};
