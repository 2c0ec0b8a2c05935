// A webhook's matchConditions: every condition true calls it, any false skips it, errors follow failurePolicy
// (Fail: the request is Forbidden with the errors; Ignore: the webhook is skipped)
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/matcher.go; generic/webhook.go).

import { aggregateMessage, StatusError } from '../../../api/errors.js';
import { compile, evaluate, type CompiledExpression } from '../../../api/cel/compile.js';
import { WEBHOOK_CONDITION_DECLARATIONS, type Webhook } from '../../../api/validation/admission-registration.js';
import type { Authorizer } from '../../authz/interfaces.js';
import { admissionDeclarations } from '../../../api/cel/admission-declarations.js';
import { activation } from '../cel/variables.js';
import type { AdmissionAttributes } from '../interfaces.js';
import type { Invocation } from './review.js';
import { versionedAttributesAsync } from './versioned.js';

type Compiled = { name: string; expression: string; program?: CompiledExpression; error?: string }[];

const compiled = new WeakMap<Webhook, Compiled>();


function compiledConditions(hook: Webhook): Compiled {
  let c = compiled.get(hook);
  if (!c) {
    const decls = admissionDeclarations(WEBHOOK_CONDITION_DECLARATIONS);
    c = (hook.matchConditions ?? []).map((m) => {
      const r = compile(m.expression ?? '', decls, ['bool']);
      return r.ok ? { name: m.name ?? '', expression: m.expression ?? '', program: r.program } : { name: m.name ?? '', expression: m.expression ?? '', error: r.detail };
    });
    compiled.set(hook, c);
  }
  return c;
}

export interface MatchDeps {
  authorizer?: Authorizer;
}

/** Whether the webhook is to be called; throws kube's Forbidden when conditions fail to evaluate under Fail. */
export async function matchConditionsAllow(hook: Webhook, a: AdmissionAttributes, inv: Invocation, deps: MatchDeps): Promise<boolean> {
  if (!hook.matchConditions?.length) return true;
  // Webhooks bind no namespaceObject (the matcher passes none to the filter), so it stays null.
  // The conditions see the object in the version the webhook is called with.
  const vars = activation(await versionedAttributesAsync(a, inv), inv, { authorizer: deps.authorizer });
  const errors: string[] = [];
  for (const c of compiledConditions(hook)) {
    if (!c.program) {
      errors.push(c.error ?? '');
      continue;
    }
    const r = await evaluate(c.program, vars as unknown as Record<string, unknown>);
    if (r.error !== undefined) errors.push(`expression '${c.expression}' resulted in error: ${r.error}`);
    else if (r.value === false) return false;
    else if (r.value !== true) errors.push(`expression '${c.expression}' resulted in error: no such overload`);
  }
  if (!errors.length) return true;
  if (hook.failurePolicy === 'Ignore') return false;
  throw StatusError.forbidden(a.decl.group, a.decl.plural, a.name || a.object?.metadata.name || '', aggregateMessage(errors));
}
