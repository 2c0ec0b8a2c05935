// Table printing for networking.k8s.io/v1 (pkg/printers/internalversion/printers.go printNetworkPolicy,
// printIngress, printIngressClass, printServiceCIDR, printIPAddress).

import type { Ingress, IngressClass, NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import type { IPAddress, ServiceCIDR } from '../validation/networking.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';
import { formatLabelSelector } from './selector-string.js';

const age = (o: KubeObject, now: number) => translateTimestampSince(o.metadata?.creationTimestamp, now);

/** formatHosts: up to three hosts, then "+ N more..."; "*" when no rule names a host. */
export function formatHosts(rules: { host?: string }[] | undefined): string {
  const list: string[] = [];
  const all = rules ?? [];
  let more = false;
  for (const r of all) {
    if (list.length === 3) more = true;
    if (!more && r.host) list.push(r.host);
  }
  if (!list.length) return '*';
  return more ? `${list.join(',')} + ${all.length - 3} more...` : list.join(',');
}

/** ingressLoadBalancerStatusStringer, wide (the server always prints wide): IPs and hostnames, sorted, unique. */
function ingressAddress(ing: Ingress): string {
  const set = new Set<string>();
  for (const i of ing.status?.loadBalancer?.ingress ?? []) {
    if (i.ip) set.add(i.ip);
    if (i.hostname) set.add(i.hostname);
  }
  return [...set].sort().join(',');
}

export const NETWORK_POLICY_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Pod-Selector', 'string', 'Selects the pods to which this NetworkPolicy object applies.'), AGE_COLUMN],
  row: (obj, now): TableCell[] => [obj.metadata.name ?? '', formatLabelSelector((obj as unknown as NetworkPolicy).spec?.podSelector), age(obj, now)],
};

export const INGRESS_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  row: (obj, now): TableCell[] => {
    const ing = obj as unknown as Ingress;
    return [obj.metadata.name ?? '', ing.spec?.ingressClassName ?? '<none>', formatHosts(ing.spec?.rules), ingressAddress(ing), ing.spec?.tls?.length ? '80, 443' : '80', age(obj, now)];
  },
};

export const INGRESS_CLASS_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  row: (obj, now): TableCell[] => {
    const p = (obj as unknown as IngressClass).spec?.parameters;
    const params = p ? `${p.kind}${p.apiGroup ? `.${p.apiGroup}` : ''}/${p.name}` : '<none>';
    return [obj.metadata.name ?? '', (obj as unknown as IngressClass).spec?.controller ?? '', params, age(obj, now)];
  },
};

export const SERVICE_CIDR_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('CIDRs', 'string', 'Network CIDRs of the ServiceCIDR'), AGE_COLUMN],
  row: (obj, now): TableCell[] => [obj.metadata.name ?? '', ((obj as unknown as ServiceCIDR).spec?.cidrs ?? []).join(','), age(obj, now)],
};

export const IP_ADDRESS_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('ParentRef', 'string', 'The object this IPAddress belongs to'), AGE_COLUMN],
  row: (obj, now): TableCell[] => {
    const ref = (obj as unknown as IPAddress).spec?.parentRef;
    let parent = '<none>';
    if (ref) {
      // schema.GroupResource.String(): "resource" or "resource.group", lower-cased.
      parent = (ref.group ? `${ref.resource}.${ref.group}` : ref.resource ?? '').toLowerCase();
      if (ref.namespace) parent += `/${ref.namespace}`;
      parent += `/${ref.name}`;
    }
    return [obj.metadata.name ?? '', parent, age(obj, now)];
  },
};
