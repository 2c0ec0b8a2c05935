import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run, type FakeEnvOptions } from './testing/fake-env.js';
import type { HttpClientResponse } from './interfaces.js';

const page = (body: string, status = 200): (() => HttpClientResponse) => () => ({ status, headers: { 'Content-Type': 'text/html', 'Content-Length': String(body.length) }, body: Buffer.from(body) });

const NET: FakeEnvOptions['net'] = {
  a: { 'kubernetes.default.svc.cluster.local': '10.96.0.1', 'web.default.svc.cluster.local': '10.96.5.5', 'example.com': '93.184.216.34' },
  ptr: { '10.0.96.10.in-addr.arpa': 'kube-dns.kube-system.svc.cluster.local', '1.0.96.10.in-addr.arpa': 'kubernetes.default.svc.cluster.local' },
  http: { '10.96.5.5:80': page('hello from web\n'), '10.96.5.5:8080': page('missing\n', 404) },
  tcp: { '10.96.5.5:81': 'refused', '10.96.5.5:82': 'timeout' },
  ping: { '10.96.5.5': 0.31, '10.9.9.9': 'timeout' },
};

interface Case { name: string; env?: FakeEnvOptions; argv: string[]; stdout?: string | RegExp; stderr?: string | RegExp; code?: number }

