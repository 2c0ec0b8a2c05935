// The GMSACredentialSpec CRD as windows-gmsa ships it (admission-webhook/deploy/gmsa-crd.yml, charts/gmsa/crds):
// cluster-scoped gmsacredentialspecs.windows.k8s.io, v1 stored and v1alpha1 served (deprecated), the cred spec under
// the top-level `credspec` field with the Active Directory / domain-join shape.

import type { KubeObject } from '../../api/types.js';
import type { ResourceType } from '../../client/interfaces.js';

export const GMSA_GROUP = 'windows.k8s.io';
export const GMSA_CRD_NAME = 'gmsacredentialspecs.windows.k8s.io';

export const GMSA_CREDENTIAL_SPECS: ResourceType = { group: GMSA_GROUP, version: 'v1', resource: 'gmsacredentialspecs', kind: 'GMSACredentialSpec', namespaced: false };

const str = { type: 'string' };

/** The `credspec` schema both versions share. */
function credspecSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      credspec: {
        description: 'GMSA Credential Spec',
        type: 'object',
        properties: {
          ActiveDirectoryConfig: {
            type: 'object',
            properties: {
              GroupManagedServiceAccounts: { type: 'array', items: { type: 'object', properties: { Name: str, Scope: str } } },
              HostAccountConfig: { type: 'object', properties: { PluginGUID: str, PluginInput: str, PortableCcgVersion: str } },
            },
          },
          CmsPlugins: { type: 'array', items: str },
          DomainJoinConfig: {
            type: 'object',
            properties: { DnsName: str, DnsTreeName: str, Guid: str, MachineAccountName: str, NetBiosName: str, Sid: str },
          },
        },
      },
    },
  };
}

export function gmsaCrdObject(): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: {
      name: GMSA_CRD_NAME,
      annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/tree/master/keps/sig-windows/689-windows-gmsa' },
    },
    spec: {
      group: GMSA_GROUP,
      versions: [
        { name: 'v1alpha1', served: true, storage: false, deprecated: true, schema: { openAPIV3Schema: credspecSchema() } },
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: credspecSchema() } },
      ],
      conversion: { strategy: 'None' },
      names: { kind: 'GMSACredentialSpec', plural: 'gmsacredentialspecs' },
      scope: 'Cluster',
    },
  } as unknown as KubeObject;
}
