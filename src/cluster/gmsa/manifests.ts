// The GMSA webhook as the windows-gmsa Helm chart installs it into kube-system (charts/gmsa/templates, values.yaml;
// release `gmsa-webhook`, cert-manager off so the serving Secret is given): ServiceAccount, ClusterRole and binding,
// the TLS Secret, the Deployment of the webhook image on Linux nodes, its Service, and both webhook configurations.

import type { KubeObject } from '../../api/types.js';
import type { ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { GMSA_GROUP } from './crd.js';

export const GMSA_NAMESPACE = 'kube-system';
export const GMSA_RELEASE = 'gmsa-webhook';
/** charts/gmsa values.yaml image.repository:image.tag. */
export const GMSA_WEBHOOK_IMAGE = 'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.13.0';
/** certificates.secretName. */
export const GMSA_CERT_SECRET = 'gmsa-server-cert';
/** The webhook name both configurations use, which kube's denial wrapper quotes. */
export const GMSA_WEBHOOK_NAME = 'admission-webhook.windows-gmsa.sigs.k8s.io';

export const MUTATING_WEBHOOKS: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false };
export const VALIDATING_WEBHOOKS: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };

const CHART_LABELS = { chart: 'gmsa-0.13.0' };
const APP = { app: GMSA_RELEASE };
const o = (x: unknown) => x as KubeObject;

/** The serving certificate (create-signed-cert.sh: the Service's DNS names, signed by the cluster CA) and its CA. */
export interface GmsaTls { caCert: string; cert: string; key: string }

export function gmsaServiceDnsNames(): string[] {
  return [GMSA_RELEASE, `${GMSA_RELEASE}.${GMSA_NAMESPACE}`, `${GMSA_RELEASE}.${GMSA_NAMESPACE}.svc`];
}

/** Everything but the webhook configurations, which wait for a ready endpoint (see install.ts). */
export function gmsaWebhookWorkload(tls: GmsaTls): { rt: ResourceType; obj: KubeObject }[] {
  const ns = GMSA_NAMESPACE;
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return [
    { rt: R.serviceaccounts, obj: o({ metadata: { name: GMSA_RELEASE, namespace: ns, labels: CHART_LABELS } }) },
    {
      // clusterrole.yaml: read cred specs and ask LocalSubjectAccessReviews (the chart also grants `use`).
      rt: R.clusterroles,
      obj: o({
        metadata: { name: GMSA_RELEASE, labels: CHART_LABELS },
        rules: [
          { apiGroups: [GMSA_GROUP], resources: ['gmsacredentialspecs'], verbs: ['get', 'use'] },
          { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
        ],
      }),
    },
    {
      rt: R.clusterrolebindings,
      obj: o({
        metadata: { name: GMSA_RELEASE, labels: CHART_LABELS },
        subjects: [{ kind: 'ServiceAccount', name: GMSA_RELEASE, namespace: ns }],
        roleRef: { kind: 'ClusterRole', name: GMSA_RELEASE, apiGroup: 'rbac.authorization.k8s.io' },
      }),
    },
    {
      // The chart's secret keys (ca.crt, tls.crt, tls.key), as cert-manager would write them.
      rt: R.secrets,
      obj: o({ metadata: { name: GMSA_CERT_SECRET, namespace: ns }, type: 'kubernetes.io/tls', data: { 'ca.crt': b64(tls.caCert), 'tls.crt': b64(tls.cert), 'tls.key': b64(tls.key) } }),
    },
    {
      rt: R.services,
      obj: o({ metadata: { name: GMSA_RELEASE, namespace: ns, labels: CHART_LABELS }, spec: { ports: [{ port: 443, targetPort: 443 }], selector: APP } }),
    },
    {
      rt: R.deployments,
      obj: o({
        metadata: { name: GMSA_RELEASE, namespace: ns, labels: CHART_LABELS },
        spec: {
          replicas: 2,
          selector: { matchLabels: APP },
          template: {
            metadata: { labels: APP },
            spec: {
              serviceAccountName: GMSA_RELEASE,
              // The chart's `affinity` and `tolerations` values, set as deploy-gmsa-webhook.sh --tolerate-master does,
              // plus spreading: one replica per Linux node, so draining the worker leaves pods admissible.
              affinity: {
                podAntiAffinity: {
                  preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: APP }, topologyKey: 'kubernetes.io/hostname' } }],
                },
              },
              tolerations: [
                { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
                { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
              ],
              nodeSelector: { 'kubernetes.io/os': 'linux' },
              containers: [{
                name: GMSA_RELEASE,
                image: GMSA_WEBHOOK_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                readinessProbe: { httpGet: { scheme: 'HTTPS', path: '/health', port: 443 } },
                ports: [{ containerPort: 443 }],
                volumeMounts: [{ name: 'tls', mountPath: '/tls', readOnly: true }],
                env: [
                  { name: 'TLS_KEY', value: '/tls/key' },
                  { name: 'TLS_CRT', value: '/tls/crt' },
                  { name: 'HTTPS_PORT', value: '443' },
                  { name: 'BURST', value: '50' },
                  { name: 'QPS', value: '30' },
                  { name: 'RANDOM_HOSTNAME', value: 'false' },
                ],
                args: ['--cert-reload=false'],
              }],
              volumes: [{ name: 'tls', secret: { secretName: GMSA_CERT_SECRET, items: [{ key: 'tls.key', path: 'key' }, { key: 'tls.crt', path: 'crt' }] } }],
              os: { name: 'linux' },
            },
          },
        },
      }),
    },
  ];
}

/** mutatingwebhook.yaml / validatingwebhook.yaml: every pod outside the release namespace, failurePolicy Fail. */
export function gmsaWebhookConfigurations(caCert: string): { rt: ResourceType; obj: KubeObject }[] {
  const hook = (path: string, operations: string[]) => ({
    name: GMSA_WEBHOOK_NAME,
    clientConfig: { service: { name: GMSA_RELEASE, namespace: GMSA_NAMESPACE, path }, caBundle: Buffer.from(caCert).toString('base64') },
    rules: [{ operations, apiGroups: [''], apiVersions: ['*'], resources: ['pods'] }],
    failurePolicy: 'Fail',
    admissionReviewVersions: ['v1', 'v1beta1'],
    sideEffects: 'None',
    namespaceSelector: {
      matchExpressions: [
        { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [GMSA_NAMESPACE] },
        { key: 'windows.k8s.io/disabled', operator: 'NotIn', values: ['true'] },
      ],
    },
  });
  return [
    { rt: MUTATING_WEBHOOKS, obj: o({ metadata: { name: GMSA_RELEASE, labels: CHART_LABELS }, webhooks: [hook('/mutate', ['CREATE'])] }) },
    { rt: VALIDATING_WEBHOOKS, obj: o({ metadata: { name: GMSA_RELEASE, labels: CHART_LABELS }, webhooks: [hook('/validate', ['CREATE', 'UPDATE'])] }) },
  ];
}
