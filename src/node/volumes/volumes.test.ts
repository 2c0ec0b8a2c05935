import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, Volume } from 'kubernetes-types/core/v1.js';
import { containerMountPath } from './mount-paths.js';
import { volumeContent, type VolumeContext } from './volume-content.js';

// seed 004 "Volumes": the three spellings of a Windows mount path name one place
const paths: [string, string][] = [['C:\\etc\\foo', 'C:\\etc\\foo'], ['C:/etc/foo', 'C:\\etc\\foo'], ['/cache', 'C:\\cache'], ['c:\\data\\', 'C:\\data'], ['etc/x', 'C:\\etc\\x']];
for (const [given, want] of paths) test(`Windows mountPath ${given} → ${want}`, () => assert.equal(containerMountPath('windows', given), want));
test('Linux mountPath is taken as written', () => assert.equal(containerMountPath('linux', '/etc/config'), '/etc/config'));

const pod: Pod = { metadata: { name: 'web', namespace: 'app', labels: { b: '2', a: '1' } }, spec: { containers: [{ name: 'c', resources: { limits: { memory: '64Mi' } } }] } };
const ctx: VolumeContext = {
  pod, os: 'linux', hostIP: '172.18.0.3', podIP: '10.244.1.9', allocatable: { cpu: '4', memory: '8Gi' },
  config: {
    configMap: (ns, n) => (ns === 'app' && n === 'cfg' ? { 'app.conf': 'x=1', other: 'y' } : undefined),
    secret: (ns, n) => (ns === 'app' && n === 'creds' ? { password: 'pw' } : undefined),
  },
};
const files = (v: Volume) => {
  const r = volumeContent(v, ctx);
  if ('error' in r) return r.error;
  if ('pending' in r) return r.pending;
  if ('unprocessed' in r) return r.unprocessed;
  if (r.content.kind !== 'files') return r.content;
  return Object.fromEntries([...r.content.files].map(([k, f]) => [k, `${f.data.toString()} ${f.mode.toString(8)}`]));
};

// pkg/volume/configmap, secret, downwardapi, projected (MakePayload and its errors)
const cases: { name: string; v: Volume; want: unknown }[] = [
  { name: 'configMap: every key, defaultMode 0644', v: { name: 'v', configMap: { name: 'cfg' } }, want: { 'app.conf': 'x=1 644', other: 'y 644' } },
  { name: 'configMap items with paths and modes', v: { name: 'v', configMap: { name: 'cfg', defaultMode: 0o400, items: [{ key: 'app.conf', path: 'etc/app.conf' }, { key: 'other', path: 'o', mode: 0o600 }] } }, want: { 'etc/app.conf': 'x=1 400', o: 'y 600' } },
  { name: 'configMap missing', v: { name: 'v', configMap: { name: 'gone' } }, want: 'MountVolume.SetUp failed for volume "v" : configmap "gone" not found' },
  { name: 'configMap optional and missing is empty', v: { name: 'v', configMap: { name: 'gone', optional: true } }, want: {} },
  { name: 'configMap item key missing', v: { name: 'v', configMap: { name: 'cfg', items: [{ key: 'nope', path: 'n' }] } }, want: 'MountVolume.SetUp failed for volume "v" : configmap references non-existent config key: nope' },
  { name: 'secret', v: { name: 'v', secret: { secretName: 'creds' } }, want: { password: 'pw 644' } },
  { name: 'secret missing', v: { name: 'v', secret: { secretName: 'x' } }, want: 'MountVolume.SetUp failed for volume "v" : secret "x" not found' },
  { name: 'downwardAPI', v: { name: 'v', downwardAPI: { items: [
    { path: 'podname', fieldRef: { fieldPath: 'metadata.name' } },
    { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
    { path: 'mem', resourceFieldRef: { containerName: 'c', resource: 'limits.memory', divisor: '1Mi' } },
  ] } }, want: { podname: 'web 644', labels: 'a="1"\nb="2" 644', mem: '64 644' } },
  { name: 'projected merges its sources', v: { name: 'v', projected: { sources: [{ configMap: { name: 'cfg', items: [{ key: 'other', path: 'o' }] } }, { secret: { name: 'creds' } }] } }, want: { o: 'y 644', password: 'pw 644' } },
];
for (const c of cases) test(`volumeContent: ${c.name}`, () => assert.deepEqual(files(c.v), c.want));

test('emptyDir Memory is tmpfs on Linux and a disk directory on Windows', () => {
  assert.deepEqual(volumeContent({ name: 'v', emptyDir: { medium: 'Memory' } }, ctx), { content: { kind: 'emptyDir', memory: true } });
  assert.deepEqual(volumeContent({ name: 'v', emptyDir: { medium: 'Memory' } }, { ...ctx, os: 'windows' }), { content: { kind: 'emptyDir', memory: false } });
});
