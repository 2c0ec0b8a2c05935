// Query and path parameters of the resource operations, as kube-apiserver documents them
// (apiserver pkg/endpoints/installer.go adds them from metav1 ListOptions/CreateOptions/PatchOptions/DeleteOptions).

export interface ParamSpec {
  name: string;
  in: 'query' | 'path';
  type: 'string' | 'integer' | 'boolean';
  description: string;
  required?: boolean;
  uniqueItems?: boolean;
}

const q = (name: string, type: ParamSpec['type'], description: string): ParamSpec => ({
  name,
  in: 'query',
  type,
  description,
  uniqueItems: true,
});

export const PATH_NAME: ParamSpec = { name: 'name', in: 'path', type: 'string', required: true, uniqueItems: true, description: 'name of the object' };
export const PATH_NAMESPACE: ParamSpec = {
  name: 'namespace',
  in: 'path',
  type: 'string',
  required: true,
  uniqueItems: true,
  description: 'object name and auth scope, such as for teams and projects',
};
export const PRETTY = q('pretty', 'string', "If 'true', the output is pretty printed.");

export const LIST_PARAMS: ParamSpec[] = [
  q('allowWatchBookmarks', 'boolean', 'Ask for BOOKMARK watch events; the server may send them at its discretion.'),
  q('continue', 'string', 'The continue token from a previous paged list response.'),
  q('fieldSelector', 'string', 'Restrict the returned objects by their fields. Defaults to everything.'),
  q('labelSelector', 'string', 'Restrict the returned objects by their labels. Defaults to everything.'),
  q('limit', 'integer', 'Maximum number of items to return in one list response; more are available through continue.'),
  q('resourceVersion', 'string', 'Constrains which resource versions a request may be served from.'),
  q('resourceVersionMatch', 'string', 'How resourceVersion is applied to list calls (Exact or NotOlderThan).'),
  q('sendInitialEvents', 'boolean', 'Begin a watch stream with synthetic events for the current state.'),
  q('timeoutSeconds', 'integer', 'Timeout for the list/watch call, regardless of activity.'),
  q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of events.'),
];

const DRY_RUN = q('dryRun', 'string', 'When present, modifications are not persisted. Valid value: All.');
const FIELD_MANAGER = q('fieldManager', 'string', 'Name of the actor making the change, recorded in managedFields.');
/**
 * kubectl finds this parameter on the PATCH operation of a kind to decide that the server validates fields
 * itself (cli-runtime pkg/resource/query_param_verifier_v3.go), so it must be inline, not a $ref.
 */
export const FIELD_VALIDATION = q(
  'fieldValidation',
  'string',
  'How the server treats unknown or duplicate fields in the request: Ignore, Warn, or Strict (reject with an error).',
);

export const WRITE_PARAMS: ParamSpec[] = [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION];
export const PATCH_PARAMS: ParamSpec[] = [
  ...WRITE_PARAMS,
  q('force', 'boolean', 'Force an apply patch to take over fields owned by other managers. Only valid for apply.'),
];
export const DELETE_PARAMS: ParamSpec[] = [
  DRY_RUN,
  q('gracePeriodSeconds', 'integer', 'Seconds before the object is deleted; zero means delete immediately.'),
  q('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy. Whether dependents are orphaned.'),
  q('propagationPolicy', 'string', 'Whether and how garbage collection runs: Orphan, Background or Foreground.'),
];
