import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { declaredUsage, usageFromCommand } from './declared.js';

const MI = 1024 * 1024;

const pod = (annotations: Record<string, string> = {}): Pod => ({ metadata: { name: 'p', namespace: 'default', annotations }, spec: { containers: [] } });

test('usageFromCommand: busy loops and stress workers', () => {
  const cases: { name: string; argv: string[]; want: ReturnType<typeof usageFromCommand> }[] = [
    {
      name: 'cpu_limits e2e: 8 PowerShell busy-loop jobs',
      argv: ['powershell.exe', '-Command', 'foreach ($loopnumber in 1..8) { Start-Job -ScriptBlock { $result = 1; foreach ($number in 1..2147483647) { $result = $result * $number } } } ; get-job | wait-job'],
      want: { cpuNanoCores: 8e9 },
    },
    { name: 'stress --cpu 2 --vm 2 --vm-bytes 128M', argv: ['stress', '--cpu', '2', '--vm', '2', '--vm-bytes', '128M'], want: { cpuNanoCores: 2e9, memoryBytes: 256 * MI } },
    { name: 'stress-ng -c 1', argv: ['stress-ng', '-c', '1'], want: { cpuNanoCores: 1e9 } },
    { name: 'a shell spin loop', argv: ['sh', '-c', 'while true; do :; done'], want: { cpuNanoCores: 1e9 } },
    { name: 'a sleeping loop is idle', argv: ['sh', '-c', 'while true; do sleep 1; done'], want: {} },
    { name: 'yes > /dev/null', argv: ['sh', '-c', 'yes > /dev/null'], want: { cpuNanoCores: 1e9 } },
  ];
  for (const c of cases) assert.deepEqual(usageFromCommand(c.argv), c.want, c.name);
});

test('declaredUsage: annotations over the command over the image over the OS default', () => {
  const cases: { name: string; pod: Pod; c: Container; os: 'linux' | 'windows'; want: { cpuNanoCores: number; memoryBytes: number } }[] = [
    { name: 'nginx idle on linux', pod: pod(), c: { name: 'web', image: 'nginx' }, os: 'linux', want: { cpuNanoCores: 1e6, memoryBytes: 6 * MI } },
    { name: 'IIS on windows', pod: pod(), c: { name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }, os: 'windows', want: { cpuNanoCores: 3e6, memoryBytes: 95 * MI } },
    { name: 'agnhost is heavier on windows', pod: pod(), c: { name: 'a', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52' }, os: 'windows', want: { cpuNanoCores: 1e6, memoryBytes: 45 * MI } },
    { name: 'unknown image, windows default', pod: pod(), c: { name: 'x', image: 'example.com/app:1' }, os: 'windows', want: { cpuNanoCores: 2e6, memoryBytes: 40 * MI } },
    { name: 'unknown image, linux default', pod: pod(), c: { name: 'x', image: 'example.com/app:1' }, os: 'linux', want: { cpuNanoCores: 1e6, memoryBytes: 8 * MI } },
    {
      name: 'pod-wide annotations',
      pod: pod({ 'winkube.io/cpu': '750m', 'winkube.io/memory': '300Mi' }), c: { name: 'x', image: 'nginx' }, os: 'linux',
      want: { cpuNanoCores: 75e7, memoryBytes: 300 * MI },
    },
    {
      name: 'container annotations win over pod-wide ones and over the command',
      pod: pod({ 'winkube.io/cpu': '750m', 'winkube.io/cpu.burn': '2' }), c: { name: 'burn', image: 'busybox', command: ['sh', '-c', 'yes > /dev/null'] }, os: 'linux',
      want: { cpuNanoCores: 2e9, memoryBytes: 1 * MI },
    },
    {
      name: 'a bad quantity is ignored',
      pod: pod({ 'winkube.io/memory': 'lots' }), c: { name: 'x', image: 'nginx' }, os: 'linux', want: { cpuNanoCores: 1e6, memoryBytes: 6 * MI },
    },
  ];
  for (const c of cases) assert.deepEqual(declaredUsage(c.pod, c.c, c.os), c.want, c.name);
});
