// Test double of a container runtime behind the streaming endpoints: a few commands with known output, and an echo port.

import type { PortForwardStream, RemoteCommandSession } from '../types.js';

/** A port nothing listens on; forwarding to it fails with the kubelet's wording (containerd on Linux). */
export const CLOSED_PORT = 9;

export function refusedMessage(port: number): string {
  return `error forwarding port ${port} to pod abc, uid : failed to execute portforward in network namespace "/var/run/netns/cni-1": failed to connect to localhost:${port} inside namespace "abc", IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6 [::1]:${port}: connect: connection refused `;
}

/**
 * Commands: cat (stdin to stdout, exit 0 at EOF), echo ARGS, exit N (writes "out"/"err" first), fail MESSAGE
 * (runtime error), size (prints the first terminal size), big N (N bytes of stdout), wait (until the client leaves;
 * then calls onGone).
 */
export function runCommand(session: RemoteCommandSession, command: string[], onGone?: () => void): void {
  const [name, ...args] = command;
  const out = session.stdout;
  switch (name) {
    case 'cat': {
      const stdin = session.stdin;
      if (!stdin) return session.finish({ exitCode: 0 });
      stdin.on('data', (c: Buffer) => out?.write(c));
      stdin.on('end', () => session.finish({ exitCode: 0 }));
      return;
    }
    case 'echo':
      out?.write(args.join(' ') + '\n');
      return session.finish({ exitCode: 0 });
    case 'exit':
      out?.write('out\n');
      session.stderr?.write('err\n');
      return session.finish({ exitCode: Number(args[0]) });
    case 'fail':
      return session.finish({ error: args.join(' ') });
    case 'size':
      session.onResize((s) => {
        out?.write(`${s.width}x${s.height}\n`);
        session.finish({ exitCode: 0 });
      });
      return;
    case 'big': {
      let left = Number(args[0]);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          if (!out?.write(chunk.subarray(0, n))) {
            out?.once('drain', pump);
            return;
          }
        }
        session.finish({ exitCode: 0 });
      };
      return pump();
    }
    case 'wait':
      session.onClose(() => onGone?.());
      return;
    default:
      session.stderr?.write(`${name}: not found\n`);
      return session.finish({ exitCode: 127 });
  }
}

/** Echoes every forwarded connection, except CLOSED_PORT which fails like a refused connection. */
export function echoPort(s: PortForwardStream): void {
  if (s.port === CLOSED_PORT) return s.fail(refusedMessage(s.port));
  s.data.on('data', (c: Buffer) => s.data.write(c));
  s.data.on('end', () => s.data.end());
}
