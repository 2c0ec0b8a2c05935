import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run } from './testing/fake-env.js';
import { decodeTar, encodeTar, FsError, Volume, VirtualFs, volumeFromFiles } from './index.js';
import { resolvePath } from './fs/path.js';

const paths: { os: 'linux' | 'windows'; cwd: string; p: string; want: string }[] = [
  { os: 'linux', cwd: '/a/b', p: '../c/./d', want: '/a/c/d' },
  { os: 'linux', cwd: '/', p: '/x//y/', want: '/x/y' },
  { os: 'windows', cwd: 'C:\\Users', p: 'foo/bar', want: 'C:\\Users\\foo\\bar' },
  { os: 'windows', cwd: 'C:\\Users\\x', p: '\\Windows', want: 'C:\\Windows' },
  { os: 'windows', cwd: 'C:\\', p: 'c:/tmp/../etc', want: 'C:\\etc' },
  { os: 'windows', cwd: 'C:\\a', p: 'C:b', want: 'C:\\a\\b' },
];
for (const c of paths) test(`fs: resolve ${c.os} ${c.cwd} + ${c.p}`, () => assert.equal(resolvePath(c.os, c.cwd, c.p), c.want));

test('fs: Windows names are case-insensitive and keep their case', () => {
  const fs = new VirtualFs('windows', () => 0);
  fs.mkdir('C:\\Data\\Logs', { parents: true });
  fs.writeFile('c:/data/logs/App.LOG', 'x');
  assert.equal(fs.readFile('C:\\DATA\\LOGS\\app.log').toString(), 'x');
  assert.equal(fs.realpath('c:\\data\\logs\\APP.log'), 'C:\\Data\\Logs\\App.LOG');
});

test('fs: a volume shared by two containers can be read-only in one', async () => {
  const a = fakeEnv();
  const b = fakeEnv();
  const vol = new Volume('linux', 0);
  a.fs.mount('/cache', vol, { source: 'tmpfs' });
  b.fs.mount('/cache', vol, { readOnly: true, source: 'tmpfs' });
  await run(a, ['sh', '-c', 'echo shared > /cache/f']);
  assert.equal((await run(b, ['cat', '/cache/f'])).stdout, 'shared\n');
  const w = await run(b, ['sh', '-c', 'echo x > /cache/g']);
  assert.equal(w.stderr, "sh: can't create /cache/g: Read-only file system\n");
  assert.throws(() => b.fs.writeFile('/cache/f', 'y'), (e: unknown) => e instanceof FsError && e.code === 'EROFS');
});

test('fs: ConfigMap volumes use the atomic writer layout', async () => {
  const env = fakeEnv();
  env.fs.mount('/etc/cfg', volumeFromFiles('linux', new Map([['a.txt', 'A'], ['b.txt', 'B']]), { now: env.clock.now(), atomic: true, mode: 0o644 }), { readOnly: true });
  const r = await run(env, ['ls', '-la', '/etc/cfg']);
  assert.match(r.stdout, /^total \d+\ndrwxrwxrwt    3 root     root          4096 Jun  1 12:00 \.\n/);
  assert.match(r.stdout, /drwxr-xr-x    2 root     root          4096 Jun  1 12:00 \.\.2024_06_01_12_00_00\.\d+\n/);
  assert.match(r.stdout, /lrwxrwxrwx    1 root     root            31 Jun  1 12:00 \.\.data -> \.\.2024_06_01_12_00_00\.\d+\n/);
  assert.match(r.stdout, /lrwxrwxrwx    1 root     root            12 Jun  1 12:00 a\.txt -> \.\.data\/a\.txt\n/);
  assert.equal((await run(env, ['cat', '/etc/cfg/b.txt'])).stdout, 'B');
  assert.equal((await run(env, ['ls', '/etc/cfg'])).stdout, 'a.txt\nb.txt\n');
});

test('fs: defaultMode shows in ls -l', async () => {
  const env = fakeEnv();
  env.fs.mount('/etc/secret', volumeFromFiles('linux', new Map([['token', 's3cr3t']]), { now: env.clock.now(), mode: 0o400 }), { readOnly: true });
  const r = await run(env, ['ls', '-l', '/etc/secret']);
  assert.equal(r.stdout, 'total 4\n-r--------    1 root     root             6 Jun  1 12:00 token\n');
});

