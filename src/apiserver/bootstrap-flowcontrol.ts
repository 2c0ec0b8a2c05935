// The API Priority and Fairness objects kube-apiserver keeps in every cluster (k8s.io/apiserver
// pkg/apis/flowcontrol/bootstrap/default.go): the mandatory exempt/catch-all pair and the suggested levels and
// schemas, each with `apf.kubernetes.io/autoupdate-spec: "true"`. winkube serves them; it does not queue requests.

import type { FlowSchema, PolicyRulesWithSubjects, PriorityLevelConfiguration, Subject } from 'kubernetes-types/flowcontrol/v1.js';
import type { KubeObject } from '../api/types.js';

export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
const meta = (name: string) => ({ name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } });

function queued(name: string, shares: number, lendable: number, queues: number, handSize: number): PriorityLevelConfiguration {
  return {
    metadata: meta(name),
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent: lendable, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } } },
  };
}

export const PRIORITY_LEVELS: PriorityLevelConfiguration[] = [
  { metadata: meta('catch-all'), spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } } },
  { metadata: meta('exempt'), spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
  queued('system', 30, 33, 64, 6),
  queued('node-high', 40, 25, 64, 6),
  queued('leader-election', 10, 0, 16, 4),
  queued('workload-high', 40, 50, 128, 6),
  queued('workload-low', 100, 90, 128, 6),
  queued('global-default', 20, 50, 128, 6),
];

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemSAs = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } }));
const everything = (subjects: Subject[]): PolicyRulesWithSubjects => ({
  subjects,
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
});
const rule = (verbs: string[], apiGroups: string[], resources: string[], clusterScope = false) => ({ verbs, apiGroups, resources, namespaces: ['*'], ...(clusterScope ? { clusterScope } : {}) });

function schema(name: string, level: string, precedence: number, method: 'ByUser' | 'ByNamespace' | undefined, rules: PolicyRulesWithSubjects): FlowSchema {
  return {
    metadata: meta(name),
    spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: precedence, ...(method ? { distinguisherMethod: { type: method } } : {}), rules: [rules] },
  };
}

const CM = 'system:kube-controller-manager', SCHED = 'system:kube-scheduler';
export const FLOW_SCHEMAS: FlowSchema[] = [
  schema('exempt', 'exempt', 1, undefined, everything(groups('system:masters'))),
  schema('catch-all', 'catch-all', 10000, 'ByUser', everything(groups('system:unauthenticated', 'system:authenticated'))),
  schema('system-nodes', 'system', 500, 'ByUser', everything(groups('system:nodes'))),
  schema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups('system:nodes'),
    resourceRules: [rule(['*'], [''], ['nodes', 'nodes/status'], true), rule(['*'], ['coordination.k8s.io'], ['leases'])],
  }),
  schema('probes', 'exempt', 2, undefined, {
    subjects: groups('system:unauthenticated', 'system:authenticated'),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  schema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users(CM, SCHED), ...kubeSystemSAs('*')],
    resourceRules: [rule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'])],
  }),
  schema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemSAs('*'),
    resourceRules: [rule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps']), rule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'])],
  }),
  schema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [...users(CM), ...kubeSystemSAs('endpoint-controller', 'endpointslicemirroring-controller')],
    resourceRules: [rule(['get', 'create', 'update'], [''], ['endpoints'])],
  }),
  schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(users(CM))),
  schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(SCHED))),
  schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(kubeSystemSAs('*'))),
  schema('service-accounts', 'workload-low', 9000, 'ByUser', everything(groups('system:serviceaccounts'))),
  schema('global-default', 'global-default', 9900, 'ByUser', everything(groups('system:unauthenticated', 'system:authenticated'))),
];

/** The Dangling=False condition the API server's config controller writes for a schema whose level exists. */
export function danglingCondition(level: string, now: string): KubeObject {
  return {
    type: 'Dangling', status: 'False', lastTransitionTime: now, reason: 'Found',
    message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists`,
  } as unknown as KubeObject;
}
