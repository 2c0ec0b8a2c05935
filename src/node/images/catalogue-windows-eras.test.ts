import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageConfig, lookupImage } from './catalogue.js';
import { decidePull, type PullContext } from './pull.js';
import { WINDOWS_RELEASES, windowsPreloadedImages } from '../fleet-defaults.js';

const on = (build: string): PullContext => ({
  profile: { os: 'windows', arch: 'amd64', windowsBuild: build, isolation: 'process' }, present: new Set(), bytesPerSecond: 100_000_000, minPullMs: 200,
});

// Images by era against host builds (process isolation: the exact build before WS2022; seed 004 "Supported Features",
// seed 001 Q12). [image, host build, pulls?]
const cases: [image: string, host: string, pulls: boolean][] = [
  ['microsoft/windowsservercore:1709', '10.0.16299', true],
  ['microsoft/windowsservercore:1709', '10.0.14393', false],
  ['microsoft/windowsservercore:ltsc2016', '10.0.14393', true],
  ['microsoft/windowsservercore:ltsc2016', '10.0.16299', false],
  ['microsoft/iis:windowsservercore-1709', '10.0.16299', true],
  ['microsoft/iis:windowsservercore-1709', '10.0.17134', false],
  ['microsoft/iis', '10.0.14393', true],
  ['microsoft/iis', '10.0.16299', false],
  ['microsoft/nanoserver', '10.0.14393', true],
  ['microsoft/nanoserver:1709', '10.0.16299', true],
  ['mcr.microsoft.com/windows/servercore:1903', '10.0.18362', true],
  ['mcr.microsoft.com/windows/servercore:1903', '10.0.18363', false],
  ['mcr.microsoft.com/windows/servercore:1909', '10.0.18363', true],
  ['mcr.microsoft.com/windows/servercore:2004', '10.0.19041', true],
  ['mcr.microsoft.com/windows/servercore:20H2', '10.0.19042', true],
  ['mcr.microsoft.com/windows/servercore:20H2', '10.0.19041', false],
  ['mcr.microsoft.com/windows/servercore:ltsc2019', '10.0.18362', false],
  ['mcr.microsoft.com/windows/nanoserver:sac2016', '10.0.14393', true],
  ['mcr.microsoft.com/windows/servercore/iis:windowsservercore-2004', '10.0.19041', true],
  ['k8s.gcr.io/pause:3.5', '10.0.18362', true],
  ['k8s.gcr.io/pause:3.5', '10.0.16299', false],
  ['k8s.gcr.io/pause:3.5', '10.0.19042', true],
  ['registry.k8s.io/pause:3.10', '10.0.19041', false],
];
for (const [image, host, pulls] of cases) {
  test(`${image} on ${host}: ${pulls ? 'pulls' : 'no match for platform'}`, () => {
    const d = decidePull(image, 'IfNotPresent', on(host));
    assert.equal(d.kind, pulls ? 'pull' : 'fail');
    if (d.kind === 'fail') assert.match(d.message, /no match for platform in manifest: not found$/);
  });
}

test('an untagged Windows image resolves to :latest, the WS2016 build (seed 004 "Supported Features")', () => {
  const img = lookupImage('microsoft/iis')!;
  assert.equal(img.name, 'docker.io/microsoft/iis:latest');
  assert.deepEqual(img.platforms.map((p) => p.osVersion), ['10.0.14393.7699']);
  assert.deepEqual(imageConfig(img).entrypoint, ['C:\\ServiceMonitor.exe', 'w3svc']);
  assert.equal(imageConfig(lookupImage('microsoft/windowsservercore:1709')!).toolset.windows, 'servercore');
});

test('every known release preloads images that exist in the catalogue and run on it', () => {
  for (const build of Object.keys(WINDOWS_RELEASES)) {
    for (const image of windowsPreloadedImages(build)) {
      const img = lookupImage(image);
      assert.ok(img?.known && !img.tagMissing, `${image} is in the catalogue`);
      assert.equal(decidePull(image, 'Always', on(build)).kind, 'pull', `${image} runs on ${build}`);
    }
  }
});
