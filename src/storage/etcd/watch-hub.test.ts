// Unit tests for the etcd watch hub's lost-stream decisions, on scripted watch streams (no etcd needed).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreError, type StoreEvent } from '../interfaces.js';
import { silentLogger } from '../../util/log.js';
import { b64, type WireEvent, type WireWatchResponse } from './etcd-codec.js';
import type { StreamHandle, StreamHandlers, StreamOpener } from './etcd-http.js';
import { WatchHub } from './watch-hub.js';

interface Scripted {
  /** start_revision of the watch create request. */
  start: number;
  on: StreamHandlers;
  closed: boolean;
}

/** Plays etcd's side of the /v3/watch streams the hub opens: the test sends responses and breaks connections. */
class ScriptedEtcd implements StreamOpener {
  readonly streams: Scripted[] = [];
  /** What currentRevision() answers. */
  revision = 10;

  stream(_path: string, body: object, on: StreamHandlers): StreamHandle {
    const req = body as { create_request: { start_revision: string } };
    const s: Scripted = { start: Number(req.create_request.start_revision), on, closed: false };
    this.streams.push(s);
    return { close: () => void (s.closed = true) };
  }

  send(s: Scripted, result: WireWatchResponse): void {
    assert.equal(s.closed, false, 'sending on a stream the hub closed');
    s.on.message({ result });
  }

  /** etcd confirms the watch (it always does so before any event or compaction notice for it). */
  created(s: Scripted): void {
    this.send(s, { created: true, header: { revision: String(this.revision) } });
  }

  events(s: Scripted, ...revs: number[]): void {
    this.send(s, { header: { revision: String(Math.max(...revs)) }, events: revs.map(put) });
  }

  /** The connection drops (etcd restart, network): the hub sees the stream end with an error. */
  broken(s: Scripted): void {
    s.on.end(new Error('read ECONNRESET'));
  }

