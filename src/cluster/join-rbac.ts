// The RBAC objects kubeadm init creates so nodes can join (phases/bootstrap-token/clusterinfo and node/tlsbootstrap.go):
// anonymous read of cluster-info, and the bindings that let bootstrap tokens ask for node certificates and have them
// auto-approved. The ClusterRoles they name are kube's bootstrap policy (the RBAC authorizer's to serve); what a joined
// node may read is the Node authorizer's to decide (src/apiserver/authz/node).

import { isAlreadyExists, isNotFound } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client, ResourceType } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { DEFAULT_NODE_TOKEN_GROUP } from '../bootstrap/token.js';

const RBAC = 'rbac.authorization.k8s.io';
const role = (kind: string, name: string) => ({ apiGroup: RBAC, kind, name });

function joinObjects(): [ResourceType, KubeObject][] {
  const clusterBinding = (name: string, roleName: string, group: string): [ResourceType, KubeObject] => [R.clusterrolebindings, {
    apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name },
    roleRef: role('ClusterRole', roleName), subjects: [{ apiGroup: RBAC, kind: 'Group', name: group }],
  } as KubeObject];
  return [
    [R.roles, {
      apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'kubeadm:bootstrap-signer-clusterinfo', namespace: 'kube-public' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['get'] }],
    } as KubeObject],
    [R.rolebindings, {
      apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'kubeadm:bootstrap-signer-clusterinfo', namespace: 'kube-public' },
      roleRef: role('Role', 'kubeadm:bootstrap-signer-clusterinfo'), subjects: [{ apiGroup: RBAC, kind: 'User', name: 'system:anonymous' }],
    } as KubeObject],
    clusterBinding('kubeadm:kubelet-bootstrap', 'system:node-bootstrapper', DEFAULT_NODE_TOKEN_GROUP),
    clusterBinding('kubeadm:node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', DEFAULT_NODE_TOKEN_GROUP),
    clusterBinding('kubeadm:node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes'),
  ];
}

/** Idempotent; a server without the RBAC API (404 on the resource) is left alone. */
export async function ensureJoinRbac(client: Client): Promise<void> {
  for (const [rt, obj] of joinObjects()) {
    try {
      await client.create(rt, obj.metadata.namespace, obj);
    } catch (err) {
      if (!isAlreadyExists(err) && !isNotFound(err)) throw err;
    }
  }
}
