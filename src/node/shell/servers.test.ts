import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, request, run, until, type FakeEnv } from './testing/fake-env.js';
import type { RunOutput } from './testing/fake-env.js';

/** Starts a long-running command; returns a stopper. */
function start(env: FakeEnv, argv: string[]): { stop(reason?: string): Promise<RunOutput>; out(): string; err(): string } {
  const ctl = new AbortController();
  let out = '';
  let err = '';
  const p = run(env, argv, { signal: ctl.signal, onStdout: (s) => { out += s; } }).then((r) => { err = r.stderr; return r; });
  return { stop: async (reason = 'SIGTERM') => { ctl.abort(reason); return p; }, out: () => out, err: () => err };
}

test('servers: nginx image entrypoint serves its page and logs requests', async () => {
  const env = fakeEnv({ toolset: 'debian', extras: ['nginx', 'curl'] });
  const s = start(env, ['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;']);
  await until(() => env.listening.some((l) => l.port === 80));
  const r = await request(env, 80, '/');
  assert.equal(r.status, 200);
  assert.match(r.body, /<h1>Welcome to nginx!<\/h1>/);
  assert.equal(r.headers.Server, 'nginx/1.27.3');
  const missing = await request(env, 80, '/nope');
  assert.equal(missing.status, 404);
  assert.match(missing.body, /<center><h1>404 Not Found<\/h1><\/center>/);
  const res = await s.stop();
  assert.equal(res.code, 143);
  assert.match(res.stdout, /^\/docker-entrypoint\.sh: Configuration complete; ready for start up\n10\.244\.0\.7 - - \[01\/Jun\/2024:12:00:00 \+0000\] "GET \/ HTTP\/1\.1" 200 \d+ "-" "curl\/7\.88\.1" "-"\n/);
  assert.match(res.stderr, /\[notice\] 1#1: start worker processes\n/);
  assert.equal(env.listening.length, 0, 'the listener closes when the container stops');
});

test('servers: nginx listens where a mounted conf.d says', async () => {
  const env = fakeEnv({ toolset: 'debian', extras: ['nginx'] });
  env.fs.mount('/etc/nginx/conf.d', new Map([['default.conf', 'server {\n  listen 8080;\n  location /healthz { return 200 "ok"; }\n}\n']]), { readOnly: true });
  const s = start(env, ['nginx', '-g', 'daemon off;']);
  await until(() => env.listening.some((l) => l.port === 8080));
  assert.equal((await request(env, 8080, '/healthz')).body, 'ok');
  await s.stop();
});

test('servers: a second server on the same port fails to bind', async () => {
  const env = fakeEnv({ toolset: 'debian', extras: ['nginx'] });
  const s = start(env, ['nginx', '-g', 'daemon off;']);
  await until(() => env.listening.length > 0);
  const second = await run(env, ['nginx', '-g', 'daemon off;']);
  assert.equal(second.code, 1);
  assert.match(second.stderr, /nginx: \[emerg\] bind\(\) to 0\.0\.0\.0:80 failed \(98: Address in use\)\n$/);
  await s.stop();
});

test('servers: agnhost netexec endpoints', async () => {
  const env = fakeEnv({ toolset: 'alpine', extras: ['agnhost'] });
  const s = start(env, ['/agnhost', 'netexec', '--http-port=8080']);
  await until(() => env.listening.some((l) => l.port === 8080));
  assert.equal((await request(env, 8080, '/hostname')).body, 'web-0');
  assert.equal((await request(env, 8080, '/echo?msg=hi')).body, 'hi');
  assert.equal((await request(env, 8080, '/clientip')).body, '10.244.0.7:51234');
  assert.deepEqual(JSON.parse((await request(env, 8080, '/shell?shellCommand=hostname')).body), { output: 'web-0\n' });
  await s.stop();
});

test('servers: agnhost serve-hostname', async () => {
  const env = fakeEnv({ toolset: 'alpine', extras: ['agnhost'] });
  const s = start(env, ['/agnhost', 'serve-hostname']);
  await until(() => env.listening.some((l) => l.port === 9376));
  assert.equal((await request(env, 9376, '/')).body, 'web-0');
  await s.stop();
});

test('servers: python -m http.server lists the directory; banner only when unbuffered', async () => {
  const env = fakeEnv({ toolset: 'debian', extras: ['python3'], workingDir: '/srv' });
  env.fs.mkdir('/srv', { parents: true });
  env.fs.writeFile('/srv/a.txt', 'A');
  const s = start(env, ['python3', '-m', 'http.server', '8000']);
  await until(() => env.listening.some((l) => l.port === 8000));
  const r = await request(env, 8000, '/');
  assert.match(r.body, /<title>Directory listing for \/<\/title>[\s\S]*<li><a href="a\.txt">a\.txt<\/a><\/li>/);
  assert.equal((await request(env, 8000, '/a.txt')).body, 'A');
  const res = await s.stop();
  assert.equal(res.stdout, '');
  assert.equal(res.stderr, '10.244.0.7 - - [01/Jun/2024 12:00:00] "GET / HTTP/1.1" 200 -\n10.244.0.7 - - [01/Jun/2024 12:00:00] "GET /a.txt HTTP/1.1" 200 -\n');
  const env2 = fakeEnv({ toolset: 'debian', extras: ['python3'], env: { PYTHONUNBUFFERED: '1' } });
  const s2 = start(env2, ['python3', '-m', 'http.server']);
  await until(() => env2.listening.length > 0);
  assert.equal((await s2.stop()).stdout, 'Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...\n');
});

test('servers: busybox httpd without -f keeps serving after the shell exits', async () => {
  const env = fakeEnv();
  const life = new AbortController();
  env.lifetime = life.signal;
  await run(env, ['sh', '-c', 'mkdir /www && echo hi > /www/index.html && httpd -p 8080 -h /www']);
  assert.equal((await request(env, 8080, '/')).body, 'hi\n');
  life.abort('SIGTERM');
  assert.equal(env.listening.length, 0);
});

test('servers: background job in sh is reachable while the foreground sleeps', async () => {
  const env = fakeEnv();
  const s = start(env, ['sh', '-c', 'mkdir /w; echo ok > /w/index.html; httpd -f -p 80 -h /w & sleep 3600']);
  await until(() => env.listening.some((l) => l.port === 80));
  assert.equal((await request(env, 80, '/')).body, 'ok\n');
  await s.stop();
});

test('servers: pause exits 0 on SIGTERM', async () => {
  const env = fakeEnv({ toolset: 'none', extras: ['pause'] });
  const s = start(env, ['/pause']);
  await new Promise((r) => setTimeout(r, 5));
  const r = await s.stop();
  assert.equal(r.code, 0);
  assert.equal(r.stdout, 'Shutting down, got signal: Terminated\n');
});

test('servers: the redis image entrypoint is found on PATH and runs redis-server', async () => {
  const env = fakeEnv({ toolset: 'debian', extras: ['redis'] });
  const s = start(env, ['docker-entrypoint.sh', 'redis-server']);
  await until(() => env.listening.some((l) => l.port === 6379));
  assert.equal(env.listening[0].handler, undefined, 'a plain TCP listener');
  const r = await s.stop();
  assert.match(r.stdout, /Ready to accept connections tcp/);
});
