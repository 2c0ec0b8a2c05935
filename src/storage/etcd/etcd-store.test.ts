// Runs the Store conformance suite against a real etcd (one process per file, a key prefix per case), plus etcd-only behaviour.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { storeConformance } from '../conformance.js';
import type { Store, StoreEvent } from '../interfaces.js';
import { silentLogger } from '../../util/log.js';
import { EtcdStore } from './etcd-store.js';
import { ETCD_BIN, etcdInstalled, startLocalEtcd, type LocalEtcd } from './local-etcd.js';

if (!etcdInstalled()) {
  const why = `${ETCD_BIN} not found (Debian: apt-get install etcd-server; or set WINKUBE_ETCD_BIN)`;
  // CI installs etcd (.ci/run), so there a missing binary is a broken set-up, not a reason to skip.
  if (process.env.CI) test('etcd is installed', () => assert.fail(`${why}: CI must run the etcd backend tests`));
  else test('Store conformance: etcd', { skip: why }, () => {});
} else {
  let etcd: LocalEtcd;
  before(async () => {
    etcd = await startLocalEtcd();
  });
  after(async () => {
    await etcd?.stop();
  });
  const store = (keyPrefix: string, endpoints = [etcd.endpoint]) => new EtcdStore({ endpoints, keyPrefix, logger: silentLogger });
  let cases = 0;

  // One etcd for the whole file; each case gets its own key prefix, so it sees an empty store. Revisions and
  // compaction are cluster-wide, which the suite allows (it never assumes revisions start at 1).
  storeConformance('etcd', async () => store(`/case-${++cases}`), {
    // Persistence restarts a real etcd process on the same data dir and ports.
    persistent: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'winkube-etcd-persist-'));
      let ports: LocalEtcd['ports'] | undefined;
      return {
        open: async () => {
          const member = await startLocalEtcd({ dataDir, ports });
          ports = member.ports;
          const s = store('', [member.endpoint]);
          const close = s.close.bind(s);
          s.close = async () => {
            await close();
            await member.stop();
          };
          return s;
        },
        dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  });

  describe('EtcdStore specifics', () => {
    const using = async (stores: Store[], fn: () => Promise<void>) => {
      try {
        await fn();
      } finally {
        for (const s of stores) await s.close();
      }
    };

    test('two stores on one etcd: a write through one is read and, after watchProgress, watched through the other', async () => {
      const a = store('/ha');
      const b = store('/ha');
      await using([a, b], async () => {
        const seen: StoreEvent[] = [];
        await b.watch('/pods/', await b.revision(), (ev) => seen.push(ev));
        const kv = await a.create('/pods/x', '{"x":1}');
        const progressed = await b.watchProgress();
        assert.ok(progressed >= kv.modRevision);
        assert.deepEqual(seen.map((e) => [e.type, e.key, e.revision]), [['put', '/pods/x', kv.modRevision]]);
        assert.deepEqual(await b.get('/pods/x'), kv);
        assert.deepEqual((await b.list('/pods/')).items, [kv]);
        await assert.rejects(b.create('/pods/x', 'again'), { code: 'KeyExists' });
      });
    });

    test('watchProgress covers revisions written outside the key prefix and outside the watched prefix', async () => {
      const mine = store('/mine');
      const other = store('/other');
      await using([mine, other], async () => {
        const seen: StoreEvent[] = [];
        await mine.watch('/a/', await mine.revision(), (ev) => seen.push(ev));
        const foreign = await other.create('/a/1', 'not mine');
        const unwatched = await mine.create('/b/1', 'not watched');
        assert.ok((await mine.watchProgress()) >= Math.max(foreign.modRevision, unwatched.modRevision));
        const mineA = await mine.create('/a/1', 'mine');
        assert.ok((await mine.watchProgress()) >= mineA.modRevision);
        assert.deepEqual(seen.map((e) => e.revision), [mineA.modRevision], 'only its own prefix, and nothing missing');
        assert.deepEqual((await mine.list('/')).items.map((kv) => kv.key), ['/a/1', '/b/1']);
      });
    });

    test('a replaying watch joins the live stream without gaps or duplicates while writes continue', async () => {
      const s = store('/join');
      await using([s], async () => {
        const start = await s.revision();
        for (let i = 0; i < 50; i++) await s.create(`/k/${i}`, String(i));
        const written: number[] = [];
        const writer = (async () => {
          for (let i = 0; i < 100; i++) written.push((await s.update(`/k/${i % 50}`, `u${i}`)).modRevision);
        })();
        const got: number[] = [];
        // Started mid-way through the writes: replays the creates, then must hand over to the main stream.
        await new Promise((r) => setTimeout(r, 20));
        await s.watch('/k/', start, (ev) => got.push(ev.revision));
        await writer;
        await s.watchProgress();
        assert.equal(got.length, 150);
        assert.deepEqual(got, [...got].sort((x, y) => x - y));
        assert.deepEqual(got.slice(50), written);
      });
    });

    test('watches survive an etcd restart (the stream resumes from the last revision it saw)', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'winkube-etcd-restart-'));
      let member = await startLocalEtcd({ dataDir });
      const s = new EtcdStore({ endpoints: [member.endpoint], logger: silentLogger, timeoutMs: 2000 });
      try {
        const seen: number[] = [];
        await s.watch('/r/', await s.revision(), (ev) => seen.push(ev.revision));
        const r1 = (await s.create('/r/1', '1')).modRevision;
        await member.stop();
        await assert.rejects(s.get('/r/1'), { code: 'Unavailable' });
        member = await startLocalEtcd({ dataDir, ports: member.ports });
        const r2 = (await s.create('/r/2', '2')).modRevision;
        const deadline = Date.now() + 8000;
        while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        assert.deepEqual(seen, [r1, r2]);
      } finally {
        await s.close();
        await member.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    test('an unreachable member is skipped; with none reachable, calls fail with Unavailable', async () => {
      const dead = 'http://127.0.0.1:1'; // port 1: nothing listens, the connection is refused
      const s = store('/fo', [dead, etcd.endpoint]);
      const none = store('/fo', [dead]);
      await using([s, none], async () => {
        const kv = await s.create('/a', '1');
        assert.deepEqual(await s.get('/a'), kv);
        await assert.rejects(none.get('/a'), { name: 'StoreError', code: 'Unavailable' });
        await assert.rejects(none.watch('/', 0, () => {}), { code: 'Unavailable' });
      });
    });

    test('closed store rejects calls with Unavailable; compacting the future is refused', async () => {
      const s = store('/cl');
      await s.create('/a', '1');
      await assert.rejects(s.compact((await s.revision()) + 100), RangeError);
      await s.close();
      await assert.rejects(s.get('/a'), { code: 'Unavailable' });
      await s.close();
    });
  });
}
