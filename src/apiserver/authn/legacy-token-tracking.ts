// The ConfigMap kube-apiserver keeps to say since when it tracks legacy token use
// (pkg/controlplane/controller/legacytokentracking/controller.go): kube-system/
// kube-apiserver-legacy-service-account-token-tracking with `since: <YYYY-MM-DD>`, created when missing and its date
// rewritten when unreadable. The legacy token cleaner waits until tracking has run for its whole clean-up period.

import { isAlreadyExists, isConflict, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';

export const TRACKING_CONFIGMAP = 'kube-apiserver-legacy-service-account-token-tracking';
export const TRACKING_SINCE_KEY = 'since';

/** Go's "2006-01-02" layout in UTC. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** time.Parse("2006-01-02", s): the midnight UTC it names, or undefined when it is not such a date. */
export function parseDate(s: string | undefined): number | undefined {
  if (!s || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return undefined;
  const ms = Date.parse(`${s}T00:00:00Z`);
  return Number.isNaN(ms) || utcDate(ms) !== s ? undefined : ms;
}

type ConfigMap = KubeObject & { data?: Record<string, string> };

/** syncConfigMap, run once as the API server starts. */
export async function ensureLegacyTokenTracking(client: Client, now: number): Promise<void> {
  let cm: ConfigMap;
  try {
    cm = await client.get<ConfigMap>(R.configmaps, 'kube-system', TRACKING_CONFIGMAP);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await client.create<ConfigMap>(R.configmaps, 'kube-system', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: TRACKING_CONFIGMAP, namespace: 'kube-system' }, data: { [TRACKING_SINCE_KEY]: utcDate(now) } });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    return;
  }
  if (parseDate(cm.data?.[TRACKING_SINCE_KEY]) !== undefined) return;
  try {
    await client.update(R.configmaps, 'kube-system', { ...cm, data: { ...cm.data, [TRACKING_SINCE_KEY]: utcDate(now) } });
  } catch (err) {
    if (!isNotFound(err) && !isConflict(err)) throw err;
  }
}
