// metrics-server as its release manifest installs it (kubernetes-sigs/metrics-server manifests/base, components.yaml
// of v0.7.2): ServiceAccount, the aggregated reader role, its own RBAC, the https Service in kube-system, the
// Deployment, and the `v1beta1.metrics.k8s.io` APIService that puts metrics.k8s.io behind the aggregator. Created
// once; an existing object is left as the user changed it.

import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { APISERVICES } from '../aggregator/resources.js';

export const METRICS_SERVER_NAMESPACE = 'kube-system';
export const METRICS_SERVER_NAME = 'metrics-server';
export const METRICS_SERVER_IMAGE = 'registry.k8s.io/metrics-server/metrics-server:v0.7.2';

export function metricsServerObjects(image = METRICS_SERVER_IMAGE): { rt: ResourceType; obj: KubeObject }[] {
  const ns = METRICS_SERVER_NAMESPACE;
  const label = { 'k8s-app': 'metrics-server' };
  const o = (x: unknown) => x as KubeObject;
  return [
    { rt: R.serviceaccounts, obj: o({ metadata: { name: 'metrics-server', namespace: ns, labels: label } }) },
    {
      rt: R.clusterroles,
      obj: o({
        metadata: {
          name: 'system:aggregated-metrics-reader',
          labels: { ...label, 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
        },
        rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
      }),
    },
    {
      rt: R.clusterroles,
      obj: o({
        metadata: { name: 'system:metrics-server', labels: label },
        rules: [
          { apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] },
          { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] },
        ],
      }),
    },
    {
      rt: R.rolebindings,
      obj: o({
        metadata: { name: 'metrics-server-auth-reader', namespace: ns, labels: label },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'metrics-server', namespace: ns }],
      }),
    },
    ...(['system:auth-delegator', 'system:metrics-server'] as const).map((role) => ({
      rt: R.clusterrolebindings,
      obj: o({
        metadata: { name: role === 'system:auth-delegator' ? 'metrics-server:system:auth-delegator' : 'system:metrics-server', labels: label },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'ServiceAccount', name: 'metrics-server', namespace: ns }],
      }),
    })),
    {
      rt: R.services,
      obj: o({
        metadata: { name: METRICS_SERVER_NAME, namespace: ns, labels: label },
        spec: { ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' }], selector: label },
      }),
    },
    {
      rt: R.deployments,
      obj: o({
        metadata: { name: 'metrics-server', namespace: ns, labels: label },
        spec: {
          selector: { matchLabels: label },
          strategy: { rollingUpdate: { maxUnavailable: 0 } },
          template: {
            metadata: { labels: label },
            spec: {
              containers: [{
                name: 'metrics-server',
                image,
                imagePullPolicy: 'IfNotPresent',
                args: ['--cert-dir=/tmp', '--secure-port=10250', '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname', '--kubelet-use-node-status-port', '--metric-resolution=15s'],
                ports: [{ containerPort: 10250, name: 'https', protocol: 'TCP' }],
                // The manifest waits 20 s before the first readiness check, the time of metrics-server's first scrape;
                // this one has metrics at once, so it is checked from the start.
                readinessProbe: { httpGet: { path: '/readyz', port: 'https', scheme: 'HTTPS' }, periodSeconds: 10, failureThreshold: 3 },
                livenessProbe: { httpGet: { path: '/livez', port: 'https', scheme: 'HTTPS' }, periodSeconds: 10, failureThreshold: 3 },
                resources: { requests: { cpu: '100m', memory: '200Mi' } },
                securityContext: {
                  allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true,
                  runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' },
                },
                volumeMounts: [{ mountPath: '/tmp', name: 'tmp-dir' }],
              }],
              nodeSelector: { 'kubernetes.io/os': 'linux' },
              priorityClassName: 'system-cluster-critical',
              serviceAccountName: 'metrics-server',
              volumes: [{ emptyDir: {}, name: 'tmp-dir' }],
            },
          },
        },
      }),
    },
    {
      rt: APISERVICES,
      obj: o({
        metadata: { name: 'v1beta1.metrics.k8s.io', labels: label },
        spec: {
          group: 'metrics.k8s.io', groupPriorityMinimum: 100, insecureSkipTLSVerify: true,
          service: { name: METRICS_SERVER_NAME, namespace: ns }, version: 'v1beta1', versionPriority: 100,
        },
      }),
    },
  ];
}

/** Creates the add-on's objects that do not exist yet (`kubectl apply -f components.yaml`, once). */
export async function ensureMetricsServer(client: Client, image?: string): Promise<void> {
  for (const { rt, obj } of metricsServerObjects(image)) {
    try {
      await client.get(rt, obj.metadata.namespace, obj.metadata.name!);
      continue;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    await client.create(rt, obj.metadata.namespace, obj).catch((err: unknown) => { if (!isAlreadyExists(err)) throw err; });
  }
}
