import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodStatus } from 'kubernetes-types/core/v1.js';
import { ContainerLog } from './container-log.js';
import { parseLogOptions, readLogs, rfc3339Nano, type LogOptions } from './read-logs.js';
import { containerLogTarget } from './log-status.js';

const T0 = Date.parse('2026-01-02T03:04:05.000Z');

function logWith(lines: [number, string][]): ContainerLog {
  let now = T0;
  const log = new ContainerLog('containerd://abc', () => now);
  for (const [at, text] of lines) {
    now = T0 + at;
    log.write('stdout', text);
  }
  return log;
}

function read(log: ContainerLog, o: Partial<LogOptions>): { out: string; ended: boolean; stop: () => void } {
  const r = { out: '', ended: false, stop: () => {} };
  r.stop = readLogs(log, { follow: false, timestamps: false, ...o }, { write: (c) => (r.out += c.toString()), end: () => (r.ended = true) });
  return r;
}

const three: [number, string][] = [[0, 'one\n'], [1000, 'two\n'], [2000, 'three\n']];

const cases: { name: string; o: Partial<LogOptions>; want: string }[] = [
  { name: 'everything', o: {}, want: 'one\ntwo\nthree\n' },
  { name: 'tail 2', o: { tailLines: 2 }, want: 'two\nthree\n' },
  { name: 'tail 0', o: { tailLines: 0 }, want: '' },
  { name: 'since', o: { sinceMs: T0 + 1000 }, want: 'two\nthree\n' },
  { name: 'limit bytes cuts mid-line', o: { limitBytes: 6 }, want: 'one\ntw' },
  { name: 'timestamps', o: { timestamps: true, tailLines: 1 }, want: '2026-01-02T03:04:07.000000002Z three\n' },
];
for (const c of cases) {
  test(`readLogs: ${c.name}`, () => {
    const r = read(logWith(three), c.o);
    assert.equal(r.out, c.want);
    assert.ok(r.ended);
  });
}

test('partial lines wait for their newline; close flushes them and ends followers', () => {
  const log = logWith([[0, 'a'], [0, 'b\nc']]);
  assert.deepEqual(log.snapshot().map((e) => e.data.toString()), ['ab\n']);
  const r = read(log, { follow: true });
  assert.equal(r.out, 'ab\n');
  log.write('stdout', 'd\n');
  assert.equal(r.out, 'ab\ncd\n');
  assert.equal(r.ended, false);
  log.write('stderr', 'tail');
  log.close();
  assert.equal(r.out, 'ab\ncd\ntail');
  assert.ok(r.ended);
});

test('follow with limitBytes ends once the limit is reached', () => {
  const log = logWith([[0, 'abc\n']]);
  const r = read(log, { follow: true, limitBytes: 6 });
  log.write('stdout', 'defg\n');
  assert.equal(r.out, 'abc\nde');
  assert.ok(r.ended);
});

test('rfc3339Nano trims trailing zeros as Go does', () => {
  assert.equal(rfc3339Nano({ at: T0, seq: 0 }), '2026-01-02T03:04:05Z');
  assert.equal(rfc3339Nano({ at: T0 + 120, seq: 0 }), '2026-01-02T03:04:05.12Z');
  assert.equal(rfc3339Nano({ at: T0 + 1, seq: 7 }), '2026-01-02T03:04:05.001000007Z');
});

test('parseLogOptions reads the kubelet query', () => {
  const o = parseLogOptions(new URLSearchParams('follow=true&tailLines=3&sinceSeconds=10&limitBytes=5&timestamps=true'), T0);
  assert.deepEqual(o, { follow: true, timestamps: true, tailLines: 3, limitBytes: 5, sinceMs: T0 - 10_000 });
});

// pkg/kubelet/kubelet_pods.go validateContainerLogStatus
const running = { running: { startedAt: 'x' } };
const statusCases: { name: string; status: PodStatus; previous?: boolean; want: ReturnType<typeof containerLogTarget> }[] = [
  { name: 'unknown container', status: {}, want: { error: 'container "c" in pod "p" is not available' } },
  { name: 'running', status: { containerStatuses: [{ name: 'c', containerID: 'id1', state: running } as never] }, want: { containerID: 'id1' } },
  { name: 'previous missing', status: { containerStatuses: [{ name: 'c', containerID: 'id1', state: running } as never] }, previous: true, want: { error: 'previous terminated container "c" in pod "p" not found' } },
  { name: 'previous', status: { containerStatuses: [{ name: 'c', containerID: 'id2', state: running, lastState: { terminated: { exitCode: 1, containerID: 'id1' } } } as never] }, previous: true, want: { containerID: 'id1' } },
  { name: 'crash loop reads the last instance', status: { containerStatuses: [{ name: 'c', state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, containerID: 'id1' } } } as never] }, want: { containerID: 'id1' } },
  { name: 'creating', status: { containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ContainerCreating' } } } as never] }, want: { error: 'container "c" in pod "p" is waiting to start: ContainerCreating' } },
  { name: 'pull error', status: { containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ErrImagePull' } } } as never] }, want: { error: 'container "c" in pod "p" is waiting to start: image can\'t be pulled' } },
  { name: 'pull back-off', status: { initContainerStatuses: [{ name: 'c', state: { waiting: { reason: 'ImagePullBackOff' } } } as never] }, want: { error: 'container "c" in pod "p" is waiting to start: trying and failing to pull image' } },
  { name: 'no state', status: { containerStatuses: [{ name: 'c', state: {} } as never] }, want: { error: 'container "c" in pod "p" is waiting to start - no logs yet' } },
];
for (const c of statusCases) {
  test(`containerLogTarget: ${c.name}`, () => assert.deepEqual(containerLogTarget('p', c.status, 'c', c.previous ?? false), c.want));
}
