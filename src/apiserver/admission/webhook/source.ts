// The webhooks to consult and whether one applies to a request: configurations sorted by name (kube's webhook
// managers), then namespaceSelector, objectSelector and rules, with matchPolicy Equivalent trying the other versions
// of the same stored resource (generic/webhook.go ShouldCallHook, predicates/namespace, predicates/object).

import { StatusError } from '../../../api/errors.js';
import type { ResourceDecl } from '../../../api/interfaces.js';
import { labelSelectorAsSelector } from '../../../api/labels.js';
import { resourcePrefix } from '../../../api/registry.js';
import type { KubeObject } from '../../../api/types.js';
import type { Webhook } from '../../../api/validation/admission-registration.js';
import type { AdmissionAttributes, AdmissionLookup } from '../interfaces.js';
import type { GVK, Invocation } from './review.js';
import { requestNamespace } from './review.js';
import { ruleMatches, type RuleTarget } from './rules.js';

export interface HookEntry {
  hook: Webhook;
  configuration: string;
  /** `<configuration>/<webhook>/<index>`, as kube's webhook accessor UID (reinvocation keys on it). */
  uid: string;
}

const GROUP = 'admissionregistration.k8s.io';

export function webhooksOf(lookup: AdmissionLookup, plural: 'validatingwebhookconfigurations' | 'mutatingwebhookconfigurations'): HookEntry[] {
  const configs = [...lookup.list(GROUP, plural)].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  const out: HookEntry[] = [];
  for (const c of configs) {
    const name = c.metadata.name ?? '';
    ((c.webhooks ?? []) as Webhook[]).forEach((hook, i) => out.push({ hook, configuration: name, uid: `${name}/${hook.name ?? ''}/${i}` }));
  }
  return out;
}

/** The other served versions stored the same way (EquivalentResourceMapper), e.g. autoscaling/v1 for v2 HPAs. */
export type Equivalents = (decl: ResourceDecl) => ResourceDecl[];

export function equivalentsFrom(decls: () => readonly ResourceDecl[]): Equivalents {
  return (decl) => {
    const prefix = resourcePrefix(decl.storedAs ?? decl);
    return decls().filter((d) => d !== decl && resourcePrefix(d.storedAs ?? d) === prefix);
  };
}

function labelsOf(o: KubeObject | undefined): Record<string, string> | undefined {
  return o?.metadata?.labels;
}

/** MatchNamespaceSelector: cluster-scoped objects always match; a missing namespace is its NotFound. */
function namespaceMatches(hook: Webhook, a: AdmissionAttributes, lookup: AdmissionLookup): boolean {
  const ns = requestNamespace(a);
  const isNamespace = !a.decl.group && a.decl.plural === 'namespaces';
  if (!ns && !isNamespace) return true;
  const sel = labelSelectorAsSelector(hook.namespaceSelector ?? {});
  if (sel.empty()) return true;
  let labels: Record<string, string> | undefined;
  if (isNamespace && !a.subresource && (a.operation === 'CREATE' || a.operation === 'UPDATE')) labels = labelsOf(a.object);
  else {
    const found = lookup.get('', 'namespaces', undefined, ns);
    if (!found) throw StatusError.notFound('', 'namespaces', ns);
    labels = labelsOf(found);
  }
  return sel.matches(labels);
}

/** MatchObjectSelector: the new or the old object's labels. */
function objectMatches(hook: Webhook, a: AdmissionAttributes): boolean {
  const sel = labelSelectorAsSelector(hook.objectSelector ?? {});
  if (sel.empty()) return true;
  return (!!a.object && sel.matches(labelsOf(a.object))) || (!!a.oldObject && sel.matches(labelsOf(a.oldObject)));
}

function target(a: AdmissionAttributes, d: ResourceDecl): RuleTarget {
  return { operation: a.operation, group: d.group, version: d.version, resource: d.plural, subresource: a.subresource, namespace: requestNamespace(a) };
}

const invocationFor = (d: ResourceDecl, sub: string): Invocation => ({
  kind: { group: d.group, version: d.version, kind: d.kind }, resource: { group: d.group, version: d.version, resource: d.plural }, subresource: sub, decl: d,
});

/**
 * The kind of a request's subresource in an equivalent version (the EquivalentResourceMapper's KindFor of the
 * resource and subresource). A subresource with an object of its own has the same kind in every version winkube
 * serves: a scale subresource's is autoscaling/v1 Scale for apps/v1 and for every version of a custom resource
 * (only the unserved extensions/v1beta1, apps/v1beta1 and apps/v1beta2 had Scales of their own, per
 * ScaleREST.GroupVersionKind), and token, binding and eviction belong to core/v1 pods and ServiceAccounts, which
 * have no other versions.
 */
function subresourceKindIn(_equivalent: ResourceDecl, kind: GVK): GVK {
  return kind;
}

/** ShouldCallHook: selectors first (a selector error only counts if a rule matches), then rules. */
export function shouldCall(hook: Webhook, a: AdmissionAttributes, lookup: AdmissionLookup, equivalents?: Equivalents): Invocation | undefined {
  let nsError: unknown;
  try {
    if (!namespaceMatches(hook, a, lookup)) return undefined;
  } catch (err) {
    nsError = err;
  }
  let objError: unknown;
  try {
    if (!objectMatches(hook, a)) return undefined;
  } catch (err) {
    objError = StatusError.internal(String((err as Error).message ?? err));
  }
  const rules = hook.rules ?? [];
  let inv: Invocation | undefined;
  if (rules.some((r) => ruleMatches(r, target(a, a.decl)))) inv = { ...invocationFor(a.decl, a.subresource), ...(a.kind ? { kind: a.kind } : {}) };
  else if ((hook.matchPolicy ?? 'Equivalent') === 'Equivalent' && equivalents) {
    const eqs = equivalents(a.decl);
    // Earlier rules first, as kube's OuterLoop does.
    outer: for (const r of rules) {
      for (const d of eqs) {
        if (ruleMatches(r, target(a, d))) {
          inv = { ...invocationFor(d, a.subresource), ...(a.kind ? { kind: subresourceKindIn(d, a.kind) } : {}) };
          break outer;
        }
      }
    }
  }
  if (!inv) return undefined;
  if (nsError) throw nsError;
  if (objError) throw objError;
  return inv;
}
