import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusPayload, type StatusStyle } from './exec-status.js';
import type { CommandResult, RemoteCommandTarget } from './types.js';

const exec: RemoteCommandTarget = { operation: 'exec', command: ['sh', '-c', 'exit 3'] };
const attach: RemoteCommandTarget = { operation: 'attach', command: [] };

test('Status payloads, byte for byte', () => {
  const cases: Array<[CommandResult, RemoteCommandTarget, StatusStyle, string | undefined]> = [
    [{ exitCode: 0 }, exec, 'kubelet-json', '{"metadata":{},"status":"Success"}'],
    [{ exitCode: 0 }, exec, 'translator-json', '{"metadata":{},"status":"Success"}'],
    [{ exitCode: 0 }, exec, 'kubelet-text', undefined],
    [{ exitCode: 3 }, exec, 'kubelet-json',
      '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}'],
    [{ exitCode: 3 }, exec, 'translator-json',
      '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: command terminated with exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}'],
    [{ exitCode: 3 }, exec, 'kubelet-text', 'command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3'],
    [{ error: 'failed to exec in container: <oops> & more' }, exec, 'kubelet-json',
      '{"metadata":{},"status":"Failure","message":"Internal error occurred: error executing command in container: failed to exec in container: \\u003coops\\u003e \\u0026 more","reason":"InternalError","details":{"causes":[{"message":"error executing command in container: failed to exec in container: \\u003coops\\u003e \\u0026 more"}]},"code":500}'],
    [{ error: 'boom' }, exec, 'translator-json',
      '{"metadata":{},"status":"Failure","message":"Internal error occurred: Internal error occurred: error executing command in container: boom","reason":"InternalError","details":{"causes":[{"message":"Internal error occurred: error executing command in container: boom"}]},"code":500}'],
    [{ error: 'boom' }, exec, 'kubelet-text', 'Internal error occurred: error executing command in container: boom'],
    [{ exitCode: 300 }, exec, 'translator-json',
      '{"metadata":{},"status":"Failure","message":"Internal error occurred: error stream protocol error: invalid exit code value \\"300\\"","reason":"InternalError","details":{"causes":[{"message":"error stream protocol error: invalid exit code value \\"300\\""}]},"code":500}'],
    [{ exitCode: 1 }, attach, 'kubelet-json', '{"metadata":{},"status":"Success"}'],
    [{ error: 'gone' }, attach, 'kubelet-json',
      '{"metadata":{},"status":"Failure","message":"Internal error occurred: error attaching to container: gone","reason":"InternalError","details":{"causes":[{"message":"error attaching to container: gone"}]},"code":500}'],
  ];
  for (const [result, target, style, want] of cases) {
    assert.equal(statusPayload(result, target, style)?.toString('utf8'), want, `${JSON.stringify(result)} ${target.operation} ${style}`);
  }
});
