// The pods strategy: Pending status with QoS on create, spec/status separation on update, defaults,
// validation and field selectors (kubernetes pkg/registry/core/pod/strategy.go).

import type { Pod } from 'kubernetes-types/core/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { validatePod, validatePodStatusUpdate, validatePodUpdate } from '../validation/pod.js';
import { as, copyField, isStatusWrite, sharedOrCopy } from './common.js';
import { defaultPod } from './pod-defaults.js';
import { podQOSClass } from './pod-qos.js';

const SCHEDULING_GATED_MESSAGE = 'Scheduling is blocked due to non-empty scheduling gates';

export const podStrategy = {
  prepareForCreate(obj: KubeObject): void {
    const pod = as<Pod>(obj);
    // QoS is computed on defaulted resources (kube decodes with defaults before this hook runs).
    defaultPod(pod);
    const status: NonNullable<Pod['status']> = { phase: 'Pending', qosClass: podQOSClass(pod) };
    if (pod.spec?.schedulingGates?.length) {
      status.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: SCHEDULING_GATED_MESSAGE }];
    }
    obj.status = status;
  },

  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    if (!isStatusWrite(ctx)) {
      copyField(obj, old, 'status');
      return;
    }
    // pods/status may not touch the spec, owner references (old kubelets corrupted them) or deletion.
    copyField(obj, old, 'spec');
    const m = obj.metadata;
    const o = old.metadata;
    if (o.ownerReferences) m.ownerReferences = sharedOrCopy(o.ownerReferences);
    else delete m.ownerReferences;
    if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
    else delete m.deletionTimestamp;
  },

  defaults(obj: KubeObject): void {
    defaultPod(as<Pod>(obj));
  },

  // A write that keeps the stored spec (a status write: the strategy put it back) has nothing new there to check.
  validate: (obj: KubeObject, old?: KubeObject) => validatePod(as<Pod>(obj), old !== undefined && obj.spec === old.spec),

  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    return isStatusWrite(ctx) ? validatePodStatusUpdate(as<Pod>(obj), as<Pod>(old)) : validatePodUpdate(as<Pod>(obj), as<Pod>(old));
  },

  // pkg/registry/core/pod/strategy.go ToSelectableFields.
  fieldSelectors: {
    'spec.nodeName': (o: KubeObject) => as<Pod>(o).spec?.nodeName ?? '',
    'spec.restartPolicy': (o: KubeObject) => as<Pod>(o).spec?.restartPolicy ?? '',
    'spec.schedulerName': (o: KubeObject) => as<Pod>(o).spec?.schedulerName ?? '',
    'spec.serviceAccountName': (o: KubeObject) => as<Pod>(o).spec?.serviceAccountName ?? '',
    'spec.hostNetwork': (o: KubeObject) => String(as<Pod>(o).spec?.hostNetwork ?? false),
    'status.phase': (o: KubeObject) => as<Pod>(o).status?.phase ?? '',
    'status.podIP': (o: KubeObject) => as<Pod>(o).status?.podIPs?.[0]?.ip ?? as<Pod>(o).status?.podIP ?? '',
    'status.nominatedNodeName': (o: KubeObject) => as<Pod>(o).status?.nominatedNodeName ?? '',
  },
} satisfies Strategy;
