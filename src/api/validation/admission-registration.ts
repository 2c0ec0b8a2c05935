// Validation of Validating/MutatingWebhookConfiguration with kube's paths and messages
// (kubernetes pkg/apis/admissionregistration/validation/validation.go; the URL and service rules are
// staging/src/k8s.io/apiserver/pkg/util/webhook/validation.go).

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import type { KubeObject } from '../types.js';
import { validateLabelSelector } from './labels.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum, nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta } from './object-meta.js';
import { GoValue } from './go-value.js';
import { compile, type Declarations } from '../cel/compile.js';
import { admissionDeclarations } from '../cel/admission-declarations.js';

/** Webhook conditions see object, oldObject, request and authorizer; no params (webhook/accessors.go). */
export const WEBHOOK_CONDITION_DECLARATIONS = { params: false, authorizer: true };
const webhookConditionDeclarations = () => admissionDeclarations(WEBHOOK_CONDITION_DECLARATIONS);

export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  caBundle?: string;
}

export interface Webhook {
  name?: string;
  clientConfig?: WebhookClientConfig;
  rules?: WebhookRule[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: string;
  matchConditions?: { name?: string; expression?: string }[];
}

const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];

const goStrings = (v: string[]) => new GoValue(v, `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`);

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function isFullyQualifiedName(path: string, name: string | undefined): FieldError[] {
  if (!name) return [fieldErr.required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length) return [fieldErr.invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [fieldErr.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** validateResources: subresource wildcards may not overlap, and the all-resources wildcards stand alone. */
function validateResources(resources: string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = resources ?? [];
  if (list.length === 0) errs.push(fieldErr.required(path));
  const resWithWildSub = new Set<string>();
  const subWithWildRes = new Set<string>();
  let doubleWild = false;
  let singleWild = false;
  let plain = false;
  list.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(fieldErr.required(`${path}[${i}]`));
      return;
    }
    if (resSub === '*/*') doubleWild = true;
    if (resSub === '*') singleWild = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      plain = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (resWithWildSub.has(res)) errs.push(fieldErr.invalid(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildRes.has(sub)) errs.push(fieldErr.invalid(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') resWithWildSub.add(res);
    if (res === '*') subWithWildRes.add(sub);
  });
  if (list.length > 1 && doubleWild) errs.push(fieldErr.invalid(path, goStrings(list), "if '*/*' is present, must not specify other resources"));
  if (singleWild && plain) errs.push(fieldErr.invalid(path, goStrings(list), "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRuleWithOperations + validateRule (subresources allowed). */
export function validateRule(rule: WebhookRule, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = rule.operations ?? [];
  if (ops.length === 0) errs.push(fieldErr.required(`${path}.operations`));
  if (ops.length > 1 && ops.includes('*')) errs.push(fieldErr.invalid(`${path}.operations`, goStrings(ops), "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(fieldErr.notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(fieldErr.required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) errs.push(fieldErr.invalid(`${path}.apiGroups`, goStrings(groups), "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errs.push(fieldErr.required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) errs.push(fieldErr.invalid(`${path}.apiVersions`, goStrings(versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldErr.required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(rule.resources, `${path}.resources`));
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope)) errs.push(fieldErr.notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errs;
}

/** ValidateWebhookURL (https only; no user info, fragment or query). */
export function validateWebhookURL(path: string, raw: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  let u: URL;
  try {
    u = new URL(raw);
  } catch (err) {
    return [fieldErr.required(path, `url must be a valid URL: parse ${JSON.stringify(raw)}: ${(err as Error).message}${form}`)];
  }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(fieldErr.invalid(path, scheme, `'https' is the only allowed URL scheme${form}`));
  if (!u.host) errs.push(fieldErr.invalid(path, u.host, `host must be specified${form}`));
  if (u.username || u.password) errs.push(fieldErr.invalid(path, u.password ? `${u.username}:${u.password}` : u.username, 'user information is not permitted in the URL'));
  if (u.hash.length > 1) errs.push(fieldErr.invalid(path, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search.length > 1) errs.push(fieldErr.invalid(path, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService: name, namespace, a valid port, and a path of DNS-subdomain segments. */
export function validateWebhookService(path: string, svc: NonNullable<WebhookClientConfig['service']>): FieldError[] {
  const errs: FieldError[] = [];
  if (!svc.name) errs.push(fieldErr.required(`${path}.name`));
  if (!svc.namespace) errs.push(fieldErr.required(`${path}.namespace`));
  const port = svc.port ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(fieldErr.invalid(`${path}.port`, port, `port is not valid: ${portErrs.join(', ')}`));
  const p = svc.path;
  if (p === undefined || p === '/' || p === '') return errs;
  if (p === '//') return [...errs, fieldErr.invalid(`${path}.path`, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errs.push(fieldErr.invalid(`${path}.path`, p, "must start with a '/'"));
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) {
      errs.push(fieldErr.invalid(`${path}.path`, p, `segment[${i}] may not be empty`));
      return;
    }
    for (const m of isDNS1123Subdomain(step)) errs.push(fieldErr.invalid(`${path}.path`, p, `segment[${i}]: ${m}`));
  });
  return errs;
}

/**
 * validateMatchConditions: at most 64, unique qualified names, expressions that compile to bool against the
 * webhook's variables (object, oldObject, request, authorizer).
 */
export function validateMatchConditions(conds: Webhook['matchConditions'], path: string, decls: Declarations, preexisting: ReadonlySet<string> = new Set()): FieldError[] {
  const errs: FieldError[] = [];
  const list = conds ?? [];
  if (list.length > 64) errs.push(fieldErr.tooMany(path, list.length, 64));
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!c.name) errs.push(fieldErr.required(`${p}.name`));
    else {
      for (const m of isQualifiedName(c.name)) errs.push(fieldErr.invalid(`${p}.name`, c.name, m));
      if (seen.has(c.name)) errs.push(fieldErr.duplicate(`${p}.name`, c.name));
      seen.add(c.name);
    }
    if (!c.expression) errs.push(fieldErr.required(`${p}.expression`));
    else {
      // An expression the old object already had compiles in the stored environment (validateMatchConditionsExpression).
      const kind = preexisting.has(c.expression.trim()) ? 'stored' : 'new';
      const r = compile(c.expression, decls, ['bool'], undefined, kind);
      if (!r.ok) errs.push(fieldErr.invalid(`${p}.expression`, c.expression, r.detail));
    }
  });
  return errs;
}

function validateReviewVersions(versions: string[] | undefined, path: string): FieldError[] {
  const list = versions ?? [];
  if (list.length < 1) return [fieldErr.required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  list.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErr.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(fieldErr.invalid(`${path}[${i}]`, v, m));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (!accepted) errs.push(fieldErr.invalid(path, goStrings(list), `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateWebhook(hook: Webhook, path: string, mutating: boolean, preexisting: ReadonlySet<string>): FieldError[] {
  const errs = isFullyQualifiedName(`${path}.name`, hook.name);
  (hook.rules ?? []).forEach((r, i) => errs.push(...validateRule(r, `${path}.rules[${i}]`)));
  if (hook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(hook.failurePolicy)) errs.push(fieldErr.notSupported(`${path}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy !== undefined && !MATCH_POLICIES.includes(hook.matchPolicy)) errs.push(fieldErr.notSupported(`${path}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  if (hook.sideEffects === undefined) errs.push(fieldErr.required(`${path}.sideEffects`, `must specify one of ${NO_SIDE_EFFECTS.join(', ')}`));
  else if (!NO_SIDE_EFFECTS.includes(hook.sideEffects)) errs.push(fieldErr.notSupported(`${path}.sideEffects`, hook.sideEffects, NO_SIDE_EFFECTS));
  const t = hook.timeoutSeconds;
  if (t !== undefined && (t > 30 || t < 1)) errs.push(fieldErr.invalid(`${path}.timeoutSeconds`, t, 'the timeout value must be between 1 and 30 seconds'));
  if (hook.namespaceSelector) errs.push(...validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`));
  if (hook.objectSelector) errs.push(...validateLabelSelector(hook.objectSelector, `${path}.objectSelector`));
  if (mutating && hook.reinvocationPolicy !== undefined && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) {
    errs.push(fieldErr.notSupported(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  const cc = hook.clientConfig ?? {};
  if ((cc.url === undefined) === (cc.service === undefined)) errs.push(fieldErr.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (cc.url !== undefined) errs.push(...validateWebhookURL(`${path}.clientConfig.url`, cc.url));
  else errs.push(...validateWebhookService(`${path}.clientConfig.service`, cc.service!));
  errs.push(...validateMatchConditions(hook.matchConditions, `${path}.matchConditions`, webhookConditionDeclarations(), preexisting));
  return errs;
}

/**
 * validateValidatingWebhookConfiguration / validateMutatingWebhookConfiguration; `old` on update, whose match
 * conditions compile in the stored CEL environment when unchanged (find{Validating,Mutating}PreexistingExpressions).
 */
export function validateWebhookConfiguration(obj: KubeObject, mutating: boolean, old?: KubeObject): FieldError[] {
  const errs = validateObjectMeta(obj.metadata, nameIsDNSSubdomain);
  const names = new Set<string>();
  const preexisting = new Set(((old?.webhooks ?? []) as Webhook[]).flatMap((h) => (h.matchConditions ?? []).map((m) => m.expression ?? '')));
  ((obj.webhooks ?? []) as Webhook[]).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(hook, path, mutating, preexisting));
    errs.push(...validateReviewVersions(hook.admissionReviewVersions, `${path}.admissionReviewVersions`));
    if (hook.name) {
      if (names.has(hook.name)) errs.push(fieldErr.duplicate(`${path}.name`, hook.name));
      names.add(hook.name);
    }
  });
  return errs;
}
