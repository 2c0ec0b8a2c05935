// The ValidatingAdmissionPolicy type checker: each validation expression and messageExpression is compiled with
// object/oldObject typed as every kind matchConstraints names (at most 10, no wildcards, no subresources) and params
// typed as paramKind, and what fails becomes an ExpressionWarning with kube's fieldRef and text
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking.go). Warnings never change
// what the policy does.

import { admissionDeclarations } from '../../../api/cel/admission-declarations.js';
import { compile } from '../../../api/cel/compile.js';
import { OpenApiDeclTypes, populateRefs, type RefLookup } from '../../../api/cel/openapi-decl-types.js';
import type { KubeObject } from '../../../api/types.js';
import type { PolicySpec } from '../../../api/validation/validating-admission-policy.js';

export interface Gvk { group: string; version: string; kind: string }

/** An OpenAPI schema and how to follow its $refs. */
export interface ResolvedSchema { schema: Record<string, unknown>; lookup: RefLookup }

/** The RESTMapper and SchemaResolver the checker asks; both answer empty for what they do not know. */
export interface TypeResolver {
  kindsFor(group: string, version: string, resource: string): Promise<Gvk[]>;
  schemaFor(gvk: Gvk): Promise<ResolvedSchema | undefined>;
}

export interface ExpressionWarning { fieldRef: string; warning: string }

const MAX_TYPES_TO_CHECK = 10;

/** schema.GroupVersionKind's String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
export const gvkString = (g: Gvk): string => `${g.group}/${g.version}, Kind=${g.kind}`;

/** strings.Compare: byte order, as sort.Strings and sortGVKList use. */
const goCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const compareGvk = (a: Gvk, b: Gvk): number =>
  goCompare(a.group, b.group) || goCompare(a.version, b.version) || goCompare(a.kind, b.kind);

const byteOrder = (xs: string[]): string[] => [...xs].sort(goCompare);

/** typesToCheck: the kinds of the resources matchConstraints names, sorted by group, version and kind. */
export async function typesToCheck(spec: PolicySpec, r: TypeResolver): Promise<Gvk[]> {
  const found = new Map<string, Gvk>();
  const sorted = () => [...found.values()].sort(compareGvk);
  for (const rule of spec.matchConstraints?.resourceRules ?? []) {
    // A wildcard group or version gives the rule up; wildcard resources and subresources are skipped.
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (!groups.length || groups.some((g) => g.includes('*'))) continue;
    if (!versions.length || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((x) => !/[*/]/.test(x));
    if (!resources.length) continue;
    let count = 0;
    for (const group of byteOrder(groups)) {
      for (const version of byteOrder(versions)) {
        for (const resource of byteOrder(resources)) {
          for (const gvk of await r.kindsFor(group, version, resource)) {
            if (!gvk.kind) continue;
            found.set(gvkString(gvk), gvk);
            if (++count === MAX_TYPES_TO_CHECK) return sorted();
          }
        }
      }
    }
  }
  return sorted();
}

let unique = 0;

/** The cel-js type of a kind's schema (declType), registered by `install`; undefined when it has none. */
async function declType(gvk: Gvk, r: TypeResolver): Promise<{ name: string; install: OpenApiDeclTypes } | undefined> {
  let resolved: ResolvedSchema | undefined;
  try {
    resolved = await r.schemaFor(gvk);
  } catch {
    return undefined; // type checking errors must not alter the policy; a resolution failure skips the kind
  }
  if (!resolved) return undefined;
  const types = new OpenApiDeclTypes(`${gvk.kind}${++unique}`);
  let name: string | undefined;
  try {
    name = types.typeOf(populateRefs(resolved.schema, resolved.lookup), true);
  } catch {
    return undefined;
  }
  return name === undefined ? undefined : { name, install: types };
}

/** paramsGVK: paramKind's group, version and kind; empty when absent or unparsable. */
function paramsGvk(spec: PolicySpec): Gvk | undefined {
  const pk = spec.paramKind;
  if (!pk?.apiVersion || !pk.kind) return undefined;
  const parts = pk.apiVersion.split('/');
  if (parts.length > 2) return undefined;
  return parts.length === 1 ? { group: '', version: parts[0], kind: pk.kind } : { group: parts[0], version: parts[1], kind: pk.kind };
}

interface Context {
  gvks: { gvk: Gvk; type: { name: string; install: OpenApiDeclTypes } }[];
  params?: { name: string; install: OpenApiDeclTypes };
  variables: { name?: string; expression?: string }[];
}

/** CheckExpression: the issues of one expression per kind, as `<gvk>: <issues>\n` joined by newlines. */
function checkExpression(ctx: Context, expression: string): string {
  const messages: string[] = [];
  for (const { gvk, type } of ctx.gvks) {
    const typed = {
      object: type.name, params: ctx.params?.name,
      install: (env: Parameters<OpenApiDeclTypes['install']>[0]) => {
        type.install.install(env);
        if (ctx.params && ctx.params.install !== type.install) ctx.params.install.install(env);
      },
    };
    const hasParams = !!ctx.params;
    // Variables compile in order, each seeing the ones before it; one that fails is dyn to the rest.
    const varTypes: Record<string, string> = {};
    for (const v of ctx.variables) {
      const decls = admissionDeclarations({ params: hasParams, authorizer: true, variables: { ...varTypes }, typed });
      const c = compile(v.expression ?? '', decls, [], '');
      varTypes[v.name ?? ''] = c.ok ? c.program.outputType.replace(/\(/g, '<').replace(/\)/g, '>') : 'dyn';
    }
    const decls = admissionDeclarations(ctx.variables.length
      ? { params: hasParams, authorizer: true, variables: varTypes, typed }
      : { params: hasParams, authorizer: true, typed });
    const c = compile(expression, decls, [], '');
    if (!c.ok) messages.push(`${gvkString(gvk)}: ${c.detail}\n`);
  }
  return messages.join('\n');
}

/** Check: the policy's expression warnings, empty when every expression type-checks against every kind. */
export async function typeCheckPolicy(policy: KubeObject, r: TypeResolver): Promise<ExpressionWarning[]> {
  const spec = (policy.spec ?? {}) as PolicySpec;
  const gvks: Context['gvks'] = [];
  for (const gvk of await typesToCheck(spec, r)) {
    const type = await declType(gvk, r);
    if (type) gvks.push({ gvk, type });
  }
  const pg = paramsGvk(spec);
  const ctx: Context = { gvks, params: pg ? await declType(pg, r) : undefined, variables: spec.variables ?? [] };
  const warnings: ExpressionWarning[] = [];
  (spec.validations ?? []).forEach((v, i) => {
    const w = checkExpression(ctx, v.expression ?? '');
    if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (!v.messageExpression) return;
    const m = checkExpression(ctx, v.messageExpression);
    if (m) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
  });
  return warnings;
}
