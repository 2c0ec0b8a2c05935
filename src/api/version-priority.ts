// Kube-aware ordering of API version names (v1 > v1beta2 > v1beta1 > v1alpha1 > anything else, alphabetically), as
// apimachinery/pkg/version/helpers.go CompareKubeAwareVersionStrings orders a CRD group's versions in discovery.

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** Rank of a version name: GA first, then beta, then alpha, then non-kube names. */
function parse(v: string): { kind: number; major: number; minor: number } | undefined {
  const m = KUBE_VERSION.exec(v);
  if (!m) return undefined;
  const kind = !m[2] ? 0 : m[2] === 'beta' ? 1 : 2;
  return { kind, major: Number(m[1]), minor: m[3] ? Number(m[3]) : 0 };
}

/** Negative when `a` is preferred over `b` (sort ascending puts the preferred version first). */
export function compareKubeAwareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return a < b ? -1 : a > b ? 1 : 0;
  if (!pa) return 1;
  if (!pb) return -1;
  if (pa.kind !== pb.kind) return pa.kind - pb.kind;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}
