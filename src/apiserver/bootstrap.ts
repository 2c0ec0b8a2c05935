// What kube-apiserver's bootstrap controllers create: the system namespaces, the `kubernetes` Service with its
// Endpoints and EndpointSlice, and the system PriorityClasses. Idempotent, so a restart on old data is a no-op.

import { isAlreadyExists, isConflict, isNotFound } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client, ResourceType } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { SYSTEM_PRIORITY_CLASSES } from './admission/priority.js';
import { danglingCondition, FLOW_SCHEMAS, PRIORITY_LEVELS } from './bootstrap-flowcontrol.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export interface BootstrapConfig {
  /** ClusterIP of the `kubernetes` Service (first address of the service CIDR). */
  apiServiceIP: string;
  /** Address and port the API server advertises to pods (Endpoints of the `kubernetes` Service). */
  advertiseAddress: string;
  advertisePort: number;
}

const PRIORITY_CLASSES: ResourceType = { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false };
const FLOW = 'flowcontrol.apiserver.k8s.io';
const FLOW_SCHEMAS_RT: ResourceType = { group: FLOW, version: 'v1', resource: 'flowschemas', kind: 'FlowSchema', namespaced: false };
const PRIORITY_LEVELS_RT: ResourceType = { group: FLOW, version: 'v1', resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false };

/**
 * APF bootstrap (apiserver pkg/apis/flowcontrol/bootstrap). The default ServiceCIDR is kept by its own controller
 * (allocators/default-service-cidr.ts), which the control plane starts after this.
 */
async function bootstrapFlowControl(client: Client): Promise<void> {
  for (const pl of PRIORITY_LEVELS) await ensure(client, PRIORITY_LEVELS_RT, structuredClone(pl) as unknown as KubeObject);
  for (const fs of FLOW_SCHEMAS) {
    await ensure(client, FLOW_SCHEMAS_RT, structuredClone(fs) as unknown as KubeObject);
    const cur = await client.get(FLOW_SCHEMAS_RT, undefined, fs.metadata!.name!);
    if (!(cur.status as { conditions?: unknown[] } | undefined)?.conditions?.length) {
      // The condition dates from the schema's creation: the level it names is created just before it.
      cur.status = { conditions: [danglingCondition(fs.spec!.priorityLevelConfiguration.name, cur.metadata.creationTimestamp ?? '')] };
      try {
        await client.update(FLOW_SCHEMAS_RT, undefined, cur, { subresource: 'status' });
      } catch (err) {
        // API servers sharing one etcd bootstrap at once; whichever wrote the condition first is as good.
        if (!isConflict(err)) throw err;
      }
    }
  }
}

async function ensure(client: Client, rt: ResourceType, obj: KubeObject): Promise<void> {
  try {
    await client.create(rt, obj.metadata.namespace, obj);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

export async function bootstrapCluster(client: Client, cfg: BootstrapConfig): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) await ensure(client, R.namespaces, { metadata: { name } });
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    await ensure(client, PRIORITY_CLASSES, { metadata: { name: pc.name }, value: pc.value, description: pc.description, preemptionPolicy: 'PreemptLowerPriority' } as KubeObject);
  }
  try {
    await client.get(R.services, 'default', 'kubernetes');
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await ensure(client, R.services, {
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: {
        type: 'ClusterIP', clusterIP: cfg.apiServiceIP, clusterIPs: [cfg.apiServiceIP], sessionAffinity: 'None',
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: cfg.advertisePort }],
      },
    });
  }
  await ensure(client, R.endpoints, {
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: cfg.advertiseAddress }], ports: [{ name: 'https', port: cfg.advertisePort, protocol: 'TCP' }] }],
  } as KubeObject);
  await ensure(client, R.endpointslices, {
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [cfg.advertiseAddress], conditions: { ready: true } }],
    ports: [{ name: 'https', port: cfg.advertisePort, protocol: 'TCP' }],
  } as KubeObject);
  await bootstrapFlowControl(client);
}
