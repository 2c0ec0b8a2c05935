import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, Keyboard, run, until, type FakeEnvOptions } from './testing/fake-env.js';

interface Case {
  name: string;
  env?: FakeEnvOptions;
  argv: string[];
  stdin?: string;
  stdout?: string | RegExp;
  stderr?: string | RegExp;
  code?: number;
}

const sh = (script: string) => ['sh', '-c', script];

// BusyBox ash (busybox image)
const ash: Case[] = [
  { name: 'echo and variables', argv: sh('X=hi; echo "$X world" ${X}!'), stdout: 'hi world hi!\n', code: 0 },
  { name: 'quoting keeps spaces', argv: sh(`printf '%s|' 'a  b' "c d" e`), stdout: 'a  b|c d|e|' },
  { name: '; && ||', argv: sh('false && echo no; true && echo yes; false || echo alt'), stdout: 'yes\nalt\n' },
  { name: '$? after failure', argv: sh('false; echo $?'), stdout: '1\n' },
  { name: 'command substitution', argv: sh('echo "host=$(hostname)" `echo tick`'), stdout: 'host=web-0 tick\n' },
  { name: 'arithmetic', argv: sh('i=3; echo $((i * 4 + 1))'), stdout: '13\n' },
  { name: 'if/elif/else', argv: sh('x=2; if [ $x -eq 1 ]; then echo one; elif [ $x -eq 2 ]; then echo two; else echo many; fi'), stdout: 'two\n' },
  { name: 'while with counter', argv: sh('i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done'), stdout: '0\n1\n2\n' },
  { name: 'until', argv: sh('i=0; until [ $i -ge 2 ]; do i=$((i+1)); done; echo $i'), stdout: '2\n' },
  { name: 'for over words', argv: sh('for f in a b "c d"; do echo "[$f]"; done'), stdout: '[a]\n[b]\n[c d]\n' },
  { name: 'case', argv: sh('case web-0 in web-*) echo web;; *) echo other;; esac'), stdout: 'web\n' },
  { name: 'functions and $#', argv: sh('f() { echo "$# $1"; return 3; }; f a b; echo $?'), stdout: '2 a\n3\n' },
  { name: 'exit N', argv: sh('echo before; exit 7; echo after'), stdout: 'before\n', code: 7 },
  { name: 'pipes', argv: sh('printf "b\\na\\nc\\n" | sort | head -n 2'), stdout: 'a\nb\n' },
  { name: 'grep -c', argv: sh('cat /etc/passwd | grep -c nobody'), stdout: '1\n' },
  { name: 'sed s///g', argv: sh('echo aaa | sed s/a/b/g'), stdout: 'bbb\n' },
  { name: 'wc -l from stdin', argv: sh('printf "1\\n2\\n" | wc -l'), stdout: '2\n' },
  { name: 'redirect > and cat', argv: sh('echo data > /tmp/f; echo more >> /tmp/f; cat /tmp/f'), stdout: 'data\nmore\n' },
  { name: '2>&1', argv: sh('ls /nope 2>&1 | cat'), stdout: 'ls: /nope: No such file or directory\n' },
  { name: '< input', argv: sh('echo x > /tmp/in; read v < /tmp/in; echo got $v'), stdout: 'got x\n' },
  { name: 'here-doc', argv: sh('cat <<EOF\nline $HOSTNAME\nEOF'), stdout: 'line web-0\n' },
  { name: 'unknown command', argv: sh('nosuchcmd'), stderr: 'sh: nosuchcmd: not found\n', code: 127 },
  { name: 'unknown command via /bin/sh', argv: ['/bin/sh', '-c', 'nosuchcmd'], stderr: '/bin/sh: nosuchcmd: not found\n', code: 127 },
  { name: 'syntax error', argv: sh('if true; then echo x'), stderr: /^sh: syntax error: unexpected end of file \(expecting "fi"\)\n$/, code: 2 },
  { name: 'cd and pwd', argv: sh('cd /tmp && pwd; cd /nope'), stdout: '/tmp\n', stderr: "sh: cd: can't cd to /nope: No such file or directory\n", code: 2 },
  { name: 'echo -n -e', argv: sh('echo -n a; echo -e "b\\tc"'), stdout: 'ab\tc\n' },
  { name: 'env and printenv', env: { env: { FOO: 'bar' } }, argv: sh('printenv FOO; env | grep ^FOO='), stdout: 'bar\nFOO=bar\n' },
  { name: 'test file ops', argv: sh('[ -d /tmp ] && [ -f /etc/passwd ] && [ ! -e /nope ] && echo ok'), stdout: 'ok\n' },
  { name: 'uname -a', argv: sh('uname -a'), stdout: /^Linux web-0 6\.1\.0-18-amd64 #1 SMP PREEMPT_DYNAMIC .* x86_64 Linux\n$/ },
  { name: 'uname -r -m', argv: ['uname', '-r', '-m'], stdout: '6.1.0-18-amd64 x86_64\n' },
  { name: 'date is the container clock', argv: ['date'], stdout: 'Sat Jun  1 12:00:00 UTC 2024\n' },
  { name: 'date +%s', argv: ['date', '+%Y-%m-%dT%H:%M:%S'], stdout: '2024-06-01T12:00:00\n' },
  { name: 'mkdir rm touch', argv: sh('mkdir -p /tmp/a/b && touch /tmp/a/b/f && ls /tmp/a/b && rm -r /tmp/a && ls /tmp'), stdout: 'f\n' },
  { name: 'cp mv', argv: sh('echo 1 > /tmp/x; cp /tmp/x /tmp/y; mv /tmp/y /tmp/z; cat /tmp/z; ls /tmp'), stdout: '1\nx\nz\n' },
  { name: 'rm missing', argv: ['rm', '/nope'], stderr: "rm: can't remove '/nope': No such file or directory\n", code: 1 },
  { name: 'cat missing', argv: ['cat', '/nope'], stderr: "cat: can't open '/nope': No such file or directory\n", code: 1 },
  { name: 'head -n tail -n', argv: sh('seq 1 10 | tail -n 3 | head -n 2'), stdout: '8\n9\n' },
  { name: 'tail -c+N (kubectl cp --retries)', argv: sh('printf abcdef | tail -c+3'), stdout: 'cdef' },
  { name: 'ip route', argv: ['ip', 'route'], stdout: 'default via 10.244.1.1 dev eth0 \n10.244.1.0/24 dev eth0 scope link  src 10.244.1.5 \n' },
  { name: 'ip addr shows the pod IP', argv: ['ip', 'addr'], stdout: /inet 10\.244\.1\.5\/24 brd 10\.244\.1\.255 scope global eth0/ },
  { name: 'hostname -i', argv: ['hostname', '-i'], stdout: '10.244.1.5\n' },
  { name: 'ps', argv: ['ps'], stdout: /^PID   USER     TIME  COMMAND\n    1 root      0:00 sleep 3600\n/ },
  { name: 'busybox applet by argv[1]', argv: ['/bin/busybox', 'echo', 'hi'], stdout: 'hi\n' },
  { name: 'busybox unknown applet', argv: ['busybox', 'foo'], stderr: 'foo: applet not found\n', code: 127 },
  { name: 'applet the emulation lacks', argv: sh('awk "{print}" /etc/passwd'), stderr: 'winkube: "awk" is not available in this emulated container\n', code: 127 },
  { name: 'whoami for an unknown uid', env: { uid: 1000 }, argv: ['whoami'], stderr: 'whoami: unknown uid 1000\n', code: 1 },
  { name: 'id for an unknown uid', env: { uid: 1000 }, argv: ['id'], stdout: 'uid=1000 gid=0(root) groups=0(root)\n' },
  { name: 'non-root cannot write /etc', env: { uid: 1000 }, argv: sh('echo x > /etc/x'), stderr: "sh: can't create /etc/x: Permission denied\n", code: 1 },
  { name: 'set -e stops', argv: sh('set -e; false; echo no'), stdout: '', code: 1 },
  { name: 'set -u', argv: sh('set -u; echo $NOPE'), stderr: 'sh: NOPE: parameter not set\n', code: 2 },
  { name: '${x:-default} ${#x} ${x%.*}', argv: sh('f=app.tar.gz; echo ${u:-d} ${#f} ${f%.*} ${f%%.*} ${f#*.}'), stdout: 'd 10 app.tar app tar.gz\n' },
  { name: 'globbing', argv: sh('touch /tmp/a.txt /tmp/b.txt /tmp/c.log; echo /tmp/*.txt'), stdout: '/tmp/a.txt /tmp/b.txt\n' },
  { name: 'no glob match stays literal', argv: sh('echo /tmp/*.none'), stdout: '/tmp/*.none\n' },
  { name: 'subshell does not leak', argv: sh('x=1; (x=2; echo $x); echo $x'), stdout: '2\n1\n' },
  { name: 'while read loop', argv: sh('printf "a 1\\nb 2\\n" | while read k v; do echo "$v=$k"; done'), stdout: '1=a\n2=b\n' },
  { name: 'script from stdin', argv: ['sh'], stdin: 'echo one\necho two\nexit 4\n', stdout: 'one\ntwo\n', code: 4 },
  { name: 'read consumes following stdin lines', argv: ['sh'], stdin: 'read x\nhello\necho got $x\n', stdout: 'got hello\n' },
  { name: 'exec replaces the shell', argv: sh('exec echo replaced; echo never'), stdout: 'replaced\n' },
  { name: 'trap EXIT', argv: sh('trap "echo bye" EXIT; echo hi'), stdout: 'hi\nbye\n' },
  { name: 'shebang script', argv: sh('printf "#!/bin/sh\\necho from script \\$1\\n" > /tmp/s.sh; chmod +x /tmp/s.sh; /tmp/s.sh arg'), stdout: 'from script arg\n' },
  { name: 'permission denied', argv: sh('echo echo hi > /tmp/n.sh; /tmp/n.sh'), stderr: 'sh: /tmp/n.sh: Permission denied\n', code: 126 },
  { name: 'ls -la of a directory', argv: sh('mkdir /tmp/d; echo 12345 > /tmp/d/f; ls -la /tmp/d'), stdout: /^total 12\ndrwxr-xr-x    2 root     root          4096 Jun  1 12:00 \.\ndrwxrwxrwt    3 root     root          4096 Jun  1 12:00 \.\.\n-rw-r--r--    1 root     root             6 Jun  1 12:00 f\n$/ },
];

// Alpine (musl) and Debian (dash, bash, GNU coreutils)
const others: Case[] = [
  { name: 'alpine ls -l of a symlinked applet', env: { toolset: 'alpine' }, argv: ['ls', '-l', '/bin/ls'], stdout: 'lrwxrwxrwx    1 root     root            12 Jun  1 12:00 /bin/ls -> /bin/busybox\n' },
  { name: 'alpine wget is in /usr/bin', env: { toolset: 'alpine' }, argv: ['which', 'wget'], stdout: '/usr/bin/wget\n' },
  { name: 'dash unknown command', env: { toolset: 'debian' }, argv: sh('nosuch'), stderr: 'sh: 1: nosuch: not found\n', code: 127 },
  { name: 'dash echo interprets escapes', env: { toolset: 'debian' }, argv: sh('echo "a\\tb"'), stdout: 'a\tb\n' },
  { name: 'bash unknown command', env: { toolset: 'debian' }, argv: ['bash', '-c', 'nosuch'], stderr: 'bash: line 1: nosuch: command not found\n', code: 127 },
  { name: 'bash [[ ]] and (( ))', env: { toolset: 'debian' }, argv: ['bash', '-c', 'x=web-1; [[ $x == web-* ]] && echo match; ((n=2+2)); echo $n'], stdout: 'match\n4\n' },
  { name: 'bash cd error', env: { toolset: 'debian' }, argv: ['bash', '-c', 'cd /nope'], stderr: 'bash: line 1: cd: /nope: No such file or directory\n', code: 1 },
  { name: 'bash redirect to a missing dir', env: { toolset: 'debian' }, argv: ['bash', '-c', 'echo x > /nope/f'], stderr: 'bash: line 1: /nope/f: No such file or directory\n', code: 1 },
  { name: 'GNU ls -l aligns columns', env: { toolset: 'debian' }, argv: sh('mkdir /tmp/g; echo hello > /tmp/g/a; echo hi > /tmp/g/bb; ls -l /tmp/g'), stdout: 'total 8\n-rw-r--r-- 1 root root 6 Jun  1 12:00 a\n-rw-r--r-- 1 root root 3 Jun  1 12:00 bb\n' },
  { name: 'GNU ls missing', env: { toolset: 'debian' }, argv: ['ls', '/nope'], stderr: "ls: cannot access '/nope': No such file or directory\n", code: 2 },
  { name: 'GNU cat missing', env: { toolset: 'debian' }, argv: ['cat', '/nope'], stderr: 'cat: /nope: No such file or directory\n', code: 1 },
  { name: 'GNU mkdir exists', env: { toolset: 'debian' }, argv: ['mkdir', '/tmp'], stderr: "mkdir: cannot create directory '/tmp': File exists\n", code: 1 },
  { name: 'debian has no ping', env: { toolset: 'debian' }, argv: ['bash', '-c', 'ping -c 1 10.0.0.1'], stderr: 'bash: line 1: ping: command not found\n', code: 127 },
  { name: 'debian uname -o', env: { toolset: 'debian' }, argv: ['uname', '-o'], stdout: 'GNU/Linux\n' },
  { name: 'os-release', env: { toolset: 'alpine' }, argv: sh('. /etc/os-release; echo $PRETTY_NAME'), stdout: 'Alpine Linux v3.20\n' },
  { name: 'distroless has no shell', env: { toolset: 'distroless' }, argv: ['sh'], code: -1 },
];

for (const c of [...ash, ...others]) {
  test(`sh: ${c.name}`, async () => {
    const env = fakeEnv(c.env);
    const r = await run(env, c.argv, { stdin: c.stdin });
    if (c.stdout !== undefined) (typeof c.stdout === 'string' ? assert.equal : assert.match)(r.stdout, c.stdout as never);
    if (c.stderr !== undefined) (typeof c.stderr === 'string' ? assert.equal : assert.match)(r.stderr, c.stderr as never);
    else if (c.code === undefined || c.code === 0) assert.equal(r.stderr, '', 'no stderr');
    if (c.code !== undefined) assert.equal(r.code, c.code);
  });
}

test('sh: the runtime reports a missing executable (runc wording)', async () => {
  const env = fakeEnv();
  const r = await run(env, ['nosuch', 'arg']);
  assert.deepEqual(r.result, {
    kind: 'not-found',
    message: 'OCI runtime exec failed: exec failed: unable to start container process: exec: "nosuch": executable file not found in $PATH: unknown',
    startMessage: 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "nosuch": executable file not found in $PATH: unknown',
  });
  const bash = await run(env, ['/bin/bash']);
  assert.equal(bash.result.kind === 'not-found' && bash.result.message, 'OCI runtime exec failed: exec failed: unable to start container process: exec: "/bin/bash": stat /bin/bash: no such file or directory: unknown');
});

test('sh: writes persist between exec calls', async () => {
  const env = fakeEnv();
  await run(env, sh('echo kept > /tmp/state'));
  const r = await run(env, ['cat', '/tmp/state']);
  assert.equal(r.stdout, 'kept\n');
});

test('sh: a loop with sleep runs on the container clock and stops on abort', async () => {
  const env = fakeEnv();
  const ctl = new AbortController();
  let lines = 0;
  const r = await run(env, sh('while true; do echo hi; sleep 5; done'), {
    signal: ctl.signal,
    onStdout: (s) => { lines += s.split('\n').length - 1; if (lines === 3) ctl.abort('SIGTERM'); },
  });
  assert.equal(r.stdout, 'hi\nhi\nhi\n');
  assert.deepEqual(r.result, { kind: 'exited', exitCode: 143, signal: 'SIGTERM' });
  assert.deepEqual(env.clock.slept, [5000, 5000]);
});

test('sh: SIGKILL gives 137', async () => {
  const env = fakeEnv();
  const ctl = new AbortController();
  ctl.abort('SIGKILL');
  const r = await run(env, ['sleep', '100'], { signal: ctl.signal });
  assert.deepEqual(r.result, { kind: 'exited', exitCode: 137, signal: 'SIGKILL' });
});

test('sh: a TERM trap runs when the container stops', async () => {
  const env = fakeEnv();
  const ctl = new AbortController();
  const p = run(env, sh('trap "echo graceful; exit 0" TERM; while true; do sleep 1; done'), { signal: ctl.signal });
  await new Promise((r) => setTimeout(r, 20));
  ctl.abort('SIGTERM');
  const r = await p;
  assert.equal(r.stdout, 'graceful\n');
  assert.equal(r.code, 0);
});

test('sh: interactive session on a terminal echoes input and prompts', async () => {
  const env = fakeEnv();
  const r = await run(env, ['sh'], { tty: true, stdin: ['echo hi\r', 'exit 3\r'] });
  assert.equal(r.stdout, '/ # echo hi\r\nhi\r\n/ # exit 3\r\n', 'a terminal carries stderr (the prompt) on stdout');
  assert.equal(r.stderr, '');
  assert.equal(r.code, 3);
});

test('sh: bash prompt names the user and host', async () => {
  const env = fakeEnv({ toolset: 'debian' });
  const r = await run(env, ['bash'], { tty: true, stdin: ['exit\r'] });
  assert.equal(r.stdout, 'root@web-0:/# exit\r\nexit\r\n');
});

test('sh: read-only mounts refuse writes with EROFS', async () => {
  const env = fakeEnv();
  env.fs.mount('/etc/config', new Map([['app.conf', 'k=v\n']]), { readOnly: true });
  const r = await run(env, sh('cat /etc/config/app.conf; echo x > /etc/config/new; touch /etc/config/app.conf; rm /etc/config/app.conf'));
  assert.equal(r.stdout, 'k=v\n');
  assert.equal(r.stderr, "sh: can't create /etc/config/new: Read-only file system\ntouch: /etc/config/app.conf: Read-only file system\nrm: can't remove '/etc/config/app.conf': Read-only file system\n");
});

test('sh: ^C on a terminal interrupts the foreground command, not the shell', async () => {
  const env = fakeEnv();
  // A clock whose sleeps only end when interrupted.
  env.clock.sleep = (_ms, signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
  const keys = new Keyboard();
  let out = '';
  const done = run(env, ['sh'], { tty: true, stdin: keys, onStdout: (s) => { out += s; } });
  keys.type('sleep 100\r');
  await until(() => out.includes('sleep 100\r\n'));
  keys.type('\x03');
  await until(() => out.endsWith('/ # '));
  keys.type('echo $?\r');
  keys.type('exit\r');
  const r = await done;
  assert.equal(r.stdout, '/ # sleep 100\r\n^C\r\n/ # echo $?\r\n130\r\n/ # exit\r\n');
  assert.equal(r.code, 0, 'exit takes the status of the last command (echo)');
});
