// What one call or operator costs at run time given its argument values, as cel-go's CostTracker.costCall and
// kube's library CostEstimator.CallCost price them (cel-go interpreter/runtimecost.go, ext/sets.go trackSetsCost;
// staging/src/k8s.io/apiserver/pkg/cel/library/cost.go).

/** cel-go common/cost.go. */
const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;
export const LIST_CREATE = 10;
export const MAP_CREATE = 30;
/** library/cost.go: an authorization check is priced so only two fit in one expression. */
const AUTHZ_CHECK = 350_000;

/** cel-go's traits.Sizer: code points of a string, bytes, list elements, map entries; 1 for everything else. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string') return v.length - (v.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof Map || v instanceof Set) return v.size;
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.keys(v).length;
  return 1;
}

const traversal = (v: unknown): number => Math.ceil(actualSize(v) * STRING_TRAVERSAL);
const isStringy = (v: unknown) => typeof v === 'string' || v instanceof Uint8Array;

/** library/cost.go traversalCost: strings by length, lists and maps by walking their members. */
function traversalCost(v: unknown): number {
  if (isStringy(v)) return Math.floor(actualSize(v) * STRING_TRAVERSAL);
  if (Array.isArray(v)) return v.reduce((s: number, x) => s + traversalCost(x), 0);
  if (v instanceof Map) return [...v].reduce((s: number, [k, x]) => s + traversalCost(k) + traversalCost(x), 0);
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.entries(v).reduce((s: number, [k, x]) => s + traversalCost(k) + traversalCost(x), 0);
  }
  return 1;
}

const AUTHZ_ACCESSORS = new Set(['serviceAccount', 'path', 'group', 'resource', 'subresource', 'namespace', 'name', 'allowed',
  'reason', 'error', 'errored']);
const NOMINAL = new Set(['masked', 'prefixLength', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast',
  'isLinkLocalUnicast', 'sign', 'asInteger', 'isInteger', 'asApproximateFloat', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub']);

/** What a function call costs given its arguments (receiver first) and result: kube's CallCost, then cel-go's defaults. */
export function callCost(name: string, args: unknown[], result: unknown): number {
  const [a, b] = args;
  if (name === 'check') return AUTHZ_CHECK;
  if (AUTHZ_ACCESSORS.has(name) || NOMINAL.has(name)) return 1;
  switch (name) {
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf': return traversalCost(a);
    case 'url': case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
    case 'cidr': case 'isIP': case 'isCIDR': case 'quantity': case 'isQuantity':
      return traversal(a);
    case 'ip': return a !== undefined && typeof a === 'object' ? 1 : traversal(a);
    case 'replace': case 'split': return Math.ceil(actualSize(a) * 2 * STRING_TRAVERSAL);
    case 'join': return Math.ceil(actualSize(result) * 2 * STRING_TRAVERSAL);
    case 'find': case 'findAll': case 'matches':
      return Math.ceil((1 + actualSize(a)) * STRING_TRAVERSAL) * Math.ceil(actualSize(b) * REGEX_LENGTH);
    case 'containsIP': return 1 + (typeof b === 'string' ? traversal(b) : 0);
    case 'containsCIDR': return 3 + (typeof b === 'string' ? traversal(b) : 0);
    // cel-go's own O(n) overloads.
    case 'startsWith': case 'endsWith': case 'format': case 'strings.quote': return traversal(a);
    // ext/sets.go trackSetsCost: one plus the product of the sizes (twice it for equivalent).
    case 'sets.contains': case 'sets.intersects': return 1 + actualSize(a) * actualSize(b);
    case 'sets.equivalent': return 1 + 2 * actualSize(a) * actualSize(b);
    case 'string': case 'bytes': return isStringy(a) && typeof a !== typeof result ? traversal(a) : 1;
    case 'contains': return typeof a === 'string' ? traversal(a) * traversal(b) : 1;
    default: return 1;
  }
}

/** cel-go's equality and ordering are O(min(m, n)) on strings, bytes, lists and maps; `+` on strings O(m + n). */
export function operatorCost(op: string, l: unknown, r: unknown): number {
  switch (op) {
    case '==': case '!=': return Math.ceil(Math.min(actualSize(l), actualSize(r)) * STRING_TRAVERSAL);
    case '<': case '<=': case '>': case '>=':
      return isStringy(l) && isStringy(r) ? Math.ceil(Math.min(actualSize(l), actualSize(r)) * STRING_TRAVERSAL) : 1;
    case '+': return isStringy(l) && isStringy(r) ? Math.ceil((actualSize(l) + actualSize(r)) * STRING_TRAVERSAL) : 1;
    case 'in': return Array.isArray(r) ? r.length : 1;
    default: return 1;
  }
}
