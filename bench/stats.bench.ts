// The kubelet stats hot path: /stats/summary and /metrics/resource for one node running N pods (what every
// `kubectl top` scrape costs the node agent per node). Pods are driven to Running through the stage engine first.
// Run: npx tsc -p . && node dist/bench/stats.bench.js    (prints a table, then one JSON line)
//   BENCH_PODS=10,50,110  pods per node;  BENCH_MS=1000  time spent per measurement

import type { Pod } from 'kubernetes-types/core/v1.js';
import { linuxProfile, windowsProfile } from '../src/node/fleet-defaults.js';
import type { NodeProfile } from '../src/node/profile.js';
import { statsEndpoint } from '../src/node/stats/endpoints.js';
import type { StatsSource } from '../src/node/stats/interfaces.js';
import { StageHarness } from '../src/node/testing/stage-harness.js';

const SIZES = (process.env.BENCH_PODS ?? '10,50,110').split(',').map(Number);
const MS = Number(process.env.BENCH_MS ?? 1000);

async function nodeWith(profile: NodeProfile, pods: number): Promise<{ src: StatsSource; now: number }> {
  const image = profile.os === 'windows' ? 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' : 'nginx:1.27';
  const recs = [];
  let now = 0;
  for (let i = 0; i < pods; i++) {
    const pod: Pod = {
      metadata: { name: `p${i}`, namespace: 'bench', uid: `uid-${i}` },
      spec: { containers: [{ name: 'a', image, resources: { limits: { cpu: '250m', memory: '256Mi' } } }, { name: 'b', image }] },
      status: { phase: 'Pending' },
    };
    const h = new StageHarness(pod, profile, [...profile.preloadedImages, image]);
    await h.advance(30_000);
    recs.push(h.rec);
    now = h.clock.now();
  }
  return { src: { profile, bootTime: now - 3_600_000, images: profile.preloadedImages, pods: recs }, now };
}

function rate(fn: () => void): number {
  let n = 0;
  const end = performance.now() + MS;
  while (performance.now() < end) {
    fn();
    n++;
  }
  return n / (MS / 1000);
}

const rows: { os: string; pods: number; summaryPerS: number; resourcePerS: number; summaryKiB: number }[] = [];
for (const profile of [linuxProfile('lin', 1), windowsProfile('win', 2, '10.0.20348')]) {
  for (const pods of SIZES) {
    const { src, now } = await nodeWith(profile, pods);
    let t = now;
    const summary = () => statsEndpoint(src, ['stats', 'summary'], new URLSearchParams(), (t += 1000))!;
    const resource = () => statsEndpoint(src, ['metrics', 'resource'], new URLSearchParams(), (t += 1000))!;
    rows.push({
      os: profile.os, pods,
      summaryPerS: Math.round(rate(summary)),
      resourcePerS: Math.round(rate(resource)),
      summaryKiB: Math.round(summary().body.length / 1024),
    });
  }
}
console.table(rows);
console.log(JSON.stringify({ bench: 'stats', rows }));
