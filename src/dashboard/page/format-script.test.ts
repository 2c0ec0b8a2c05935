// Runs the browser helpers of app.js in a VM context: FitError splitting, chip colours, units, escaping.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import vm from 'node:vm';
import { FORMAT_SCRIPT } from './format-script.js';

interface Helpers {
  splitFitError(msg: string): { head: string; reasons: string[]; more: string } | null;
  podClass(p: { phase: string; status: string; ready: string }): string;
  fmtCpu(m: number): string;
  fmtBytes(b: number): string;
  esc(s: string): string;
  releaseClass(r: string): string;
}

function load(): Helpers {
  const ctx = vm.createContext({});
  vm.runInContext(FORMAT_SCRIPT, ctx);
  return ctx as unknown as Helpers;
}

test('splitFitError turns the scheduler message into a headline and one line per reason', () => {
  const h = load();
  const cases = [
    {
      msg: "0/5 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
      want: {
        head: '0/5 nodes are available',
        reasons: ["1 node(s) didn't match Pod's node affinity/selector", '1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }', '3 Insufficient cpu'],
        more: 'preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
      },
    },
    { msg: '0/2 nodes are available: 2 Insufficient memory.', want: { head: '0/2 nodes are available', reasons: ['2 Insufficient memory'], more: '' } },
    { msg: 'waiting for ephemeral volume controller to create the persistentvolumeclaim', want: null },
    { msg: '', want: null },
  ];
  for (const c of cases) assert.deepEqual(JSON.parse(JSON.stringify(h.splitFitError(c.msg))), c.want, c.msg);
});

test('podClass: phase colours, not-ready and terminating pods', () => {
  const h = load();
  const cases = [
    { p: { phase: 'Running', status: 'Running', ready: '1/1' }, want: 'ph-running' },
    { p: { phase: 'Running', status: 'CrashLoopBackOff', ready: '0/1' }, want: 'ph-notready' },
    { p: { phase: 'Running', status: 'Terminating', ready: '1/1' }, want: 'ph-terminating' },
    { p: { phase: 'Pending', status: 'ContainerCreating', ready: '0/1' }, want: 'ph-pending' },
    { p: { phase: 'Succeeded', status: 'Completed', ready: '0/1' }, want: 'ph-succeeded' },
    { p: { phase: 'Failed', status: 'Error', ready: '0/1' }, want: 'ph-failed' },
    { p: { phase: 'Unknown', status: 'Unknown', ready: '0/1' }, want: 'ph-unknown' },
  ];
  for (const c of cases) assert.equal(h.podClass(c.p), c.want, c.p.status);
});

test('units, escaping and release colours', () => {
  const h = load();
  assert.deepEqual([0, 250, 1000, 1500, 3400].map(h.fmtCpu), ['0m', '250m', '1', '1.5', '3.4']);
  assert.deepEqual([512, 64 * 2 ** 20, 1.5 * 2 ** 30, 7.7 * 2 ** 30].map(h.fmtBytes), ['512 B', '64 MiB', '1.5 GiB', '7.7 GiB']);
  assert.equal(h.esc('<img src=x onerror="a">&\''), '&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;');
  assert.deepEqual(['WS2019', 'WS2022', 'WS2025', 'WS2023', 'build 25398'].map(h.releaseClass), ['ws2019', 'ws2022', 'ws2025', 'other', 'other']);
});
