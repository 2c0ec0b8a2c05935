// DynamicResources, PostFilter only: from 1.34 (DRA on by default) kube-scheduler's failure message carries this
// plugin's "no new claims to deallocate" before the preemption part, for pods without ResourceClaims
// (plugins/dynamicresources/dynamicresources.go PostFilter). Claim allocation itself is not modelled.

import type { CycleState } from '../../framework/cycle-state.js';
import { Status } from '../../framework/status.js';
import type { PostFilterPlugin, PostFilterResult } from '../../interfaces.js';
import type { Pod } from '../../types.js';

export const NAME = 'DynamicResources';

export class DynamicResources implements PostFilterPlugin {
  readonly name = NAME;
  postFilter(_s: CycleState, pod: Pod): PostFilterResult {
    if ((pod.spec?.resourceClaims ?? []).length === 0) return { status: Status.unschedulable('no new claims to deallocate') };
    // Pods with claims: winkube allocates no devices, so there is nothing to deallocate either; say nothing.
    return { status: new Status('Unschedulable') };
  }
}

export const create = (): DynamicResources => new DynamicResources();
