// The Windows build of registry.k8s.io/e2e-test-images/busybox as kubernetes test/images/busybox/Dockerfile_windows
// builds it: Server Core, busybox-w32 (sh and its other applets as C:\bin\<applet>.exe), netcat, hostname.exe, curl,
// BIND dig/nslookup, PowerShell 6 (present, not emulated); ENTRYPOINT cmd.exe /s /c; ENV PATH C:\dig\;C:\bin;C:\curl first.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageConfig, lookupImage } from './catalogue.js';
import { extrasForImage } from '../shell/fs/seed-extras.js';
import { windowsDefaultPath } from '../shell/fs/seed-windows.js';
import { fakeEnv, run } from '../shell/testing/fake-env.js';

const IMAGE = 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1';

test('e2e busybox: Windows ENTRYPOINT cmd.exe /s /c and no CMD; Linux CMD sh', () => {
  const img = lookupImage(IMAGE)!;
  const win = imageConfig(img, 'windows');
  assert.deepEqual([win.entrypoint, win.cmd, win.windowsUser, win.toolset.windows], [['cmd.exe', '/s', '/c'], [], 'ContainerAdministrator', 'servercore']);
  assert.deepEqual(win.windowsPathFirst, ['C:\\dig\\', 'C:\\bin', 'C:\\curl']);
  const linux = imageConfig(img, 'linux');
  assert.deepEqual([linux.entrypoint, linux.cmd], [undefined, ['sh']]);
  assert.deepEqual(extrasForImage('registry.k8s.io/e2e-test-images/busybox'), ['e2e-busybox']);
});

const PATH = `C:\\dig\\;C:\\bin;C:\\curl;${windowsDefaultPath('servercore')};C:\\Program Files\\PowerShell;`;
interface Case { name: string; argv: string[]; stdout?: string | RegExp; stderr?: string; code: number }
const cases: Case[] = [
  { name: 'sh is busybox-w32 ash on a Windows filesystem', argv: ['sh', '-c', 'echo $((6*7)) && ls /bin/sh.exe && echo $0'], stdout: '42\n/bin/sh.exe\nsh\n', code: 0 },
  { name: 'bash is the same ash', argv: ['C:\\bin\\bash.exe', '-c', 'echo ${0}'], stdout: 'bash\n', code: 0 },
  { name: 'the ENTRYPOINT runs args through cmd', argv: ['cmd.exe', '/s', '/c', 'ping -n 1 127.0.0.1 > NUL & echo pinged'], stdout: 'pinged\r\n', code: 0 },
  { name: 'cmd finds the applets first on PATH', argv: ['cmd', '/c', 'where sh & where nslookup & where curl'], stdout: /^C:\\bin\\sh\.exe\r\nC:\\dig\\nslookup\.exe\r\n(.*\r\n)*C:\\curl\\curl\.exe\r\n/, code: 0 },
  { name: 'busybox --list names sh', argv: ['busybox', '--list'], stdout: /(^|\n)sh\n/, code: 0 },
  { name: 'an applet the image does not link', argv: ['busybox', 'ip'], stderr: 'ip: applet not found\n', code: 127 },
  { name: 'Windows PowerShell 5.1 of the base image still runs (e2e windows/cpu_limits.go)', argv: ['powershell.exe', '-Command', '1+1'], stdout: '2\r\n', code: 0 },
  { name: "the image's PowerShell 6 is present but not emulated", argv: ['cmd', '/c', 'pwsh -c 1'], stderr: 'winkube: "pwsh" is not available in this emulated container\r\n', code: 9009 },
];
for (const c of cases) {
  test(`e2e busybox on Windows: ${c.name}`, async () => {
    const env = fakeEnv({ os: 'windows', extras: extrasForImage('registry.k8s.io/e2e-test-images/busybox'), env: { PATH } });
    const r = await run(env, c.argv);
    if (c.stdout !== undefined) (typeof c.stdout === 'string' ? assert.equal : assert.match)(r.stdout, c.stdout as never);
    assert.equal(r.stderr, c.stderr ?? '');
    assert.equal(r.code, c.code);
  });
}