test('tar: encode/decode round trip with a long name and a symlink', () => {
  const long = `${'d'.repeat(120)}/${'f'.repeat(120)}.txt`;
  const entries = [
    { name: 'dir', type: 'dir' as const, mode: 0o755, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: 1_700_000_000, data: Buffer.alloc(0), linkname: '' },
    { name: long, type: 'file' as const, mode: 0o640, uid: 1000, gid: 1000, uname: '', gname: '', mtime: 1_700_000_000, data: Buffer.from('payload'), linkname: '' },
    { name: 'link', type: 'symlink' as const, mode: 0o777, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: 1_700_000_000, data: Buffer.alloc(0), linkname: 'dir' },
  ];
  const buf = encodeTar(entries);
  assert.equal(buf.length % 10240, 0);
  const back = decodeTar(buf);
  assert.deepEqual(back.map((e) => [e.name, e.type, e.mode, e.data.toString(), e.linkname]), [['dir', 'dir', 0o755, '', ''], [long, 'file', 0o640, 'payload', ''], ['link', 'symlink', 0o777, '', 'dir']]);
});

test('tar: kubectl cp from one pod to another (tar cf - | tar -xmf - -C)', async () => {
  const src = fakeEnv({ toolset: 'debian' });
  await run(src, ['bash', '-c', 'mkdir -p /data/sub && echo one > /data/a.txt && echo two > /data/sub/b.txt && chmod 600 /data/a.txt']);
  const packed = await run(src, ['tar', 'cf', '-', '/data']);
  assert.equal(packed.stderr, "tar: Removing leading `/' from member names\n");
  assert.equal(packed.code, 0);
  const dst = fakeEnv();
  await run(dst, ['mkdir', '/restore']);
  const un = await run(dst, ['tar', '--no-same-permissions', '--no-same-owner', '-xmf', '-', '-C', '/restore'], { stdin: packed.out });
  assert.equal(un.code, 0, un.stderr);
  assert.equal((await run(dst, ['cat', '/restore/data/a.txt', '/restore/data/sub/b.txt'])).stdout, 'one\ntwo\n');
  const list = await run(dst, ['tar', 'tvf', '-'], { stdin: packed.out });
  assert.match(list.stdout, /^drwxr-xr-x root\/root +0 2024-06-01 12:00:00 data\/\n-rw------- root\/root +4 2024-06-01 12:00:00 data\/a\.txt\n/);
});

test('tar: extracting into a read-only mount fails like BusyBox tar', async () => {
  const env = fakeEnv();
  env.fs.mount('/ro', new Map([['x', '1']]), { readOnly: true });
  const archive = encodeTar([{ name: 'f', type: 'file', mode: 0o644, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: 0, data: Buffer.from('z'), linkname: '' }]);
  const r = await run(env, ['tar', 'xf', '-', '-C', '/ro'], { stdin: archive });
  assert.equal(r.stderr, "tar: can't open 'f': Read-only file system\n");
  assert.equal(r.code, 1);
});

test('tar: not an archive', async () => {
  const env = fakeEnv({ toolset: 'debian' });
  const r = await run(env, ['tar', 'xf', '-'], { stdin: 'hello' });
  assert.equal(r.stderr, 'tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n');
  assert.equal(r.code, 2);
});

test('tar: Windows tar.exe extracts what Linux tar made (kubectl cp to a Windows pod)', async () => {
  const src = fakeEnv();
  await run(src, ['sh', '-c', 'mkdir /out && echo from-linux > /out/note.txt']);
  const packed = await run(src, ['tar', 'cf', '-', '-C', '/out', 'note.txt']);
  const win = fakeEnv({ os: 'windows' });
  const r = await run(win, ['tar', '-xmf', '-', '-C', 'C:\\Users'], { stdin: packed.out });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(win.fs.readFile('C:\\Users\\note.txt').toString(), 'from-linux\n');
  const back = await run(win, ['tar.exe', 'cf', '-', '-C', 'C:\\Users', 'note.txt']);
  assert.deepEqual(decodeTar(back.out).map((e) => [e.name, e.data.toString()]), [['note.txt', 'from-linux\n']]);
});

test('shellClock: sleeps follow the project clock and abort', async () => {
  const { FakeClock } = await import('../../util/clock.js');
  const { shellClock } = await import('./index.js');
  const clock = new FakeClock(1000);
  const sc = shellClock(clock);
  let woke = false;
  const p = sc.sleep(5000).then(() => { woke = true; });
  await clock.advance(4999);
  assert.equal(woke, false);
  await clock.advance(1);
  await p;
  assert.equal(woke, true);
  const ctl = new AbortController();
  const q = sc.sleep(10_000, ctl.signal);
  ctl.abort('SIGTERM');
  await assert.rejects(q, (e: unknown) => e === 'SIGTERM');
});
