import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decidePull, defaultPullPolicy, type PullContext } from './pull.js';
import { fakeDigest, imageIdFor, parseImageRef } from './reference.js';
import { lookupImage } from './catalogue.js';
import { goDuration } from '../go-duration.js';

const ctx = (os: 'linux' | 'windows', build?: string, present: string[] = []): PullContext => ({
  profile: { os, arch: 'amd64', windowsBuild: build, isolation: 'process' }, present: new Set(present), bytesPerSecond: 100_000_000, minPullMs: 200,
});
const WS2019 = ctx('windows', '10.0.17763');
const WS2022 = ctx('windows', '10.0.20348');
const LINUX = ctx('linux');

const cases: { name: string; image: string; ctx: PullContext; policy?: 'Always' | 'IfNotPresent' | 'Never'; kind: string; text?: string | RegExp }[] = [
  { name: 'servercore ltsc2019 on WS2019', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', ctx: WS2019, kind: 'pull', text: 'Pulling image "mcr.microsoft.com/windows/servercore:ltsc2019"' },
  { name: 'servercore ltsc2022 on WS2019 (containerd#6989)', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', ctx: WS2019, kind: 'fail',
    text: 'Failed to pull image "mcr.microsoft.com/windows/servercore:ltsc2022": rpc error: code = NotFound desc = failed to pull and unpack image "mcr.microsoft.com/windows/servercore:ltsc2022": no match for platform in manifest: not found' },
  { name: 'servercore ltsc2019 on WS2022', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', ctx: WS2022, kind: 'fail', text: /no match for platform in manifest/ },
  { name: 'nanoserver 1809 on WS2019', image: 'mcr.microsoft.com/windows/nanoserver:1809', ctx: WS2019, kind: 'pull' },
  { name: 'iis latest on both builds', image: 'mcr.microsoft.com/windows/servercore/iis', ctx: WS2022, kind: 'pull' },
  { name: 'nginx on Windows', image: 'nginx', ctx: WS2019, kind: 'fail', text: 'Failed to pull image "nginx": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:latest": no match for platform in manifest: not found' },
  { name: 'windows image on linux', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', ctx: LINUX, kind: 'fail', text: /no match for platform/ },
  { name: 'agnhost on all', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', ctx: WS2022, kind: 'pull' },
  { name: 'pause on WS2019', image: 'registry.k8s.io/pause:3.10', ctx: WS2019, kind: 'pull' },
  { name: 'unknown image is linux multi-arch', image: 'ghcr.io/acme/app:v1', ctx: LINUX, kind: 'pull' },
  { name: 'unknown image fails on windows', image: 'ghcr.io/acme/app:v1', ctx: WS2019, kind: 'fail' },
  { name: 'missing tag of a known repo', image: 'nginx:doesnotexist', ctx: LINUX, kind: 'fail',
    text: 'Failed to pull image "nginx:doesnotexist": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found' },
  { name: 'cached', image: 'nginx:1.27', ctx: ctx('linux', undefined, ['docker.io/library/nginx:1.27']), kind: 'present', text: 'Container image "nginx:1.27" already present on machine' },
  { name: 'cached but Always', image: 'nginx:1.27', policy: 'Always', ctx: ctx('linux', undefined, ['docker.io/library/nginx:1.27']), kind: 'pull' },
  { name: 'Never and absent', image: 'nginx:1.27', policy: 'Never', ctx: LINUX, kind: 'fail', text: 'Container image "nginx:1.27" is not present with pull policy of Never' },
  { name: 'invalid name', image: 'Bad Image', ctx: LINUX, kind: 'fail', text: 'Failed to apply default image tag "Bad Image": couldn\'t parse image name "Bad Image": invalid reference format' },
];

for (const c of cases) {
  test(`decidePull: ${c.name}`, () => {
    const d = decidePull(c.image, c.policy, c.ctx);
    assert.equal(d.kind, c.kind);
    if (c.text instanceof RegExp) assert.match(d.event, c.text);
    else if (c.text) assert.equal(d.event, c.text);
  });
}

test('pull duration follows size and bandwidth with a floor', () => {
  const d = decidePull('nginx:1.27', undefined, LINUX);
  assert.equal(d.kind === 'pull' && d.durationMs, 722);
  const small = decidePull('busybox:1.36', undefined, LINUX);
  assert.equal(small.kind === 'pull' && small.durationMs, 200);
});

test('default pull policy', () => {
  assert.equal(defaultPullPolicy('nginx'), 'Always');
  assert.equal(defaultPullPolicy('nginx:latest'), 'Always');
  assert.equal(defaultPullPolicy('nginx:1.27'), 'IfNotPresent');
  assert.equal(defaultPullPolicy('localhost:5000/app'), 'Always');
  assert.equal(defaultPullPolicy('localhost:5000/app:v1'), 'IfNotPresent');
});

test('references normalise like containerd; digests are stable', () => {
  assert.deepEqual(parseImageRef('nginx'), { repository: 'docker.io/library/nginx', tag: 'latest', digest: undefined });
  assert.equal(parseImageRef('acme/app:v1')?.repository, 'docker.io/acme/app');
  assert.equal(parseImageRef('localhost:5000/app')?.repository, 'localhost:5000/app');
  assert.equal(lookupImage('nginx')?.name, 'docker.io/library/nginx:latest');
  assert.equal(fakeDigest('x'), fakeDigest('x'));
  assert.match(imageIdFor(parseImageRef('nginx:1.27')!), /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
});

test('goDuration matches Go formatting', () => {
  assert.deepEqual([0, 5, 850, 1000, 1234, 1200, 65_250, 3_600_000].map(goDuration), ['0s', '5ms', '850ms', '1s', '1.234s', '1.2s', '1m5.25s', '1h0m0s']);
});
