// Shared fixtures of the exec/attach tests: request paths and the exact Status texts expected.

export const POD = '/api/v1/namespaces/default/pods/p';

export function execPath(command: string[], flags: string): string {
  return `${POD}/exec?${command.map((c) => `command=${encodeURIComponent(c)}`).join('&')}&${flags}`;
}

export const SUCCESS = '{"metadata":{},"status":"Success"}';
/** The kubelet's Status for `exit 3` (SPDY v4, WebSocket v4). */
export const KUBELET_EXIT_3 = '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [exit 3], exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}';
/** The API server translator's Status for `exit 3` (WebSocket v5). */
export const TRANSLATOR_EXIT_3 = '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: command terminated with exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}';
/** The message alone, as protocols before v4 carry it. */
export const TEXT_EXIT_3 = 'command terminated with non-zero exit code: error executing command [exit 3], exit code 3';
