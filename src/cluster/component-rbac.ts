// What winkube's own components need beyond kube's bootstrap policy, as explicit minimal ClusterRoles: the node agent's
// shared informers (one cluster-wide watch per resource for all the kubelets it hosts, where each real kubelet would
// watch only its own objects) and the dashboard's reads. Written at start like kubeadm's own RBAC objects.

import { isAlreadyExists, isNotFound } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client, ResourceType } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { NODE_AGENTS_ORG } from '../bootstrap/node-agent-identity.js';

const RBAC = 'rbac.authorization.k8s.io';
const READ = ['get', 'list', 'watch'];

/** The group of node agents' own identity (not system:nodes: the Node authorizer is what limits kubelets). */
export const NODE_AGENTS_GROUP = NODE_AGENTS_ORG;
export const NODE_AGENT_USER = 'system:winkube:node-agent';
export const NODE_AGENT_ROLE = 'winkube:node-agent-informers';
export const DASHBOARD_USER = 'system:winkube:dashboard';
export const DASHBOARD_ROLE = 'winkube:dashboard';
/** The stop-gap that bound broad rights to every node before the Node authorizer; removed where it still exists. */
const LEGACY_NODE_AGENT_BINDING = 'winkube:node-agent';

function objects(): [ResourceType, KubeObject][] {
  const binding = (name: string, kind: 'User' | 'Group', subject: string): [ResourceType, KubeObject] => [R.clusterrolebindings, {
    apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name }, subjects: [{ apiGroup: RBAC, kind, name: subject }],
  } as KubeObject];
  return [
    [R.clusterroles, {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: NODE_AGENT_ROLE },
      rules: [
        // What src/node/agent.ts's informers watch; kubelets read through them, then act as system:node:<name>.
        { apiGroups: [''], resources: ['pods', 'nodes', 'configmaps', 'secrets', 'services', 'namespaces', 'persistentvolumeclaims', 'persistentvolumes'], verbs: READ },
        // src/node/join/cluster-settings.ts: where pods reach the API server (the `kubernetes` Endpoints).
        { apiGroups: [''], resources: ['endpoints'], verbs: ['get'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: READ },
        { apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'], verbs: READ },
        { apiGroups: ['storage.k8s.io'], resources: ['csidrivers', 'volumeattachments'], verbs: READ },
        // The labels NodeRestriction refuses a kubelet (node-role.kubernetes.io/*), set after registration as kubeadm does.
        { apiGroups: [''], resources: ['nodes'], verbs: ['patch'] },
      ],
    } as KubeObject],
    binding(NODE_AGENT_ROLE, 'Group', NODE_AGENTS_GROUP),
    [R.clusterroles, {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: DASHBOARD_ROLE },
      // src/dashboard/snapshot-source.ts: nodes, pods, deployments and events everywhere; nothing it writes.
      rules: [
        { apiGroups: [''], resources: ['nodes', 'pods', 'events'], verbs: READ },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: READ },
      ],
    } as KubeObject],
    binding(DASHBOARD_ROLE, 'User', DASHBOARD_USER),
  ];
}

/** Idempotent; a server without the RBAC API (404 on the resource) is left alone. */
export async function ensureComponentRbac(client: Client): Promise<void> {
  for (const [rt, obj] of objects()) {
    try {
      await client.create(rt, obj.metadata.namespace, obj);
    } catch (err) {
      if (!isAlreadyExists(err) && !isNotFound(err)) throw err;
    }
  }
  // A data directory from before the Node authorizer: its binding gave every node every secret through RBAC.
  for (const rt of [R.clusterrolebindings, R.clusterroles]) {
    await client.delete(rt, undefined, LEGACY_NODE_AGENT_BINDING).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
}
