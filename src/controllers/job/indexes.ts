// Completed-index bookkeeping of Indexed Jobs: `status.completedIndexes` is a list of intervals such as "0-2,5"
// (pkg/controller/job/indexed_job_utils.go).

export const COMPLETION_INDEX_KEY = 'batch.kubernetes.io/job-completion-index';

/** Parses "1,3-5" into a sorted set of indexes; bad parts are skipped. */
export function parseIndexes(text: string | undefined): Set<number> {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const a = Number(m[1]), b = m[2] ? Number(m[2]) : a;
    for (let i = a; i <= b; i++) out.add(i);
  }
  return out;
}

/** orderedIntervals.String: ascending; a run of three or more as "first-last", a run of two as "first,last". */
export function formatIndexes(set: Iterable<number>): string {
  const xs = [...new Set(set)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < xs.length;) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j] + 1) j++;
    parts.push(j > i + 1 ? `${xs[i]}-${xs[j]}` : j === i + 1 ? `${xs[i]},${xs[j]}` : `${xs[i]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The completion index of a pod, from its annotation (or label); undefined when absent or malformed. */
export function podIndex(pod: { metadata?: { annotations?: Record<string, string>; labels?: Record<string, string> } }): number | undefined {
  const v = pod.metadata?.annotations?.[COMPLETION_INDEX_KEY] ?? pod.metadata?.labels?.[COMPLETION_INDEX_KEY];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}
