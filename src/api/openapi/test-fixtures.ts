// ResourceDecls shared by the OpenAPI tests: a few built-in kinds plus one custom resource without a schema.

import type { ResourceDecl } from '../interfaces.js';

const decl = (group: string, version: string, kind: string, plural: string, namespaced: boolean, extra: Partial<ResourceDecl> = {}): ResourceDecl => ({
  group,
  version,
  kind,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
  strategy: {},
  ...extra,
});

export const TEST_DECLS: ResourceDecl[] = [
  decl('', 'v1', 'Pod', 'pods', true, { definition: 'io.k8s.api.core.v1.Pod', subresources: { status: true } }),
  decl('', 'v1', 'Node', 'nodes', false, { definition: 'io.k8s.api.core.v1.Node', subresources: { status: true } }),
  decl('apps', 'v1', 'Deployment', 'deployments', true, {
    definition: 'io.k8s.api.apps.v1.Deployment',
    subresources: {
      status: true,
      scale: { specReplicasPath: ['spec', 'replicas'], statusReplicasPath: ['status', 'replicas'], selector: () => '' },
    },
  }),
  decl('stable.example.com', 'v1', 'CronTab', 'crontabs', true, { verbs: ['get', 'list', 'patch'] }),
];
