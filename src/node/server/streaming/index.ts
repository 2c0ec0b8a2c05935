// The kubelet side of the streaming protocols: exec/attach (WebSocket v5/v4…, SPDY/3.1) and port-forward (SPDY, tunneled SPDY, channel WebSocket).

export type {
  CommandResult, PortForwardHandle, PortForwardStream, RemoteCommandSession, RemoteCommandTarget, StreamOptions, StreamingConfig, TerminalSize,
} from './types.js';
export { parseStreamOptions, parsePortForwardPorts } from './options.js';
export { upgradeRemoteCommand, DEFAULT_STREAM_CREATION_TIMEOUT_MS, type RemoteCommandConfig } from './remote-command.js';
export { upgradePortForward } from './port-forward.js';
export { writeRestfulError } from './http-reply.js';
