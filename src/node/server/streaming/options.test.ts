import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePortForwardPorts, parseStreamOptions, parseStreamPort } from './options.js';

test('exec/attach options as the kubelet reads them', () => {
  const cases: Array<[string, boolean, ReturnType<typeof parseStreamOptions>]> = [
    ['stdin=1&stdout=1&stderr=1&command=sh&command=-c&command=echo%20hi', true, { options: { stdin: true, stdout: true, stderr: true, tty: false }, command: ['sh', '-c', 'echo hi'] }],
    // What clients send straight to this server (client-node: "true"); the API server would have rewritten to 1.
    ['stdout=true&stderr=false&command=ls', true, { options: { stdin: false, stdout: true, stderr: false, tty: false }, command: ['ls'] }],
    ['stdin=1&stdout=1&stderr=1&tty=1', false, { options: { stdin: true, stdout: true, stderr: false, tty: true }, command: [] }],
    ['tty=1&stderr=1', true, { error: 'you must specify at least 1 of stdin, stdout, stderr' }],
    ['command=ls', true, { error: 'you must specify at least 1 of stdin, stdout, stderr' }],
    ['stdout=yes', true, { error: 'you must specify at least 1 of stdin, stdout, stderr' }],
    ['stdout=1&command=ls', false, { options: { stdin: false, stdout: true, stderr: false, tty: false }, command: [] }],
    ['stdout=1', true, { options: { stdin: false, stdout: true, stderr: false, tty: false }, command: [] }],
  ];
  for (const [query, withCommand, want] of cases) assert.deepEqual(parseStreamOptions(new URLSearchParams(query), withCommand), want, query);
});

test('channel WebSocket port-forward ports (kubelet NewV4Options wording)', () => {
  const cases: Array<[string, ReturnType<typeof parsePortForwardPorts>]> = [
    ['ports=8080', { ports: [8080] }],
    ['port=80&port=443,8443', { ports: [80, 443, 8443] }],
    ['', { error: 'query parameter "port" is required' }],
    ['ports=', { error: 'query parameter "port" cannot be empty' }],
    ['ports=abc', { error: 'unable to parse "abc" as a port: strconv.ParseUint: parsing "abc": invalid syntax' }],
    ['ports=70000', { error: 'unable to parse "70000" as a port: strconv.ParseUint: parsing "70000": value out of range' }],
    ['ports=80,0', { error: 'port "80,0" must be > 0' }],
  ];
  for (const [query, want] of cases) assert.deepEqual(parsePortForwardPorts(new URLSearchParams(query)), want, query);
});

test('SPDY port headers', () => {
  assert.equal(parseStreamPort('8080'), 8080);
  assert.deepEqual(parseStreamPort(''), { error: '"port" header is required' });
  assert.deepEqual(parseStreamPort('0'), { error: 'port "0" must be > 0' });
  assert.deepEqual(parseStreamPort('-1'), { error: 'unable to parse "-1" as a port: strconv.ParseUint: parsing "-1": invalid syntax' });
});
