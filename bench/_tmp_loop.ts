import { Cache } from '../src/scheduler/cache/cache.js';
import { CycleState } from '../src/scheduler/framework/cycle-state.js';
import { Framework } from '../src/scheduler/framework/runtime.js';
import { defaultPlugins } from '../src/scheduler/config.js';
import { inTreeRegistry } from '../src/scheduler/plugins/registry.js';
import { schedulePod } from '../src/scheduler/schedule-pod.js';
import { testHandle } from '../src/scheduler/testing/harness.js';
const N = Number(process.env.N ?? 1000), M = Number(process.env.M ?? 2000);
const BUILDS = ['10.0.17763', '10.0.20348'];
const cache = new Cache();
for (let i = 0; i < N; i++) {
  const windows = i % 5 >= 3;
  const labels: Record<string,string> = { 'kubernetes.io/hostname': `node-${i}`, 'kubernetes.io/os': windows ? 'windows' : 'linux' };
  if (windows) labels['node.kubernetes.io/windows-build'] = BUILDS[i % 2]!;
  cache.addOrUpdateNode({ apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${i}`, labels }, spec: windows ? { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] } : {}, status: { allocatable: { cpu: '32', memory: '126Gi', pods: '110' } } } as any);
}
const h = testHandle('v1.33.1', cache);
const fw = new Framework({ registry: inTreeRegistry(), plugins: defaultPlugins('v1.33.1'), handle: h });
const ps = { framework: fw, cache, percentageOfNodesToScore: 0, rng: Math.random, nextStartNodeIndex: 0 };
let evald = 0;
const t0 = performance.now();
for (let i = 0; i < M; i++) {
  const spec: any = { containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] };
  if (i % 5 >= 3) { spec.nodeSelector = { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': BUILDS[i % 2] }; spec.tolerations = [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]; }
  else spec.nodeSelector = { 'kubernetes.io/os': 'linux' };
  const pod: any = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, namespace: 'b', uid: `u${i}` }, spec };
  const r = schedulePod(ps, pod, new CycleState());
  evald += r.evaluatedNodes;
  cache.assumePod({ ...pod, spec: { ...spec, nodeName: r.suggestedHost } }, r.suggestedHost);
}
const ms = performance.now() - t0;
console.log(`N=${N} M=${M} ${ms.toFixed(0)} ms, ${(M / ms * 1000).toFixed(0)} pods/s, avg evaluated ${(evald / M).toFixed(0)}, ${(ms * 1e3 / evald).toFixed(3)} us/node`);
