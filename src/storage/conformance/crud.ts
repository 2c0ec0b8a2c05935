// Conformance cases for reads and writes: create/get/update/delete, preconditions, revisions, list and paging.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '../interfaces.js';
import { rejectsWith, withStore, type MakeStore } from './helpers.js';

export function crudCases(makeStore: MakeStore): void {
  const run = (name: string, fn: (s: Store) => Promise<void>) => test(name, () => withStore(makeStore, fn));

  run('create then get returns the value with createRevision = modRevision', async (s) => {
    const kv = await s.create('/c/a', '{"x":1}');
    assert.deepEqual(kv, { key: '/c/a', value: '{"x":1}', createRevision: kv.modRevision, modRevision: kv.modRevision });
    assert.ok(kv.modRevision > 0);
    assert.deepEqual(await s.get('/c/a'), kv);
    assert.equal(await s.get('/c/missing'), undefined);
    assert.ok((await s.revision()) >= kv.modRevision);
  });

  run('values are stored verbatim, never parsed', async (s) => {
    const values = ['', 'not json {', '{"a": 1,   "b":[ ]}', 'ünïcødé ✓ 𝄞', 'x'.repeat(200_000)];
    for (const [i, v] of values.entries()) await s.create(`/v/${i}`, v);
    for (const [i, v] of values.entries()) assert.equal((await s.get(`/v/${i}`))?.value, v);
  });

  run('errors: KeyExists, KeyNotFound, and failed writes take no revision', async (s) => {
    const kv = await s.create('/e/a', '1');
    const before = await s.revision();
    await rejectsWith(s.create('/e/a', '2'), 'KeyExists');
    await rejectsWith(s.update('/e/none', '2'), 'KeyNotFound');
    await rejectsWith(s.delete('/e/none'), 'KeyNotFound');
    await rejectsWith(s.update('/e/a', '2', kv.modRevision + 1000), 'Conflict');
    assert.equal(await s.revision(), before);
    assert.equal((await s.get('/e/a'))?.value, '1');
  });

  run('update keeps createRevision, bumps modRevision, honours the precondition', async (s) => {
    const created = await s.create('/u/a', 'v1');
    const u1 = await s.update('/u/a', 'v2');
    assert.equal(u1.createRevision, created.createRevision);
    assert.ok(u1.modRevision > created.modRevision);
    const u2 = await s.update('/u/a', 'v3', u1.modRevision);
    assert.equal(u2.value, 'v3');
    const err = await rejectsWith(s.update('/u/a', 'v4', u1.modRevision), 'Conflict');
    assert.deepEqual(err.current, u2, 'Conflict carries the current value');
    assert.deepEqual(await s.get('/u/a'), u2);
  });

  run('delete returns the deleted value, honours the precondition, and re-create starts afresh', async (s) => {
    const created = await s.create('/d/a', 'v1');
    const updated = await s.update('/d/a', 'v2');
    const err = await rejectsWith(s.delete('/d/a', created.modRevision), 'Conflict');
    assert.deepEqual(err.current, updated);
    const { deleted, revision } = await s.delete('/d/a', updated.modRevision);
    assert.deepEqual(deleted, updated);
    assert.ok(revision > updated.modRevision);
    assert.equal(await s.get('/d/a'), undefined);
    const again = await s.create('/d/a', 'v3');
    assert.ok(again.createRevision > revision);
  });

  run('revisions are global and strictly increasing across keys', async (s) => {
    const writes: Array<() => Promise<number>> = [
      () => s.create('/r/a', '1').then((kv) => kv.modRevision),
      () => s.create('/r/b', '1').then((kv) => kv.modRevision),
      () => s.update('/r/a', '2').then((kv) => kv.modRevision),
      () => s.create('/other/x', '1').then((kv) => kv.modRevision),
      () => s.delete('/r/b').then((d) => d.revision),
      () => s.update('/r/a', '3').then((kv) => kv.modRevision),
    ];
    let last = await s.revision();
    for (const write of writes) {
      const rev = await write();
      assert.ok(rev > last, `revision ${rev} after ${last}`);
      assert.ok((await s.revision()) >= rev);
      last = rev;
    }
  });

  run('list: key order, prefix isolation, list revision', async (s) => {
    for (const k of ['/p/b/2', '/p/bc', '/p/b', '/p/b/1', '/p/c/1', '/p/a/1', '/pz']) await s.create(k, k);
    const keys = async (prefix: string) => (await s.list(prefix)).items.map((kv) => kv.key);
    const cases: Array<[string, string[]]> = [
      ['/p/b/', ['/p/b/1', '/p/b/2']],
      ['/p/b', ['/p/b', '/p/b/1', '/p/b/2', '/p/bc']],
      ['/p/', ['/p/a/1', '/p/b', '/p/b/1', '/p/b/2', '/p/bc', '/p/c/1']],
      ['/p/d/', []],
      ['/', ['/p/a/1', '/p/b', '/p/b/1', '/p/b/2', '/p/bc', '/p/c/1', '/pz']],
    ];
    for (const [prefix, want] of cases) assert.deepEqual(await keys(prefix), want, `list(${prefix})`);
    const res = await s.list('/p/');
    assert.equal(res.more, false);
    assert.equal(res.revision, await s.revision());
    const one = res.items.find((kv) => kv.key === '/p/c/1');
    assert.deepEqual(one, await s.get('/p/c/1'));
  });

  run('list paging with limit and afterKey', async (s) => {
    const all = ['/g/a', '/g/b', '/g/c', '/g/d', '/g/e', '/g/f', '/g/g'];
    for (const k of [...all].reverse()) await s.create(k, 'v');
    await s.create('/g0', 'outside');
    await s.create('/f/z', 'outside');
    const pages: string[][] = [];
    const mores: boolean[] = [];
    let afterKey: string | undefined;
    for (;;) {
      const page = await s.list('/g/', { limit: 3, afterKey });
      pages.push(page.items.map((kv) => kv.key));
      mores.push(page.more);
      if (!page.more) break;
      afterKey = page.items[page.items.length - 1]!.key;
    }
    assert.deepEqual(pages, [all.slice(0, 3), all.slice(3, 6), all.slice(6)]);
    assert.deepEqual(mores, [true, true, false]);
    const exact = await s.list('/g/', { limit: 7 });
    assert.equal(exact.items.length, 7);
    assert.equal(exact.more, false, 'a limit equal to the count is not "more"');
    assert.equal((await s.list('/g/', { limit: 0 })).items.length, 7, 'limit 0 means all');
    assert.deepEqual((await s.list('/g/', { afterKey: '/a' })).items.length, 7, 'afterKey before the range is ignored');
    assert.deepEqual((await s.list('/g/', { afterKey: '/g/g' })).items, []);
    assert.deepEqual((await s.list('/g/', { afterKey: '/h' })).items, []);
  });
}