const linux: Case[] = [
  {
    name: 'busybox nslookup tries the search list (A and AAAA)',
    argv: ['nslookup', 'kubernetes'],
    stdout: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n*** Can\'t find kubernetes.svc.cluster.local: No answer\n*** Can\'t find kubernetes.cluster.local: No answer\n*** Can\'t find kubernetes.default.svc.cluster.local: No answer\n*** Can\'t find kubernetes.svc.cluster.local: No answer\n*** Can\'t find kubernetes.cluster.local: No answer\n\n',
    code: 0,
  },
  {
    name: 'busybox nslookup NXDOMAIN',
    argv: ['nslookup', 'nope'],
    stdout: /^Server:\t\t10\.96\.0\.10\nAddress:\t10\.96\.0\.10:53\n\n\*\* server can't find nope\.default\.svc\.cluster\.local: NXDOMAIN\n\n\*\*\* Can't find nope\.svc\.cluster\.local: No answer\n/,
    code: 1,
  },
  { name: 'nslookup of an IP (PTR)', argv: ['nslookup', '10.96.0.1'], stdout: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n1.0.96.10.in-addr.arpa\tname = kubernetes.default.svc.cluster.local\n\n' },
  { name: 'wget -q -O- through a Service name', argv: ['wget', '-q', '-O-', 'http://web'], stdout: 'hello from web\n', code: 0 },
  { name: 'wget progress to stderr', argv: ['wget', '-O-', 'http://web'], stdout: 'hello from web\n', stderr: /^Connecting to web \(10\.96\.5\.5:80\)\nwriting to stdout\n-  +100% \|\*+\|    15  0:00:00 ETA\nwritten to stdout\n$/ },
  { name: 'wget refused', argv: ['wget', '-q', '-O-', 'http://web:81'], stderr: "wget: can't connect to remote host (10.96.5.5): Connection refused\n", code: 1 },
  { name: 'wget 404', argv: ['wget', '-q', '-O-', 'http://web:8080/x'], stderr: 'wget: server returned error: HTTP/1.1 404 Not Found\n', code: 1 },
  { name: 'wget bad address', argv: ['wget', '-q', '-O-', 'http://nope'], stderr: "wget: bad address 'nope'\n", code: 1 },
  { name: 'wget -T timeout waits on the clock', argv: ['wget', '-q', '-T', '3', '-O-', 'http://web:82'], stderr: 'wget: download timed out\n', code: 1 },
  { name: 'wget -O file then cat', argv: ['sh', '-c', 'wget -q -O /tmp/p http://web && cat /tmp/p'], stdout: 'hello from web\n' },
  { name: 'ping -c 2', argv: ['ping', '-c', '2', 'web'], stdout: 'PING web (10.96.5.5): 56 data bytes\n64 bytes from 10.96.5.5: seq=0 ttl=64 time=0.310 ms\n64 bytes from 10.96.5.5: seq=1 ttl=64 time=0.310 ms\n\n--- web ping statistics ---\n2 packets transmitted, 2 packets received, 0% packet loss\nround-trip min/avg/max = 0.310/0.310/0.310 ms\n', code: 0 },
  { name: 'ping timeout', argv: ['ping', '-c', '1', '10.9.9.9'], stdout: 'PING 10.9.9.9 (10.9.9.9): 56 data bytes\n\n--- 10.9.9.9 ping statistics ---\n1 packets transmitted, 0 packets received, 100% packet loss\n', code: 1 },
  { name: 'ping bad address', argv: ['ping', '-c', '1', 'nope'], stderr: "ping: bad address 'nope'\n", code: 1 },
  { name: 'nc -z open', argv: ['nc', '-zv', 'web', '80'], stderr: 'web (10.96.5.5:80) open\n', code: 0 },
  { name: 'nc -z refused', argv: ['nc', '-z', '10.96.5.5', '81'], stderr: 'nc: 10.96.5.5 (10.96.5.5:81): Connection refused\n', code: 1 },
  { name: 'curl on debian', env: { toolset: 'debian', extras: ['curl'] }, argv: ['curl', '-s', 'http://web/'], stdout: 'hello from web\n', code: 0 },
  { name: 'curl -w http_code -o /dev/null', env: { toolset: 'debian', extras: ['curl'] }, argv: ['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', 'http://web:8080/'], stdout: '404', code: 0 },
  { name: 'curl -f 404', env: { toolset: 'debian', extras: ['curl'] }, argv: ['curl', '-sf', 'http://web:8080/'], stdout: '', code: 22 },
  { name: 'curl -sS refused', env: { toolset: 'debian', extras: ['curl'] }, argv: ['curl', '-sS', 'http://web:81/'], stderr: "curl: (7) Failed to connect to web port 81 after 0 ms: Couldn't connect to server\n", code: 7 },
  { name: 'curl unresolvable', env: { toolset: 'debian', extras: ['curl'] }, argv: ['curl', 'http://nope/'], stderr: 'curl: (6) Could not resolve host: nope\n', code: 6 },
  { name: 'curl -m timeout', env: { toolset: 'debian', extras: ['curl'] }, argv: ['curl', '-sS', '-m', '2', 'http://web:82/'], stderr: 'curl: (28) Connection timed out after 2001 milliseconds\n', code: 28 },
  { name: 'curl progress meter when piped', env: { toolset: 'debian', extras: ['curl'] }, argv: ['curl', 'http://web/'], stdout: 'hello from web\n', stderr: /% Total +% Received % Xferd +Average Speed +Time +Time +Time +Current\n.*\n\r100 +15 +100 +15 /s },
  { name: 'no curl in the busybox image', argv: ['sh', '-c', 'curl http://web'], stderr: 'sh: curl: not found\n', code: 127 },
];

for (const c of linux) {
  test(`net: ${c.name}`, async () => {
    const env = fakeEnv({ ...c.env, net: NET });
    const r = await run(env, c.argv);
    if (c.stdout !== undefined) (typeof c.stdout === 'string' ? assert.equal : assert.match)(r.stdout, c.stdout as never);
    if (c.stderr !== undefined) (typeof c.stderr === 'string' ? assert.equal : assert.match)(r.stderr, c.stderr as never);
    if (c.code !== undefined) assert.equal(r.code, c.code);
  });
}

test('net: wget -T 3 waited three seconds of container time', async () => {
  const env = fakeEnv({ net: NET });
  await run(env, ['wget', '-q', '-T', '3', '-O-', 'http://web:82']);
  assert.deepEqual(env.clock.slept, [3000]);
});

test('net: names in /etc/hosts resolve without DNS', async () => {
  const env = fakeEnv({ net: NET });
  const r = await run(env, ['ping', '-c', '1', 'web-0']);
  assert.match(r.stdout, /^PING web-0 \(10\.244\.1\.5\)/);
  assert.ok(!env.network.lookups.some((l) => l.includes('web-0')));
});
