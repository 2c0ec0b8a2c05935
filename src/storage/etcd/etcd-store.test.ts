// Runs the Store conformance suite against a real etcd (one process per file, a key prefix per case), plus etcd-only behaviour.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { storeConformance } from '../conformance.js';
import { eventually, settle } from '../conformance/helpers.js';
import type { Store, StoreError, StoreEvent } from '../interfaces.js';
import { silentLogger } from '../../util/log.js';
import { EtcdStore } from './etcd-store.js';
import { ETCD_BIN, etcdInstalled, startLocalEtcd, type LocalEtcd } from './local-etcd.js';

/** A TCP relay to etcd that can cut every connection through it and refuse new ones, like a network partition. */
async function cuttableProxy(target: string): Promise<{ endpoint: string; cut(): void; restore(): void; close(): Promise<void> }> {
  const url = new URL(target);
  const sockets = new Set<Socket>();
  let blocked = false;
  const server = createServer((client) => {
    if (blocked) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(url.port), url.hostname);
    const pair = [client, upstream];
    client.pipe(upstream);
    upstream.pipe(client);
    for (const sock of pair) {
      sockets.add(sock);
      const drop = () => {
        sockets.delete(sock);
        for (const other of pair) other.destroy();
      };
      sock.on('error', drop);
      sock.on('close', drop);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    cut: () => {
      blocked = true;
      for (const sock of sockets) sock.destroy();
    },
    restore: () => void (blocked = false),
    close: () => {
      for (const sock of sockets) sock.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

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

    test('a cut watch stream: a gap-free resume delivers what it missed; compaction while cut calls onLost once', async () => {
      const proxy = await cuttableProxy(etcd.endpoint);
      const cut = new EtcdStore({ endpoints: [proxy.endpoint], keyPrefix: '/cut', logger: silentLogger, timeoutMs: 2000 });
      const direct = store('/cut');
      try {
        const seen: number[] = [];
        const lost: StoreError[] = [];
        await cut.watch('/k/', await direct.revision(), (ev) => seen.push(ev.revision), { onLost: (r) => lost.push(r) });
        const r1 = (await direct.create('/k/1', '1')).modRevision;
        await eventually(() => seen.length === 1, 'the first event');

        proxy.cut();
        const r2 = (await direct.create('/k/2', '1')).modRevision;
        proxy.restore();
        await eventually(() => seen.length === 2, 'the event written while cut', 8000);
        assert.deepEqual(seen, [r1, r2]);
        assert.equal(lost.length, 0, 'etcd still held the missed revision: no loss');

        proxy.cut();
        await direct.create('/k/3', '1');
        const r4 = (await direct.create('/k/4', '1')).modRevision;
        await direct.compact(r4); // the stream will ask to resume at r2 + 1 < r4: compacted
        proxy.restore();
        await eventually(() => lost.length > 0, 'onLost', 8000);
        await settle();
        assert.equal(lost.length, 1);
        assert.equal(lost[0]!.code, 'Compacted');
        assert.deepEqual(seen, [r1, r2], 'nothing after the gap');
        // The store itself carries on: a new watch from now works.
        const after: number[] = [];
        await cut.watch('/k/', await cut.revision(), (ev) => after.push(ev.revision));
        const r5 = (await direct.create('/k/5', '1')).modRevision;
        await eventually(() => after.length === 1, 'a new watch after the loss');
        assert.deepEqual(after, [r5]);
      } finally {
        await cut.close();
        await direct.close();
        await proxy.close();
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
