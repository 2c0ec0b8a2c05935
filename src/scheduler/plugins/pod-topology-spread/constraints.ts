// Topology spread constraints as the scheduler uses them: parsed selectors (with matchLabelKeys merged in), the
// nil-field defaults, the node inclusion policies, the cluster-level default constraints and their selector
// (podtopologyspread/common.go, plugin.go; plugins/helper/spread.go DefaultSelector).

import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1.js';
import { labelSelectorAsSelector, selectorFromSet, Selector, type Requirement } from '../../../api/labels.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { Pod } from '../../types.js';
import { tolerationsTolerateTaint } from '../../util/tolerations.js';
import { requiredMatches, type compileRequired } from '../node-affinity/index.js';
import type { ObjectListers } from './listers.js';

export type Action = 'DoNotSchedule' | 'ScheduleAnyway';
export type RequiredAffinity = ReturnType<typeof compileRequired>;
type Labels = Readonly<Record<string, string>>;

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';

/** The internal form of a v1.TopologySpreadConstraint (common.go topologySpreadConstraint). */
export interface Constraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  minDomains: number;
  /** Honor: only nodes matching the pod's nodeSelector/required affinity count (the default). */
  nodeAffinityHonor: boolean;
  /** Honor: nodes with a NoSchedule/NoExecute taint the pod does not tolerate are left out (default Ignore). */
  nodeTaintsHonor: boolean;
}

/** kube-scheduler's system defaults (plugin.go systemDefaultConstraints): soft spreading by host and by zone. */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = [
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LABEL_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

/**
 * The constraints with the given action, parsed (filterTopologySpreadConstraints). matchLabelKeys (on by default
 * since 1.27) adds `key=value` for each listed key the pod carries. Throws SelectorError on a bad selector.
 */
export function filterConstraints(list: readonly TopologySpreadConstraint[], podLabels: Labels, action: Action): Constraint[] {
  const out: Constraint[] = [];
  for (const c of list) {
    if (c.whenUnsatisfiable !== action) continue;
    let selector = labelSelectorAsSelector(c.labelSelector);
    if (c.matchLabelKeys?.length) {
      const extra: Requirement[] = [];
      for (const k of c.matchLabelKeys) {
        if (Object.prototype.hasOwnProperty.call(podLabels, k)) extra.push({ key: k, operator: '=', values: [podLabels[k]!] });
      }
      // mergeLabelSetWithSelector: a nil selector has no requirements to keep, so only the pod's labels remain.
      if (extra.length) selector = Selector.of([...extra, ...(selector.nothing ? [] : selector.requirements)]);
    }
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      minDomains: c.minDomains ?? 1,
      nodeAffinityHonor: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      nodeTaintsHonor: (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor',
    });
  }
  return out;
}

/** The pod's own constraints with `action`, or else the defaults with the pod's default selector (getConstraints). */
export function podConstraints(pod: Pod, action: Action, defaults: readonly TopologySpreadConstraint[], listers: ObjectListers): Constraint[] {
  const own = pod.spec?.topologySpreadConstraints;
  const labels = pod.metadata.labels ?? {};
  if (own && own.length) return filterConstraints(own, labels, action);
  const cs = filterConstraints(defaults, labels, action);
  if (cs.length === 0) return cs;
  const selector = defaultSelector(pod, listers);
  if (selector.empty()) return [];
  for (const c of cs) c.selector = selector;
  return cs;
}

const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * The selector of the Services selecting the pod, plus its controlling ReplicationController's, ReplicaSet's or
 * StatefulSet's selector (helper/spread.go DefaultSelector).
 */
export function defaultSelector(pod: Pod, listers: ObjectListers): Selector {
  const ns = pod.metadata.namespace ?? '';
  const podLabels = pod.metadata.labels ?? {};
  let set: Record<string, string> = {};
  for (const svc of listers.services?.(ns) ?? []) {
    const sel = svc.spec?.selector;
    // A Service without a selector matches no pod (GetPodServices).
    if (!sel) continue;
    if (Object.entries(sel).every(([k, v]) => hasOwn(podLabels, k) && podLabels[k] === v)) set = { ...set, ...sel };
  }
  let selector = selectorFromSet(set);
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller);
  if (!owner) return selector;
  const add = (ls: Parameters<typeof labelSelectorAsSelector>[0]) => {
    try {
      const other = labelSelectorAsSelector(ls);
      if (!other.nothing) selector = Selector.of([...selector.requirements, ...other.requirements]);
    } catch {
      // An unparsable controller selector adds nothing, as kube ignores the error.
    }
  };
  if (owner.apiVersion === 'v1' && owner.kind === 'ReplicationController') {
    const rc = listers.replicationController?.(ns, owner.name);
    if (rc) selector = selectorFromSet({ ...set, ...(rc.spec?.selector ?? {}) });
  } else if (owner.apiVersion === 'apps/v1' && owner.kind === 'ReplicaSet') {
    const rs = listers.replicaSet?.(ns, owner.name);
    if (rs) add(rs.spec?.selector);
  } else if (owner.apiVersion === 'apps/v1' && owner.kind === 'StatefulSet') {
    const ss = listers.statefulSet?.(ns, owner.name);
    if (ss) add(ss.spec?.selector);
  }
  return selector;
}

/** Whether the node carries every constraint's topology key (nodeLabelsMatchSpreadConstraints). */
export function nodeHasAllKeys(labels: Labels, constraints: readonly Constraint[]): boolean {
  for (let i = 0; i < constraints.length; i++) if (!hasOwn(labels, constraints[i]!.topologyKey)) return false;
  return true;
}

/** Whether the node is a domain member for this constraint under its inclusion policies (matchNodeInclusionPolicies). */
export function nodeIncluded(c: Constraint, pod: Pod, ni: NodeInfo, required: RequiredAffinity): boolean {
  if (c.nodeAffinityHonor && !requiredMatches(required, ni.name, ni.labels)) return false;
  if (c.nodeTaintsHonor) {
    // NodeInfo.hardTaints holds the NoSchedule/NoExecute taints (helper.DoNotScheduleTaintsFilterFunc).
    const tolerations = pod.spec?.tolerations;
    for (const t of ni.hardTaints) if (!tolerationsTolerateTaint(tolerations, t)) return false;
  }
  return true;
}

/**
 * Pods on the node in `namespace` matching `selector`, terminating pods excepted (countPodsMatchSelector). Every
 * scheduling cycle of a spread pod counts on every node; the answer is remembered per node until its pods change, so
 * a burst of one owner's pods costs a count only on the node the last one went to.
 */
export function countMatching(ni: NodeInfo, selector: Selector, namespace: string): number {
  if (selector.nothing) return 0;
  const key = countKey(selector, namespace);
  const known = ni.rememberedCount(key);
  if (known !== undefined) return known;
  let n = 0;
  for (const pi of ni.pods.values()) {
    const p = pi.pod;
    if (p.metadata.deletionTimestamp || (p.metadata.namespace ?? '') !== namespace) continue;
    if (selector.matches(p.metadata.labels)) n++;
  }
  ni.rememberCount(key, n);
  return n;
}

// Callers loop over nodes with one selector: the last key is reused without rebuilding the string.
let last: { selector: Selector; namespace: string; key: string } | undefined;
function countKey(selector: Selector, namespace: string): string {
  if (last?.selector === selector && last.namespace === namespace) return last.key;
  last = { selector, namespace, key: `${namespace}\n${selector.toString()}` };
  return last.key;
}
