// The DNS add-on as kubeadm installs it (kubernetes cmd/kubeadm/app/phases/addons/dns/manifests.go): the coredns
// ServiceAccount, ClusterRole and binding, the Corefile ConfigMap, the kube-dns Service at the tenth Service address
// and the coredns Deployment. Created once; an existing object is left as the user changed it.

import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { CLUSTER_DOMAIN } from './zone.js';

/** kubeadm 1.33's CoreDNS (kubeadm constants CoreDNSVersion). */
export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.12.0';
export const DNS_SERVICE_NAME = 'kube-dns';
export const DNS_NAMESPACE = 'kube-system';


export interface DnsAddonConfig {
  /** kube-dns's ClusterIP (kubeadm: the tenth address of the Service CIDR). */
  dnsIP: string;
  domain?: string;
  replicas?: number;
  image?: string;
}

/** kubeadm's Corefile, cluster domain filled in (the cache block skipping the cluster domain came with kubeadm 1.32). */
export function corefile(domain = CLUSTER_DOMAIN): string {
  return `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes ${domain} in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success ${domain}
       disable denial ${domain}
    }
    loop
    reload
    loadbalance
}
`;
}

export function dnsAddonObjects(cfg: DnsAddonConfig): { rt: ResourceType; obj: KubeObject }[] {
  const ns = DNS_NAMESPACE;
  const label = { 'k8s-app': 'kube-dns' };
  const o = (x: unknown) => x as KubeObject;
  return [
    { rt: R.serviceaccounts, obj: o({ metadata: { name: 'coredns', namespace: ns } }) },
    {
      rt: R.clusterroles,
      obj: o({
        metadata: { name: 'system:coredns' },
        rules: [
          { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
          { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
        ],
      }),
    },
    {
      rt: R.clusterrolebindings,
      obj: o({
        metadata: { name: 'system:coredns' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
        subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: ns }],
      }),
    },
    { rt: R.configmaps, obj: o({ metadata: { name: 'coredns', namespace: ns }, data: { Corefile: corefile(cfg.domain) } }) },
    {
      rt: R.services,
      obj: o({
        metadata: {
          name: DNS_SERVICE_NAME, namespace: ns,
          labels: { ...label, 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
          annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
        },
        spec: {
          clusterIP: cfg.dnsIP,
          ports: [
            { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
            { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
            { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
          ],
          selector: label,
        },
      }),
    },
    {
      rt: R.deployments,
      obj: o({
        metadata: { name: 'coredns', namespace: ns, labels: label },
        spec: {
          replicas: cfg.replicas ?? 2,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
          selector: { matchLabels: label },
          template: {
            metadata: { labels: label },
            spec: {
              priorityClassName: 'system-cluster-critical',
              serviceAccountName: 'coredns',
              affinity: {
                podAntiAffinity: {
                  preferredDuringSchedulingIgnoredDuringExecution: [{
                    weight: 100,
                    podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] }, topologyKey: 'kubernetes.io/hostname' },
                  }],
                },
              },
              tolerations: [
                { key: 'CriticalAddonsOnly', operator: 'Exists' },
                { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
              ],
              nodeSelector: { 'kubernetes.io/os': 'linux' },
              containers: [{
                name: 'coredns',
                image: cfg.image ?? COREDNS_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
                args: ['-conf', '/etc/coredns/Corefile'],
                volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
                ports: [
                  { containerPort: 53, name: 'dns', protocol: 'UDP' },
                  { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                  { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
                  { containerPort: 8080, name: 'liveness-probe', protocol: 'TCP' },
                  { containerPort: 8181, name: 'readiness-probe', protocol: 'TCP' },
                ],
                livenessProbe: {
                  httpGet: { path: '/health', port: 'liveness-probe', scheme: 'HTTP' },
                  initialDelaySeconds: 60, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 5,
                },
                readinessProbe: { httpGet: { path: '/ready', port: 'readiness-probe', scheme: 'HTTP' } },
                securityContext: {
                  allowPrivilegeEscalation: false,
                  capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
                  readOnlyRootFilesystem: true,
                },
              }],
              dnsPolicy: 'Default',
              volumes: [{ name: 'config-volume', configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] } }],
            },
          },
        },
      }),
    },
    // winkube's own: its DNS server (running as the coredns ServiceAccount) publishes its address on kube-dns.
    {
      rt: R.roles,
      obj: o({
        metadata: { name: 'winkube:dns-address-publisher', namespace: ns },
        rules: [{ apiGroups: [''], resources: ['services'], resourceNames: [DNS_SERVICE_NAME], verbs: ['get', 'patch'] }],
      }),
    },
    {
      rt: R.rolebindings,
      obj: o({
        metadata: { name: 'winkube:dns-address-publisher', namespace: ns },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'winkube:dns-address-publisher' },
        subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: ns }],
      }),
    },
  ];
}

/** Creates the add-on's objects that do not exist yet (kubeadm `init phase addon coredns`). */
export async function ensureDnsAddon(client: Client, cfg: DnsAddonConfig): Promise<void> {
  for (const { rt, obj } of dnsAddonObjects(cfg)) {
    try {
      // Look first: creating kube-dns again would fail on its ClusterIP (already allocated) before AlreadyExists.
      await client.get(rt, obj.metadata.namespace, obj.metadata.name!);
      continue;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await client.create(rt, obj.metadata.namespace, obj);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
}
