// The APIService strategy (staging/src/k8s.io/kube-aggregator/pkg/registry/apiservice/strategy.go, v1 defaults.go):
// status cleared on create, Local APIServices available at once, spec and status each written only through their
// own endpoint.

import { rfc3339 } from '../../util/clock.js';
import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { type ApiService, validateApiService, validateApiServiceStatusUpdate, validateApiServiceUpdate } from '../validation/apiregistration.js';
import { copyField, isStatusWrite } from './common.js';

/** NewLocalAvailableAPIServiceCondition (pkg/apis/apiregistration/helpers.go). */
export function localAvailableCondition(now: number): { type: string; status: string; lastTransitionTime: string; reason: string; message: string } {
  return { type: 'Available', status: 'True', lastTransitionTime: rfc3339(now), reason: 'Local', message: 'Local APIServices are always available' };
}

export const apiServiceStrategy = {
  // SetDefaults_ServiceReference.
  defaults: (obj: KubeObject) => {
    const svc = (obj as ApiService).spec?.service;
    if (svc) svc.port ??= 443;
  },
  prepareForCreate: (obj, ctx) => {
    const svc = obj as ApiService;
    delete svc.status;
    // "mark local API services as immediately available on create"
    if (!svc.spec?.service) svc.status = { conditions: [localAvailableCondition(ctx.now)] };
  },
  prepareForUpdate: (obj, old, ctx) => {
    if (!isStatusWrite(ctx)) {
      copyField(obj, old, 'status');
      return;
    }
    // The status strategy keeps spec, labels, annotations, finalizers and owner references.
    copyField(obj, old, 'spec');
    for (const f of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
      if (old.metadata[f] === undefined) delete obj.metadata[f];
      else (obj.metadata as Record<string, unknown>)[f] = structuredClone(old.metadata[f]);
    }
  },
  validate: validateApiService,
  validateUpdate: (obj, old, ctx) => (isStatusWrite(ctx) ? validateApiServiceStatusUpdate(obj, old) : validateApiServiceUpdate(obj, old)),
} satisfies Strategy;