  /** Waits (real time: the hub's reconnect backoff uses timers) until the hub has opened stream number `n`. */
  async nth(n: number): Promise<Scripted> {
    const deadline = Date.now() + 3000;
    while (this.streams.length <= n) {
      if (Date.now() > deadline) assert.fail(`the hub did not open watch stream #${n}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return this.streams[n]!;
  }
}

function put(rev: number): WireEvent {
  return { kv: { key: b64(`/a/${rev}`), value: b64('v'), create_revision: String(rev), mod_revision: String(rev) } };
}

/** A watcher's view: the revisions it got and the reasons it was told it lost its stream. */
function recorder() {
  const got: number[] = [];
  const lost: StoreError[] = [];
  return { got, lost, onEvent: (ev: StoreEvent) => void got.push(ev.revision), onLost: (r: StoreError) => void lost.push(r) };
}

async function hubWithMain(etcd: ScriptedEtcd): Promise<{ hub: WatchHub; main: Scripted }> {
  const hub = new WatchHub({ http: etcd, keyPrefix: '', currentRevision: async () => etcd.revision, logger: silentLogger });
  // The first watch opens the main stream at the current revision + 1; it is ready once etcd confirms it.
  const first = hub.progress(0, 0);
  const main = await etcd.nth(0);
  assert.equal(main.start, etcd.revision + 1);
  etcd.created(main);
  await first;
  return { hub, main };
}

test('a reconnect that resumes from the next revision is gap-free: no onLost, nothing missing', async () => {
  const etcd = new ScriptedEtcd();
  const { hub, main } = await hubWithMain(etcd);
  const w = recorder();
  await hub.watch('/a/', 10, w.onEvent, w.onLost);
  etcd.events(main, 11, 12);
  etcd.broken(main);
  const resumed = await etcd.nth(1);
  assert.equal(resumed.start, 13, 'resumes right after the last revision it dispatched');
  etcd.created(resumed);
  etcd.events(resumed, 13, 14); // written while the stream was down: etcd still holds them
  etcd.events(resumed, 15);
  assert.deepEqual(w.got, [11, 12, 13, 14, 15]);
  assert.deepEqual(w.lost, []);
  hub.close();
});

test('compacted while the stream was down: watchers that missed revisions get onLost once; later ones are kept', async () => {
  const etcd = new ScriptedEtcd();
  const { hub, main } = await hubWithMain(etcd);
  const early = recorder();
  const future = recorder();
  const hEarly = await hub.watch('/a/', 10, early.onEvent, early.onLost);
  await hub.watch('/a/', 20, future.onEvent, future.onLost); // only wants revisions after 20
  etcd.events(main, 11, 12);
  etcd.broken(main);
  const resumed = await etcd.nth(1);
  assert.equal(resumed.start, 13);
  // Meanwhile revisions 13..20 were written and etcd compacted to 18: 13..18 are gone for good.
  etcd.revision = 20;
  etcd.created(resumed);
  etcd.send(resumed, { canceled: true, compact_revision: '18', header: { revision: '20' } });
  const fromNow = await etcd.nth(2);
  assert.equal(fromNow.start, 21, 'delivery resumes from the present');
  assert.equal(resumed.closed, true);
  assert.equal(early.lost.length, 1);
  assert.equal(early.lost[0]!.code, 'Compacted');
  assert.match(early.lost[0]!.message, /revisions 13\.\.20 were not delivered/);
  assert.deepEqual(future.lost, [], 'nothing it wanted was skipped');

  etcd.created(fromNow);
  const late = recorder();
  await hub.watch('/a/', 20, late.onEvent, late.onLost);
  etcd.events(fromNow, 21, 22);
  assert.deepEqual(early.got, [11, 12], 'nothing after the gap reaches a lost watcher');
  assert.deepEqual(future.got, [21, 22]);
  assert.deepEqual(late.got, [21, 22]);
  assert.ok((await hub.progress(22, 100)) >= 22, 'progress vouches only for what the remaining watchers have');
  hEarly.stop(); // harmless after onLost
  assert.equal(early.lost.length, 1, 'told exactly once');
  hub.close();
  assert.deepEqual([future.lost, late.lost], [[], []], 'close() is not a lost stream');
});

test('a replay that breaks and cannot resume (history compacted meanwhile) ends that watcher with onLost', async () => {
  const etcd = new ScriptedEtcd();
  const { hub, main } = await hubWithMain(etcd);
  etcd.events(main, 11, 12, 13, 14, 15);
  const w = recorder();
  const watching = hub.watch('/a/', 11, w.onEvent, w.onLost); // behind the main stream: replays 12..15 first
  const replay = await etcd.nth(1);
  assert.equal(replay.start, 11);
  etcd.created(replay);
  etcd.events(replay, 12, 13);
  const handle = await watching;
  etcd.events(main, 16); // held for the watcher until its replay catches up
  etcd.broken(replay);
  const again = await etcd.nth(2);
  assert.equal(again.start, 13, 'the replay resumes where it stopped');
  etcd.created(again);
  etcd.send(again, { canceled: true, compact_revision: '14' });
  await new Promise((r) => setImmediate(r)); // the failed resume settles as a promise
  assert.deepEqual(w.got, [12, 13]);
  assert.equal(w.lost.length, 1);
  assert.equal(w.lost[0]!.code, 'Compacted');
  etcd.events(main, 17);
  assert.deepEqual(w.got, [12, 13], 'the main stream no longer feeds it');
  handle.stop();
  hub.close();
});

test('etcd compacts a replay that is still catching up: that watcher gets onLost, others carry on', async () => {
  const etcd = new ScriptedEtcd();
  const { hub, main } = await hubWithMain(etcd);
  etcd.events(main, 11, 12, 13, 14, 15);
  const live = recorder();
  await hub.watch('/a/', 15, live.onEvent, live.onLost);
  const w = recorder();
  const watching = hub.watch('/a/', 11, w.onEvent, w.onLost);
  const replay = await etcd.nth(1);
  etcd.created(replay);
  etcd.events(replay, 12);
  await watching;
  etcd.send(replay, { canceled: true, compact_revision: '14' });
  assert.equal(replay.closed, true);
  assert.deepEqual(w.got, [12]);
  assert.equal(w.lost.length, 1);
  assert.equal(w.lost[0]!.message, 'too old resource version: 11 (14)');
  etcd.events(main, 16);
  assert.deepEqual(w.got, [12]);
  assert.deepEqual(live.got, [16]);
  assert.equal(live.lost.length, 0);
  hub.close();
});

test('lost before watch() returned: the call rejects with the reason instead of calling onLost', async () => {
  const etcd = new ScriptedEtcd();
  const { hub, main } = await hubWithMain(etcd);
  etcd.events(main, 11, 12, 13);
  const w = recorder();
  const watching = hub.watch('/a/', 11, w.onEvent, w.onLost);
  const replay = await etcd.nth(1); // no answer yet: watch() is still waiting
  etcd.broken(main);
  const resumed = await etcd.nth(2);
  etcd.revision = 30;
  etcd.created(resumed);
  etcd.send(resumed, { canceled: true, compact_revision: '25' });
  await assert.rejects(watching, (err: unknown) => err instanceof StoreError && err.code === 'Compacted');
  assert.equal(replay.closed, true);
  assert.deepEqual(w.lost, []);
  hub.close();
});
