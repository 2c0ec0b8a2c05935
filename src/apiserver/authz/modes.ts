// --authorization-mode: the ordered list of authorizers kube-apiserver chains after system:masters, and its start-up
// checks (pkg/kubeapiserver/authorizer/modes, pkg/kubeapiserver/options/authorization.go Validate).

export const MODE_ALWAYS_ALLOW = 'AlwaysAllow';
export const MODE_ALWAYS_DENY = 'AlwaysDeny';
export const MODE_ABAC = 'ABAC';
export const MODE_WEBHOOK = 'Webhook';
export const MODE_RBAC = 'RBAC';
export const MODE_NODE = 'Node';

/** modes.AuthorizationModeChoices, in kube's order (the flag's help lists them so). */
export const AUTHORIZATION_MODE_CHOICES = [MODE_ALWAYS_ALLOW, MODE_ALWAYS_DENY, MODE_ABAC, MODE_WEBHOOK, MODE_RBAC, MODE_NODE] as const;
/** What kubeadm runs and winkube defaults to. */
export const DEFAULT_AUTHORIZATION_MODES: readonly string[] = [MODE_NODE, MODE_RBAC];

/** The flag's value as pflag's StringSlice reads it: comma-separated, nothing trimmed; an empty value is no mode. */
export function parseAuthorizationModes(value: string): string[] {
  return value === '' ? [] : value.split(',');
}

/** Go's %q of a []string: `["Node" "Node"]`. */
const quoteList = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

/**
 * BuiltInAuthorizationOptions.Validate for the flags winkube has: ABAC and Webhook are valid modes, but winkube has
 * no --authorization-policy-file or --authorization-webhook-config-file, so kube's "not passed" error stands for them.
 */
export function validateAuthorizationModes(modes: readonly string[]): string[] {
  const errs: string[] = [];
  if (!modes.length) errs.push('at least one authorization-mode must be passed');
  for (const m of modes) {
    if (!(AUTHORIZATION_MODE_CHOICES as readonly string[]).includes(m)) errs.push(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    if (m === MODE_ABAC) errs.push("authorization-mode ABAC's authorization policy file not passed");
    if (m === MODE_WEBHOOK) errs.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (new Set(modes).size !== modes.length) errs.push(`authorization-mode ${quoteList(modes)} has mode specified more than once`);
  return errs;
}

/** utilerrors.NewAggregate(errs).Error(): one error as it is, several as `[a, b]`. */
export function aggregateMessage(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

/** Parses and checks a flag value; throws an Error worded as kube-apiserver's start-up failure. */
export function authorizationModesFromFlag(value: string): string[] {
  const modes = parseAuthorizationModes(value);
  const errs = validateAuthorizationModes(modes);
  if (errs.length) throw new Error(aggregateMessage(errs));
  return modes;
}
