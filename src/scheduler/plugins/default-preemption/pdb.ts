// Which preemption victims would break a PodDisruptionBudget (framework/preemption/preemption.go
// filterPodsWithPDBViolation). Budgets are counted down as victims are assigned to them, in the order given.

import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { labelSelectorAsSelector, type Selector } from '../../../api/labels.js';
import type { PodInfo } from '../../framework/node-info.js';

export interface PdbSplit {
  violating: PodInfo[];
  nonViolating: PodInfo[];
}

/** A PDB's selector; undefined when it is invalid, which kube treats as matching nothing. */
function selectorOf(pdb: PodDisruptionBudget): Selector | undefined {
  try {
    return labelSelectorAsSelector(pdb.spec?.selector);
  } catch {
    return undefined;
  }
}

export function filterPodsWithPDBViolation(pods: readonly PodInfo[], pdbs: readonly PodDisruptionBudget[]): PdbSplit {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const selectors = pdbs.map(selectorOf);
  const out: PdbSplit = { violating: [], nonViolating: [] };
  for (const pi of pods) {
    const { labels, namespace, name } = pi.pod.metadata;
    let violated = false;
    // A pod without labels matches no PDB.
    if (labels && Object.keys(labels).length) {
      for (let i = 0; i < pdbs.length; i++) {
        const pdb = pdbs[i]!, sel = selectors[i];
        if (pdb.metadata?.namespace !== namespace) continue;
        // A nil or empty selector matches nothing here (unlike a Deployment's).
        if (!sel || sel.empty() || !sel.matches(labels)) continue;
        // Already counted by the API server's eviction handler: not a new disruption.
        if (pdb.status?.disruptedPods && name! in pdb.status.disruptedPods) continue;
        if (--allowed[i]! < 0) violated = true;
      }
    }
    (violated ? out.violating : out.nonViolating).push(pi);
  }
  return out;
}
