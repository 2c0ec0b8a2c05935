// The fields Go's encoding/json writes for a typed object even when they are zero, for the kinds webhooks see most
// (k8s.io/api v0.33 core/v1/types.go, apps/v1/types.go): a non-pointer struct field is never omitted (`omitempty`
// does not apply to structs), so it goes out as `{}`; a zero non-pointer metav1.Time goes out as `null`
// (Time.MarshalJSON); a scalar without `omitempty` goes out as its zero value. Pointer, slice and map fields with
// `omitempty` are left out, so they are not listed. ConfigMap and Secret have no such fields.

/** How a field is written when absent: `{}` (completed in turn), `null` (metav1.Time) or a scalar zero value. */
export type GoZero = 'struct' | null | 0 | '' | false;

export interface GoZeroFields {
  /** The JSON names of every field of the Go struct, in struct order (encoding/json writes them in this order). */
  order: readonly string[];
  /** The fields Go always writes, with their zero value. */
  zero: Readonly<Record<string, GoZero>>;
}

const CONTAINER_ORDER = ['name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'resizePolicy',
  'restartPolicy', 'volumeMounts', 'volumeDevices', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle',
  'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty'];
const TOP = ['apiVersion', 'kind', 'metadata', 'spec', 'status'];
const SPEC_STATUS: Record<string, GoZero> = { spec: 'struct', status: 'struct' };

/** By OpenAPI definition name. */
export const GO_ZERO_FIELDS: Readonly<Record<string, GoZeroFields>> = {
  // core/v1
  'io.k8s.api.core.v1.Pod': { order: TOP, zero: SPEC_STATUS },
  'io.k8s.api.core.v1.PodTemplateSpec': { order: ['metadata', 'spec'], zero: { spec: 'struct' } },
  'io.k8s.api.core.v1.Container': { order: CONTAINER_ORDER, zero: { resources: 'struct' } },
  // EphemeralContainerCommon, inline.
  'io.k8s.api.core.v1.EphemeralContainer': { order: [...CONTAINER_ORDER, 'targetContainerName'], zero: { resources: 'struct' } },
  'io.k8s.api.core.v1.ContainerStatus': {
    order: ['name', 'state', 'lastState', 'ready', 'restartCount', 'image', 'imageID', 'containerID', 'started', 'allocatedResources',
      'resources', 'volumeMounts', 'user', 'allocatedResourcesStatus', 'stopSignal'],
    zero: { state: 'struct', lastState: 'struct', ready: false, restartCount: 0, image: '', imageID: '' },
  },
  'io.k8s.api.core.v1.PodCondition': {
    order: ['type', 'observedGeneration', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message'],
    zero: { lastProbeTime: null, lastTransitionTime: null },
  },
  'io.k8s.api.core.v1.Service': { order: TOP, zero: SPEC_STATUS },
  'io.k8s.api.core.v1.ServiceStatus': { order: ['loadBalancer', 'conditions'], zero: { loadBalancer: 'struct' } },
  'io.k8s.api.core.v1.Namespace': { order: TOP, zero: SPEC_STATUS },
  'io.k8s.api.core.v1.NamespaceCondition': { order: ['type', 'status', 'lastTransitionTime', 'reason', 'message'], zero: { lastTransitionTime: null } },
  // apps/v1
  'io.k8s.api.apps.v1.Deployment': { order: TOP, zero: SPEC_STATUS },
  'io.k8s.api.apps.v1.DeploymentSpec': {
    order: ['replicas', 'selector', 'template', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds'],
    zero: { template: 'struct', strategy: 'struct' },
  },
  'io.k8s.api.apps.v1.DeploymentCondition': {
    order: ['type', 'status', 'lastUpdateTime', 'lastTransitionTime', 'reason', 'message'],
    zero: { lastUpdateTime: null, lastTransitionTime: null },
  },
  'io.k8s.api.apps.v1.ReplicaSet': { order: TOP, zero: SPEC_STATUS },
  'io.k8s.api.apps.v1.ReplicaSetSpec': { order: ['replicas', 'minReadySeconds', 'selector', 'template'], zero: { template: 'struct' } },
  'io.k8s.api.apps.v1.ReplicaSetStatus': {
    order: ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration', 'conditions'],
    zero: { replicas: 0 },
  },
  'io.k8s.api.apps.v1.ReplicaSetCondition': { order: ['type', 'status', 'lastTransitionTime', 'reason', 'message'], zero: { lastTransitionTime: null } },
  'io.k8s.api.apps.v1.StatefulSet': { order: TOP, zero: SPEC_STATUS },
  'io.k8s.api.apps.v1.StatefulSetSpec': {
    order: ['replicas', 'selector', 'template', 'volumeClaimTemplates', 'serviceName', 'podManagementPolicy', 'updateStrategy',
      'revisionHistoryLimit', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy', 'ordinals'],
    zero: { template: 'struct', serviceName: '', updateStrategy: 'struct' },
  },
  'io.k8s.api.apps.v1.StatefulSetStatus': {
    order: ['observedGeneration', 'replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'currentRevision', 'updateRevision',
      'collisionCount', 'conditions', 'availableReplicas'],
    zero: { replicas: 0, availableReplicas: 0 },
  },
  'io.k8s.api.apps.v1.DaemonSet': { order: TOP, zero: SPEC_STATUS },
  'io.k8s.api.apps.v1.DaemonSetSpec': {
    order: ['selector', 'template', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit'],
    zero: { template: 'struct', updateStrategy: 'struct' },
  },
  'io.k8s.api.apps.v1.DaemonSetStatus': {
    order: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration',
      'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount', 'conditions'],
    zero: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  },
};

/**
 * `obj` (a fresh copy the caller owns) with the always-written fields of `definition` it lacks, each placed before the
 * first present field that Go writes after it. Returns `obj` itself when nothing is missing.
 */
export function withGoZeroFields(definition: string, obj: Record<string, unknown>): Record<string, unknown> {
  const t = GO_ZERO_FIELDS[definition];
  if (!t) return obj;
  const missing = Object.keys(t.zero).filter((k) => !(k in obj));
  if (!missing.length) return obj;
  const rank = (k: string) => {
    const i = t.order.indexOf(k);
    return i < 0 ? t.order.length : i;
  };
  const out: Record<string, unknown> = {};
  const pending = missing.sort((a, b) => rank(a) - rank(b));
  const zeroOf = (k: string) => (t.zero[k] === 'struct' ? {} : t.zero[k]);
  for (const [k, v] of Object.entries(obj)) {
    while (pending.length && rank(pending[0]!) < rank(k)) {
      const m = pending.shift()!;
      out[m] = zeroOf(m);
    }
    out[k] = v;
  }
  for (const m of pending) out[m] = zeroOf(m);
  return out;
}
