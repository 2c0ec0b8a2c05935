// The emulated container programs: one interpreter per shell family (BusyBox ash, dash, bash; cmd.exe; Windows
// PowerShell 5.1) plus the tools images ship, run against a container's files, identity, network and clock.

import type { Clock } from '../../util/clock.js';
import type { ShellClock } from './interfaces.js';
import { linuxImageFs } from './fs/seed-linux.js';
import { windowsImageFs } from './fs/seed-windows.js';
import type { ImageProgram } from './fs/seed-extras.js';
import type { ContainerEnv, Toolset } from './interfaces.js';
import type { VirtualFs } from './fs/vfs.js';

export type {
  ConnectResult, ContainerEnv, ContainerUser, DnsAnswer, DnsResult, HttpClientError, HttpClientRequest, HttpClientResponse,
  HttpHandler, HttpRequest, HttpResponse, Listener, NetworkView, RunResult, ShellClock, ShellIO, SystemInfo, Toolset,
} from './interfaces.js';
export { runCommand, processEnvironment, WINDOWS_STOPPED_EXIT } from './run-command.js';
export { VirtualFs, Volume, FsError, volumeFromFiles, type FsNode, type MountOptions, type VolumeFileOptions, type Cred } from './fs/vfs.js';
export { kubeletHostsFile, resolvConf, mountKubeletFiles, type HostsFileOptions } from './fs/kubelet-files.js';
export { extrasForImage, type ImageProgram } from './fs/seed-extras.js';
export { encodeTar, decodeTar, type TarEntry } from './tar/ustar.js';
export { listeners } from './net/listen.js';
export { computerName } from './win/format.js';

export interface ImageFsOptions {
  os: 'linux' | 'windows';
  toolset: Toolset;
  /** Programs beyond the toolset (see extrasForImage). */
  extras?: ImageProgram[];
  hostname: string;
  system: ContainerEnv['system'];
  /** The clock's time, for file times. */
  now: number;
  /** Windows: the user whose profile directory exists. */
  userName?: string;
  /** Windows: where the image's own files land (a HostProcess container's sandbox mount point). */
  imageRoot?: string;
}

/** The root filesystem a container starts with: the image's files for its toolset and extra programs. */
export function imageFs(o: ImageFsOptions): VirtualFs {
  if (o.os === 'windows') {
    const t = o.toolset === 'servercore' || o.toolset === 'nanoserver' || o.toolset === 'hostprocess' || o.toolset === 'none' ? o.toolset : 'none';
    return windowsImageFs({ toolset: t, now: o.now, extras: o.extras, userName: o.userName, imageRoot: o.imageRoot });
  }
  const t = o.toolset === 'busybox' || o.toolset === 'alpine' || o.toolset === 'debian' || o.toolset === 'distroless' ? o.toolset : 'none';
  return linuxImageFs({ toolset: t, now: o.now, extras: o.extras, system: o.system, hostname: o.hostname });
}

/** Adapts the project's Clock to the containers' abortable sleep. */
export function shellClock(clock: Clock): ShellClock {
  return {
    now: () => clock.now(),
    sleep: (ms, signal) => new Promise<void>((resolve, reject) => {
      if (signal?.aborted) { reject(signal.reason); return; }
      const onAbort = () => { timer.cancel(); reject(signal!.reason); };
      const timer = clock.setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  };
}
