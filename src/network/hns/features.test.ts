import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DSR_UBR_WS2019, hnsFeatures, hnsVersionOf } from './features.js';

// microsoft/hcsshim hcn/hcnglobals.go DSRVersion: 9.3 through 9.max and 10.2 and later, inclusive at both ends
// (hcnsupport.go isFeatureInRange); 10.0 and 10.1 have no DSR.
const MAX = 2 ** 31 - 1;
const BY_VERSION: [major: number, minor: number, dsr: boolean][] = [
  [7, 2, false],
  [9, 2, false],
  [9, 3, true],
  [9, MAX, true],
  [10, 0, false],
  [10, 1, false],
  [10, 2, true],
  [11, 0, true],
  [15, 4, true],
  [MAX, MAX, true],
];

for (const [major, minor, dsr] of BY_VERSION) {
  test(`HNS ${major}.${minor}: DSR ${dsr ? 'supported' : 'not supported'}`, () => {
    assert.equal(hnsFeatures({ major, minor }).dsr, dsr);
  });
}

// WS2019 has DSR from KB4571748 (17763.1432); before it HNS 9.2 has the v2 API but no DSR. Later builds all have it.
const BY_BUILD: [build: string, ubr: number | undefined, dsr: boolean][] = [
  ['10.0.14393', undefined, false],
  ['10.0.17134', undefined, false],
  ['10.0.17763', 1, false],
  ['10.0.17763', DSR_UBR_WS2019 - 1, false],
  ['10.0.17763', DSR_UBR_WS2019, true],
  ['10.0.17763', 6893, true],
  ['10.0.17763', undefined, true],
  ['10.0.18362', 1, true],
  ['10.0.20348', 1, true],
  ['10.0.26100', undefined, true],
];

for (const [build, ubr, dsr] of BY_BUILD) {
  test(`Windows ${build}.${ubr ?? '(current)'}: DSR ${dsr ? 'supported' : 'not supported'}`, () => {
    const f = hnsFeatures(hnsVersionOf(build, ubr));
    assert.equal(f.dsr, dsr);
    // Everything WS2019 brought (HCN v2, remote subnets) is there with or without the DSR update.
    if (build === '10.0.17763') assert.ok(f.v2 && f.remoteSubnet && f.hostRoute);
  });
}
