// The final Status an exec/attach session writes on its error channel, worded exactly as a real cluster words it.
//
// Three writers exist upstream, chosen here by the negotiated protocol:
// - 'kubelet-json' (SPDY v4, WebSocket v4.channel.k8s.io): pkg/kubelet/cri/streaming/remotecommand exec.go/attach.go,
//   wrapping containerd's errors ("error executing command [..], exit code N").
// - 'kubelet-text' (SPDY v1–v3, WebSocket channel.k8s.io/base64 and no subprotocol): the same Status, but only its
//   message, and nothing at all on success.
// - 'translator-json' (WebSocket v5.channel.k8s.io): a real API server answers v5 itself (apiserver
//   pkg/util/proxy/streamtranslator.go) and talks SPDY v4 to the kubelet, so the kubelet's Status is decoded by
//   client-go first and re-wrapped: "command terminated with non-zero exit code: command terminated with exit code N".

import type { CommandResult, RemoteCommandTarget } from './types.js';

export type StatusStyle = 'kubelet-json' | 'kubelet-text' | 'translator-json';

interface StatusCause {
  reason?: string;
  message?: string;
}

interface Status {
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  causes?: StatusCause[];
  code?: number;
}

/** Go's json.Marshal of metav1.Status: field order, omitempty, an always-present empty metadata, HTML-safe escaping. */
export function marshalStatus(s: Status): string {
  const obj: Record<string, unknown> = { metadata: {}, status: s.status };
  if (s.message) obj.message = s.message;
  if (s.reason) obj.reason = s.reason;
  if (s.causes) obj.details = { causes: s.causes.map((c) => ({ ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) })) };
  if (s.code) obj.code = s.code;
  return goEscape(JSON.stringify(obj));
}

/** encoding/json escapes <, >, & and the JS line separators; JSON.stringify does not. */
function goEscape(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function internalError(err: string): Status {
  // apimachinery errors.NewInternalError
  return { status: 'Failure', message: `Internal error occurred: ${err}`, reason: 'InternalError', causes: [{ message: err }], code: 500 };
}

function nonZero(message: string, code: number): Status {
  return { status: 'Failure', message: `command terminated with non-zero exit code: ${message}`, reason: 'NonZeroExitCode', causes: [{ reason: 'ExitCode', message: String(code) }] };
}

/** What the kubelet (with containerd as the runtime) reports. */
function kubeletStatus(result: CommandResult, target: RemoteCommandTarget): Status {
  if ('error' in result) {
    return internalError(target.operation === 'attach' ? `error attaching to container: ${result.error}` : `error executing command in container: ${result.error}`);
  }
  // Attach has no exit code to report: the kubelet says Success when the attached streams end.
  if (result.exitCode === 0 || target.operation === 'attach') return { status: 'Success' };
  // containerd's CodeExitError text; Go prints a []string as [a b c].
  return nonZero(`error executing command [${target.command.join(' ')}], exit code ${result.exitCode}`, result.exitCode);
}

/** What the API server's WebSocket→SPDY translator reports after decoding the kubelet's Status with client-go. */
function translatorStatus(result: CommandResult, target: RemoteCommandTarget): Status {
  const kubelet = kubeletStatus(result, target);
  if (kubelet.status === 'Success') return kubelet;
  if (kubelet.reason === 'NonZeroExitCode') {
    const code = (result as { exitCode: number }).exitCode;
    // client-go parses the cause with strconv.ParseUint(msg, 10, 8) and fails on anything else.
    if (!Number.isInteger(code) || code < 0 || code > 255) return internalError(`error stream protocol error: invalid exit code value ${JSON.stringify(String(code))}`);
    return nonZero(`command terminated with exit code ${code}`, code);
  }
  return internalError(kubelet.message ?? '');
}

/** The bytes to send on the error channel, or undefined when the style sends nothing (text style on success). */
export function statusPayload(result: CommandResult, target: RemoteCommandTarget, style: StatusStyle): Buffer | undefined {
  if (style === 'translator-json') return Buffer.from(marshalStatus(translatorStatus(result, target)));
  const status = kubeletStatus(result, target);
  if (style === 'kubelet-json') return Buffer.from(marshalStatus(status));
  return status.status === 'Success' ? undefined : Buffer.from(status.message ?? '');
}
