// The legacy token cleaner labels auto-generated token Secrets unused for the clean-up period and deletes them a
// period later (pkg/controller/serviceaccount/legacy_serviceaccount_token_cleaner.go evaluateSATokens).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import type { KubeObject } from '../../api/types.js';
import { newHarness } from '../testing/harness.js';
import { INVALID_SINCE_LABEL, LAST_USED_LABEL } from '../../apiserver/authn/service-account-authenticator.js';
import { TRACKING_CONFIGMAP } from '../../apiserver/authn/legacy-token-tracking.js';
import { LegacyTokenCleaner } from './legacy-token-cleaner.js';

const NOW = '2026-01-01T00:00:00Z'; // the harness clock; the period is 365 days, so the line is 2025-01-01

interface Case { name: string; created: string; labels?: Record<string, string>; listed?: boolean; mounted?: boolean; uid?: string; type?: string; expect: 'kept' | 'labelled' | 'deleted' }

const cases: Case[] = [
  { name: 'old-unused', created: '2024-06-01T00:00:00Z', expect: 'labelled' },
  { name: 'created-within-period', created: '2025-06-01T00:00:00Z', expect: 'kept' },
  { name: 'used-within-period', created: '2024-06-01T00:00:00Z', labels: { [LAST_USED_LABEL]: '2025-01-01' }, expect: 'kept' },
  { name: 'used-long-ago', created: '2024-06-01T00:00:00Z', labels: { [LAST_USED_LABEL]: '2024-12-31' }, expect: 'labelled' },
  { name: 'unreadable-last-used', created: '2024-06-01T00:00:00Z', labels: { [LAST_USED_LABEL]: 'yesterday' }, expect: 'kept' },
  { name: 'not-auto-generated', created: '2024-06-01T00:00:00Z', listed: false, expect: 'kept' },
  { name: 'mounted-by-a-pod', created: '2024-06-01T00:00:00Z', mounted: true, expect: 'kept' },
  { name: 'other-account-uid', created: '2024-06-01T00:00:00Z', uid: 'someone-else', expect: 'kept' },
  { name: 'opaque', created: '2024-06-01T00:00:00Z', type: 'Opaque', expect: 'kept' },
  { name: 'invalid-for-a-period', created: '2023-01-01T00:00:00Z', labels: { [INVALID_SINCE_LABEL]: '2024-12-31' }, expect: 'deleted' },
  { name: 'invalid-recently', created: '2023-01-01T00:00:00Z', labels: { [INVALID_SINCE_LABEL]: '2025-01-01' }, expect: 'kept' },
];

async function run(since: string) {
  const h = newHarness();
  assert.equal(new Date(h.clock.now()).toISOString(), new Date(NOW).toISOString());
  h.client.seed(R.configmaps, { metadata: { name: TRACKING_CONFIGMAP, namespace: 'kube-system' }, data: { since } } as KubeObject);
  const sa = h.client.seed(R.serviceaccounts, { metadata: { name: 'builder', namespace: 'ci' }, secrets: cases.filter((c) => c.listed !== false).map((c) => ({ name: c.name })) } as KubeObject);
  for (const c of cases) {
    h.client.seed(R.secrets, {
      metadata: {
        name: c.name, namespace: 'ci', creationTimestamp: c.created, labels: c.labels,
        annotations: { 'kubernetes.io/service-account.name': 'builder', 'kubernetes.io/service-account.uid': c.uid ?? sa.metadata.uid! },
      },
      type: c.type ?? 'kubernetes.io/service-account-token',
    } as KubeObject);
  }
  h.client.seed(R.pods, { metadata: { name: 'p', namespace: 'ci' }, spec: { containers: [{ name: 'c', image: 'x' }], volumes: [{ name: 't', secret: { secretName: 'mounted-by-a-pod' } }] } } as KubeObject);
  const c = new LegacyTokenCleaner(h);
  await h.sync();
  await c.evaluate();
  const left = new Map(h.client.all(R.secrets).filter((s) => !s.metadata.deletionTimestamp).map((s) => [s.metadata.name!, s]));
  return cases.map((x) => {
    const s = left.get(x.name);
    if (!s) return [x.name, 'deleted'];
    const label = s.metadata.labels?.[INVALID_SINCE_LABEL];
    return [x.name, label === '2026-01-01' ? 'labelled' : 'kept'];
  });
}

describe('LegacyTokenCleaner', () => {
  it('labels unused auto-generated tokens invalid and deletes those invalid for a whole period', async () => {
    assert.deepEqual(await run('2024-01-01'), cases.map((c) => [c.name, c.expect]));
  });

  it('does nothing until token use has been tracked for a whole period', async () => {
    assert.deepEqual(await run('2025-06-01'), cases.map((c) => [c.name, 'kept']));
  });
});
