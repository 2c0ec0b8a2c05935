// Parses a request path into what it names (like apiserver's RequestInfoFactory): API prefix, group, version,
// namespace, resource, name, subresource and the verb.

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  verb: string;
  apiPrefix: 'api' | 'apis' | '';
  group: string;
  version: string;
  namespace: string;
  resource: string;
  name: string;
  subresource: string;
  /** Path segments after the subresource (e.g. proxy paths). */
  rest: string[];
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const METHOD_VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', GET: 'get', HEAD: 'get' };

export function parseRequestInfo(method: string, path: string, watchParam: boolean): RequestInfo {
  const segs = segments(path);
  const info: RequestInfo = {
    isResourceRequest: false, path, verb: (METHOD_VERBS[method] ?? method.toLowerCase()), apiPrefix: '',
    group: '', version: '', namespace: '', resource: '', name: '', subresource: '', rest: [],
  };
  if (segs[0] !== 'api' && segs[0] !== 'apis') return info;
  info.apiPrefix = segs[0];
  let i = 1;
  if (info.apiPrefix === 'apis') {
    if (segs.length < 3) return info; // /apis or /apis/<group>
    info.group = segs[i++];
  } else if (segs.length < 2) {
    return info; // /api
  }
  info.version = segs[i++];
  const rest = segs.slice(i);
  if (rest.length === 0) return info; // group-version discovery
  info.isResourceRequest = true;
  // /namespaces/<ns>/<resource>... names a namespaced resource; /namespaces/<ns>/status|finalize are the
  // namespace's own subresources (apiserver namespaceSubresources).
  if (rest[0] === 'namespaces' && rest.length >= 2) {
    info.namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) rest.splice(0, 2);
  }
  info.resource = rest[0] ?? '';
  info.name = rest[1] ?? '';
  info.subresource = rest[2] ?? '';
  info.rest = rest.slice(3);
  if ((method === 'GET' || method === 'HEAD') && !info.name) {
    // watch=true only turns a list into a watch: a GET of one object stays a get (apiserver RequestInfoFactory).
    info.verb = watchParam ? 'watch' : 'list';
  } else if (method === 'DELETE' && !info.name) {
    info.verb = 'deletecollection';
  }
  return info;
}

/** Non-empty path segments, percent-decoded (only those holding a '%' need it: every request comes through here). */
function segments(path: string): string[] {
  const out: string[] = [];
  for (const s of path.split('/')) if (s !== '') out.push(s.includes('%') ? safeDecode(s) : s);
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
