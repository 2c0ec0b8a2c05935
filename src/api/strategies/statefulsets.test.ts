import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatefulSet } from 'kubernetes-types/apps/v1.js';
import { defaultStatefulSet } from './statefulsets.js';
import { STATEFULSET_UPDATE_FORBIDDEN, validateStatefulSet, validateStatefulSetUpdate } from '../validation/statefulset.js';

const base = (): StatefulSet => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' },
  spec: {
    serviceName: 'web', selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  },
});

const defaulted = () => {
  const s = base();
  defaultStatefulSet(s);
  return s;
};

const messages = (errs: { field: string; detail: string }[]) => errs.map((e) => `${e.field}: ${e.detail}`);

describe('statefulset defaults and validation', () => {
  it('defaults as SetDefaults_StatefulSet does', () => {
    const s = defaulted();
    assert.equal(s.spec?.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(s.spec?.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.deepEqual(s.spec?.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.equal(s.spec?.replicas, 1);
    assert.equal(s.spec?.revisionHistoryLimit, 10);
    assert.equal(s.spec?.template.spec?.restartPolicy, 'Always');
    const claim = s.spec!.volumeClaimTemplates![0] as { apiVersion?: string; kind?: string; spec?: { volumeMode?: string }; status?: { phase?: string } };
    assert.deepEqual([claim.apiVersion, claim.kind, claim.spec?.volumeMode, claim.status?.phase], ['v1', 'PersistentVolumeClaim', 'Filesystem', 'Pending']);
    assert.deepEqual(validateStatefulSet(s), []);
  });

  it('OnDelete keeps no rollingUpdate by default', () => {
    const s = base();
    s.spec!.updateStrategy = { type: 'OnDelete' };
    defaultStatefulSet(s);
    assert.deepEqual(s.spec?.updateStrategy, { type: 'OnDelete' });
  });

  it('refuses a selector that misses the template, a bad policy and a non-Always restart policy', () => {
    const s = defaulted();
    s.spec!.selector = { matchLabels: { app: 'other' } };
    s.spec!.podManagementPolicy = 'Sometimes';
    s.spec!.template.spec!.restartPolicy = 'Never';
    s.spec!.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep', whenScaled: 'Retain' };
    assert.deepEqual(messages(validateStatefulSet(s)), [
      "spec.podManagementPolicy: must be 'OrderedReady' or 'Parallel'",
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: supported values: "Delete", "Retain"',
      'spec.template.metadata.labels: `selector` does not match template `labels`',
      'spec.template.spec.restartPolicy: supported values: "Always"',
    ]);
  });

  it('allows replicas, template, updateStrategy, ordinals, retention and minReadySeconds to change, nothing else', () => {
    const old = defaulted();
    const ok = structuredClone(old);
    ok.spec!.replicas = 5;
    ok.spec!.template.spec!.containers[0].image = 'nginx:2';
    ok.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2 } };
    ok.spec!.minReadySeconds = 3;
    assert.deepEqual(validateStatefulSetUpdate(ok, old), []);
    const bad = structuredClone(old);
    bad.spec!.serviceName = 'other';
    assert.deepEqual(messages(validateStatefulSetUpdate(bad, old)), [`spec: ${STATEFULSET_UPDATE_FORBIDDEN}`]);
    const claims = structuredClone(old);
    claims.spec!.volumeClaimTemplates![0].spec!.resources = { requests: { storage: '2Gi' } };
    assert.equal(validateStatefulSetUpdate(claims, old).length, 1);
  });
});
