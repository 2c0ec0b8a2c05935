// IP family fields of a Service from the cluster's service CIDRs: ipFamilyPolicy defaulting, ipFamilies inferred from
// clusterIPs or the cluster's families, and the dual-stack refusals, with kube's messages
// (pkg/registry/core/service/storage/alloc.go initIPFamilyFields, isMatchingPreferDualStackClusterIPFields).

import type { Service } from 'kubernetes-types/core/v1.js';
import { fieldErr, StatusError, type FieldError } from '../errors.js';
import { goPolicy, validateServiceClusterIPsRelatedFields } from '../validation/service.js';
import { goStrings } from '../validation/object-meta.js';
import { isIPv4, isIPv6 } from 'node:net';

export type IPFamily = 'IPv4' | 'IPv6';

/** The IPv4-only cluster winkube runs by default (--service-cluster-ip-range=10.96.0.0/12). */
export const IPV4_ONLY: readonly IPFamily[] = ['IPv4'];

const other = (f: string): IPFamily => (f === 'IPv4' ? 'IPv6' : 'IPv4');
const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b?.[i]);
const takesClusterIP = (t: string | undefined) => t === 'ClusterIP' || t === 'NodePort' || t === 'LoadBalancer';

/**
 * A PreferDualStack Service updated without touching its type, clusterIPs or families keeps them even when the
 * cluster gained or lost a family since: it is upgraded or downgraded only on an explicit change.
 */
export function isMatchingPreferDualStack(svc: Service, old: Service | undefined): boolean {
  if (!old) return false;
  const spec = svc.spec ?? {};
  const oldSpec = old.spec ?? {};
  if (!spec.ipFamilyPolicy) return false;
  if (oldSpec.type !== spec.type || !takesClusterIP(spec.type)) return false;
  if (spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  if (oldSpec.ipFamilyPolicy && oldSpec.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameList(oldSpec.clusterIPs, spec.clusterIPs) && sameList(oldSpec.ipFamilies, spec.ipFamilies);
}

/** utils/net familyOf, for addresses validation has already accepted. */
function familyOfIP(ip: string): string {
  return isIPv4(ip) ? 'IPv4' : isIPv6(ip) ? 'IPv6' : 'unknown';
}

function invalid(svc: Service, errs: FieldError[]): StatusError {
  return StatusError.invalid('', 'Service', svc.metadata?.name ?? '', errs);
}

/**
 * Fills in spec.ipFamilyPolicy and spec.ipFamilies for a cluster with `cluster` families (primary first), or throws
 * 422 with kube's field errors. Runs on create and update, before validation and allocation, and in dry runs too.
 */
export function initIPFamilyFields(svc: Service, old: Service | undefined, cluster: readonly IPFamily[]): void {
  const spec = (svc.spec ??= {});
  if (spec.type === 'ExternalName') return;
  if (isMatchingPreferDualStack(svc, old)) return;
  // No static default: an update adopts the old policy, so dropping a secondary always needs an explicit SingleStack.
  if (!spec.ipFamilyPolicy) {
    if (old?.spec?.ipFamilyPolicy) spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
    else if (spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0) spec.ipFamilyPolicy = 'RequireDualStack';
    else spec.ipFamilyPolicy = 'SingleStack';
  }
  const loose = validateServiceClusterIPsRelatedFields(svc);
  if (loose.length) throw invalid(svc, loose);
  const policy = spec.ipFamilyPolicy;
  const errs: FieldError[] = [];
  if (old) {
    if (policy === 'SingleStack') {
      // Setting SingleStack on otherwise unchanged fields is clear intent to drop the secondary.
      if (sameList(old.spec?.clusterIPs, spec.clusterIPs) && (spec.clusterIPs?.length ?? 0) > 1) spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
      if (sameList(old.spec?.ipFamilies, spec.ipFamilies) && (spec.ipFamilies?.length ?? 0) > 1) spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
    } else {
      const reduced = (n: string[] | undefined, o: string[] | undefined) => (n?.length ?? 0) > 0 && n!.length < (o?.length ?? 0);
      if (reduced(spec.clusterIPs, old.spec?.clusterIPs)) {
        errs.push(fieldErr.invalid('spec.ipFamilyPolicy', goPolicy(policy), "must be 'SingleStack' to release the secondary cluster IP"));
      }
      if (reduced(spec.ipFamilies, old.spec?.ipFamilies)) {
        errs.push(fieldErr.invalid('spec.ipFamilyPolicy', goPolicy(policy), "must be 'SingleStack' to release the secondary IP family"));
      }
    }
  }
  if (policy === 'SingleStack') {
    if (spec.clusterIPs?.length === 2) {
      errs.push(fieldErr.invalid('spec.ipFamilyPolicy', goPolicy(policy), "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    }
    if (spec.ipFamilies?.length === 2) {
      errs.push(fieldErr.invalid('spec.ipFamilyPolicy', goPolicy(policy), "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
  }
  // Families follow the IPs the user asked for; an IP of a family the cluster lacks gets the more telling error.
  const families = (spec.ipFamilies ??= []);
  const ips = spec.clusterIPs ?? [];
  for (let i = 0; i < ips.length && ips[i] !== 'None'; i++) {
    if (i < families.length) continue;
    const fam = familyOfIP(ips[i]);
    if (!cluster.includes(fam as IPFamily)) errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, goStrings(spec.clusterIPs), `${fam} is not configured on this cluster`));
    else families.push(fam);
  }
  if (errs.length) throw invalid(svc, errs);
  // Headless without a selector may name both families on any cluster: nothing is allocated for it.
  if (spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0) {
    if (families.length === 0) families.push(cluster[0]);
    if (families.length < 2 && policy !== 'SingleStack') families.push(other(families[0]));
    return;
  }
  if (policy === 'RequireDualStack' && cluster.length < 2) {
    errs.push(fieldErr.invalid('spec.ipFamilyPolicy', goPolicy(policy), 'this cluster is not configured for dual-stack services'));
  }
  families.forEach((f, i) => {
    if (!cluster.includes(f as IPFamily)) errs.push(fieldErr.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
  });
  if (errs.length) throw invalid(svc, errs);
  if (families.length === 0) families.push(cluster[0]);
  if (policy !== 'SingleStack' && families.length === 1 && cluster.length === 2) families.push(other(families[0]));
}
