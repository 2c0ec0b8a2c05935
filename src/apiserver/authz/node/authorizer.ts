// The Node authorizer (plugin/pkg/auth/authorizer/node/node_authorizer.go): a kubelet (system:node:<name> in
// system:nodes) reads only the secrets, configmaps, claims, volumes, ServiceAccount tokens and attachments of the pods
// bound to it, its own Node, Lease and CSINode; everything else is the static system:node rules. Anything refused is
// NoOpinion with kube's reason, so RBAC is asked next (--authorization-mode=Node,RBAC).

import { parseFieldSelector } from '../../../api/field-selectors.js';
import type { UserInfo } from '../../admission/interfaces.js';
import { CLUSTER_ROLES } from '../bootstrap/cluster-roles.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, ResolvedRules, RuleResolver } from '../interfaces.js';
import { ruleAllows, type PolicyRule } from '../rbac/rules.js';
import type { NodeGraph, VertexType } from './graph.js';
import { nodeIdentity } from './identity.js';

export const NAME = 'Node';
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export interface NodeAuthorizerOptions {
  /** The AuthorizeNodeWithSelectors gate (beta and on since 1.32): nodes list/watch only their own pods and Node. */
  authorizeNodeWithSelectors?: boolean;
}

const ALLOW: AuthorizationResult = { decision: 'Allow' };
const no = (reason = ''): AuthorizationResult => ({ decision: 'NoOpinion', reason });

/** bootstrappolicy.NodeRules(): what every node may do where the graph does not subdivide access. */
function nodeRules(): PolicyRule[] {
  return CLUSTER_ROLES.find((r) => r.name === 'system:node')?.rules ?? [];
}

/** Whether the request's field selector has `field=value` (fields.Requirements with selection.Equals). */
function selects(a: AuthorizationAttributes, field: string, value: string): boolean {
  if (!a.fieldSelector) return false;
  try {
    return parseFieldSelector(a.fieldSelector).some((r) => r.field === field && r.operator === '=' && r.value === value);
  } catch {
    return false;
  }
}

export class NodeAuthorizer implements Authorizer, RuleResolver {
  readonly name = NAME;
  private readonly rules = nodeRules();
  private readonly withSelectors: boolean;

  constructor(private readonly graph: NodeGraph, o: NodeAuthorizerOptions = {}) {
    this.withSelectors = o.authorizeNodeWithSelectors ?? true;
  }

  authorize(a: AuthorizationAttributes): AuthorizationResult {
    const { isNode, nodeName } = nodeIdentity(a.user);
    if (!isNode) return no();
    if (!nodeName) return no(`unknown node for user "${a.user.name}"`);
    if (a.isResourceRequest) {
      switch (`${a.group}/${a.resource}`) {
        case '/secrets': return this.readNamespacedObject(nodeName, 'secret', a);
        case '/configmaps': return this.readNamespacedObject(nodeName, 'configmap', a);
        case '/persistentvolumeclaims':
          return a.subresource === 'status' ? this.statusUpdate(nodeName, 'pvc', a) : this.get(nodeName, 'pvc', a);
        case '/persistentvolumes': return this.get(nodeName, 'pv', a);
        case 'resource.k8s.io/resourceclaims': return this.get(nodeName, 'resourceclaim', a);
        case 'storage.k8s.io/volumeattachments': return this.get(nodeName, 'volumeattachment', a);
        case '/serviceaccounts': return this.createToken(nodeName, a);
        case 'coordination.k8s.io/leases': return this.lease(nodeName, a);
        case 'storage.k8s.io/csinodes': return this.csiNode(nodeName, a);
        case '/nodes': if (this.withSelectors) return this.node(nodeName, a); break;
        case '/pods': if (this.withSelectors) return this.pod(nodeName, a); break;
      }
    }
    return this.rules.some((r) => ruleAllows(r, a)) ? ALLOW : no();
  }

  /** Nodes have no enumerable rules (RulesFor): a SelfSubjectRulesReview of a node is incomplete. */
  rulesFor(user: UserInfo): ResolvedRules {
    const empty: ResolvedRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
    if (!nodeIdentity(user).isNode) return empty;
    return { ...empty, incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
  }

  private statusUpdate(node: string, type: VertexType, a: AuthorizationAttributes): AuthorizationResult {
    if (a.verb !== 'update' && a.verb !== 'patch') return no('can only get/update/patch this type');
    if (a.subresource !== 'status') return no('can only update status subresource');
    return this.related(node, type, a);
  }

  private get(node: string, type: VertexType, a: AuthorizationAttributes): AuthorizationResult {
    if (a.verb !== 'get') return no('can only get individual resources of this type');
    if (a.subresource) return no('cannot get subresource');
    return this.related(node, type, a);
  }

  /** get, and list/watch of one object (a `metadata.name` field selector names it, as kube's RequestInfo reads it). */
  private readNamespacedObject(node: string, type: VertexType, a: AuthorizationAttributes): AuthorizationResult {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return no('can only read resources of this type');
    if (a.subresource) return no('cannot read subresource');
    if (!a.namespace) return no('can only read namespaced object of this type');
    return this.related(node, type, a);
  }

  private related(node: string, type: VertexType, a: AuthorizationAttributes): AuthorizationResult {
    if (!a.name) return no('No Object name found');
    return this.graph.hasPathFrom(node, type, a.namespace, a.name) ? ALLOW : no(`no relationship found between node '${node}' and this object`);
  }

  private createToken(node: string, a: AuthorizationAttributes): AuthorizationResult {
    if (a.verb !== 'create' || !a.name) return no('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return no('can only create token subresource of serviceaccount');
    return this.graph.hasPathFrom(node, 'serviceaccount', a.namespace, a.name) ? ALLOW : no(`no relationship found between node '${node}' and this object`);
  }

  private lease(node: string, a: AuthorizationAttributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE) return no(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    // The name of a create is not known here; NodeRestriction checks it.
    if (a.verb !== 'create' && a.name !== node) return no('can only access node lease with the same name as the requesting node');
    return ALLOW;
  }

  private csiNode(node: string, a: AuthorizationAttributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource) return no('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node) return no('can only access CSINode with the same name as the requesting node');
    return ALLOW;
  }

  /** Writes are NodeRestriction's to limit; reads by name only, so a kubelet can read its Node before it exists. */
  private node(node: string, a: AuthorizationAttributes): AuthorizationResult {
    if (!a.subresource) {
      if (a.verb === 'create' || a.verb === 'update' || a.verb === 'patch') return ALLOW;
      if (a.verb === 'get' || a.verb === 'list' || a.verb === 'watch') {
        if (a.name === node) return ALLOW;
        if (!a.name) return no(`node '${node}' cannot read all nodes, only its own Node object`);
        return no(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return ALLOW;
    }
    return no();
  }

  private pod(node: string, a: AuthorizationAttributes): AuthorizationResult {
    switch (a.subresource) {
      case '':
        if (a.verb === 'get') return this.get(node, 'pod', a);
        if (a.verb === 'list' || a.verb === 'watch') {
          if (selects(a, 'spec.nodeName', node)) return ALLOW;
          if (a.name) return this.related(node, 'pod', a);
          return no('can only list/watch pods with spec.nodeName field selector');
        }
        // Mirror pods; NodeRestriction limits them to the node's own.
        if (a.verb === 'create' || a.verb === 'delete') return ALLOW;
        break;
      case 'status':
        if (a.verb === 'update' || a.verb === 'patch') return ALLOW;
        break;
      case 'eviction':
        if (a.verb === 'create') return ALLOW;
        break;
    }
    return no();
  }
}
