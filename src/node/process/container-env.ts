// What a container is inside, for the emulated shells (src/node/shell): its image's filesystem with the pod's
// volumes mounted, environment, user, hostname, working directory and network, built from the pod, the image and the
// node profile as the kubelet and runtime would set them up.

import type { Container, Volume as PodVolume } from 'kubernetes-types/core/v1.js';
import type { ContainerEnv, NetworkView, ShellClock, Toolset } from '../shell/interfaces.js';
import { WindowsEventLog } from '../shell/win/event-log.js';
import type { HostServices } from '../shell/interfaces.js';
import { extrasForImage, imageFs, kubeletHostsFile, mountKubeletFiles, resolvConf, Volume, volumeFromFiles, type VirtualFs } from '../shell/index.js';
import { windowsDefaultPath } from '../shell/fs/seed-windows.js';
import { imageConfig, type ImageConfig, type ResolvedImage } from '../images/catalogue.js';
import { isHostProcess } from '../os/windows/identity.js';
import { credentialSpecOf, gmsaDomain } from '../os/windows/gmsa.js';
import type { NodeProfile } from '../profile.js';
import type { ContainerRuntime, PodRuntime } from '../runtime-state.js';
import { containerMountPath } from '../volumes/mount-paths.js';
import { mountHostProcessDirs } from './hostprocess-dirs.js';
import { bindFilterRootfs, sandboxMountRoot } from './sandbox-mount.js';
import { volumeContent, type VolumeContext } from '../volumes/volume-content.js';
import { parseQuantity } from '../../api/quantity.js';
import { mountBackendVolume } from '../../csi/backend.js';
import { hostDirVolume } from '../volumes/host-dirs.js';

/** Where a HostProcess container's volumes and image land on the host (host_process.go e2e). */
export const SANDBOX_MOUNT_POINT_ENV = 'CONTAINER_SANDBOX_MOUNT_POINT';

/**
 * hcsshim starts a HostProcess container's process with `$env:CONTAINER_SANDBOX_MOUNT_POINT` and
 * `%CONTAINER_SANDBOX_MOUNT_POINT%` in its command line replaced by the mount point (internal/jobcontainers), which is
 * how an ENTRYPOINT like sig-windows-tools' `PowerShell /c $env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1` runs.
 */
export function expandSandboxMountPoint(argv: string[], env: Record<string, string>): string[] {
  // jobcontainer.go replaceWithMountPoint drops the variable's trailing backslash: `$env:…/x` becomes `C:\hpc/x`.
  const root = env[SANDBOX_MOUNT_POINT_ENV]?.replace(/\\$/, '');
  if (!root) return argv;
  return argv.map((a) => a.replace(/\$env:CONTAINER_SANDBOX_MOUNT_POINT|%CONTAINER_SANDBOX_MOUNT_POINT%/gi, () => root));
}

/** Volumes shared beyond one container: a pod's emptyDirs, a node's hostPath directories. */
export interface SharedVolumes {
  pod: Map<string, Volume>;
  host: Map<string, Volume>;
}

export interface ContainerEnvDeps {
  profile: NodeProfile;
  clock: ShellClock;
  bootTimeMs: number;
  volumeContext: Omit<VolumeContext, 'pod'>;
  shared: SharedVolumes;
  network: NetworkView;
  /** Registers a server the container's process listens with. */
  listen?: ContainerEnv['listen'];
  lifetime?: AbortSignal;
  /** The host's service control manager, given only to HostProcess containers (they see the host). */
  hostServices?: HostServices;
  /** The host's compute systems, likewise for HostProcess containers only. */
  hostCompute?: ContainerEnv['hostCompute'];
  /** The host's HNS networks and pod IPAM, likewise. */
  hostNetwork?: ContainerEnv['hostNetwork'];
}

/** The toolset the container has: the image's for its OS, the host's for HostProcess containers. */
export function toolsetOf(profile: NodeProfile, cfg: ImageConfig, hostProcess: boolean): Toolset {
  if (hostProcess) return 'hostprocess';
  return (profile.os === 'windows' ? cfg.toolset.windows : cfg.toolset.linux) ?? (profile.os === 'windows' ? 'servercore' : 'debian');
}

function linuxUserName(uid: number): string {
  return { 0: 'root', 65534: 'nobody', 65532: 'nonroot', 33: 'www-data' }[uid] ?? String(uid);
}

export function buildContainerEnv(rec: PodRuntime, c: ContainerRuntime, spec: Container, img: ResolvedImage, deps: ContainerEnvDeps): ContainerEnv {
  const { profile } = deps;
  const cfg = imageConfig(img, profile.os);
  const hostProcess = profile.os === 'windows' && isHostProcess(rec.pod, spec);
  const toolset = toolsetOf(profile, cfg, hostProcess);
  // HostProcess containers use the node's name; others the pod's hostname (spec.hostname, else the pod name).
  const hostname = hostProcess ? profile.name : rec.pod.spec?.hostname ?? rec.pod.metadata?.name ?? '';
  const now = deps.clock.now();
  const system = {
    osImage: profile.osImage, kernelVersion: profile.kernelVersion, arch: profile.arch, windowsBuild: profile.windowsBuild,
    windowsUBR: profile.windowsUBR, nodeName: profile.name, bootTimeMs: deps.bootTimeMs,
    memoryBytes: Number(parseQuantity(profile.capacity.memory ?? '0').nano / 1_000_000_000n), cpus: Number(profile.capacity.cpu ?? 1),
  };
  const windowsUser = c.identity?.windowsUser ?? 'ContainerUser';
  const sandboxRoot = hostProcess ? hostProcessRoot(profile, c) : '';
  const fs = imageFs({ os: profile.os, toolset, extras: extrasForImage(img.ref.repository), hostname, system, now, userName: windowsUser, imageRoot: sandboxRoot || 'C:' });
  if (hostProcess) mountHostProcessDirs(fs, deps.shared.host, now, (profile.network?.plugin ?? 'flannel') === 'flannel');
  mountVolumes(fs, rec, spec, deps, sandboxRoot);
  mapBlockDevices(fs, rec, spec, deps);
  if (profile.os === 'linux') {
    const sub = rec.pod.spec?.subdomain;
    mountKubeletFiles(fs, {
      hosts: kubeletHostsFile({
        podIPs: rec.podIP ? [rec.podIP] : [], hostname, hostNetwork: !!rec.pod.spec?.hostNetwork,
        fqdn: sub ? `${hostname}.${sub}.${rec.pod.metadata?.namespace}.svc.cluster.local` : undefined,
        hostAliases: (rec.pod.spec?.hostAliases ?? []).map((x) => ({ ip: x.ip ?? '', hostnames: x.hostnames ?? [] })),
      }),
      resolvConf: resolvConf(deps.network.dns),
      hostname,
    });
  }

  const linux = c.identity?.linux;
  const user = profile.os === 'windows'
    ? { name: windowsUser }
    : { name: linuxUserName(linux?.uid ?? 0), uid: linux?.uid ?? 0, gid: linux?.gid ?? 0, groups: (linux?.supplementalGroups ?? []).map((g) => ({ name: String(g), gid: g })) };
  const env: Record<string, string> = profile.os === 'windows'
    ? { PATH: windowsImagePath(windowsDefaultPath(toolset === 'nanoserver' || toolset === 'none' ? 'nanoserver' : 'servercore', windowsUser), hostProcess ? {} : cfg), ...(hostProcess ? { [SANDBOX_MOUNT_POINT_ENV]: `${sandboxRoot}\\` } : {}) }
    : { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOSTNAME: hostname, ...(linux?.uid === 0 || !linux ? { HOME: '/root' } : {}) };
  Object.assign(env, c.env ?? {});
  const gmsa = profile.os === 'windows' ? gmsaDomain(credentialSpecOf(rec.pod, spec, profile)) : undefined;
  return {
    os: profile.os, toolset, hostname, user, env,
    workingDir: spec.workingDir ? containerMountPath(profile.os, spec.workingDir) : profile.os === 'windows' ? (hostProcess ? `${sandboxRoot}\\` : 'C:\\') : '/',
    fs, system, network: deps.network,
    processes: () => [{ pid: 1, name: spec.command?.[0] ?? cfg.entrypoint?.[0] ?? cfg.cmd?.[0] ?? 'sh', memKB: 4096 }],
    ...(gmsa ? { gmsa } : {}),
    clock: deps.clock, listen: deps.listen, lifetime: deps.lifetime,
    containerId: c.containerID?.replace(/^\w+:\/\//, ''),
    image: img.name,
    // Each Windows container has its own event log; a HostProcess container reads the host's services.
    ...(profile.os === 'windows' ? { eventLog: new WindowsEventLog(() => deps.clock.now()) } : {}),
    ...(hostProcess && deps.hostServices ? { hostServices: deps.hostServices } : {}),
    ...(hostProcess && deps.hostCompute ? { hostCompute: deps.hostCompute } : {}),
    ...(hostProcess && deps.hostNetwork ? { hostNetwork: deps.hostNetwork } : {}),
  };
}

/**
 * defaultMode and items[].mode are not honoured on Windows: files carry no Unix permissions (seed 001 storage
 * limits, seed 002 "Persistent storage"); what Windows reports is the fixed 0775 of test/e2e/windows/demo.go.
 */
export const WINDOWS_VOLUME_FILE_MODE = 0o775;
const fileMode = (os: 'linux' | 'windows', mode: number) => (os === 'windows' ? WINDOWS_VOLUME_FILE_MODE : mode);

/** The node's shared-volume key of a PersistentVolume's file store. */
export const pvVolumeKey = (volumeName: string) => `pv:${volumeName}`;

/**
 * Raw block volumes (volumeDevices) appear as device files at their devicePath (Linux only: Windows pods never get
 * this far, src/node/stages/sandbox-checks.ts).
 */
function mapBlockDevices(fs: VirtualFs, rec: PodRuntime, spec: Container, deps: ContainerEnvDeps): void {
  if (deps.profile.os !== 'linux') return;
  for (const d of spec.volumeDevices ?? []) {
    if (!rec.pod.spec?.volumes?.some((x) => x.name === d.name)) continue;
    fs.mountFile(d.devicePath, Buffer.alloc(0), { source: 'block', mode: 0o660 });
  }
}

/** The image's ENV PATH: its own directories before and after the base image's PATH, `;`-separated. */
function windowsImagePath(base: string, cfg: Pick<ImageConfig, 'windowsPathFirst' | 'windowsPath'>): string {
  const first = (cfg.windowsPathFirst ?? []).map((d) => `${d};`).join('');
  const after = (cfg.windowsPath ?? []).map((d) => `${d};`).join('');
  return first + base + (after && !base.endsWith(';') ? ';' : '') + after;
}

/** A HostProcess container's sandbox mount point, by the node's containerd and build (src/node/process/sandbox-mount.ts). */
function hostProcessRoot(profile: Pick<NodeProfile, 'containerRuntimeVersion' | 'windowsBuild' | 'windowsUBR' | 'kernelVersion'>, c: ContainerRuntime): string {
  return sandboxMountRoot(profile, c.containerID?.replace(/^\w+:\/\//, '') ?? c.name);
}

/**
 * Rewrites a running container's projected ServiceAccount token volumes: the kubelet's token manager renewed the
 * token, and the volume manager's next remount puts the new one in place (atomic writer).
 */
export function remountTokenVolumes(fs: VirtualFs, rec: PodRuntime, c: ContainerRuntime, spec: Container, deps: Pick<ContainerEnvDeps, 'profile' | 'clock' | 'volumeContext' | 'shared'>): void {
  const hostProcess = deps.profile.os === 'windows' && isHostProcess(rec.pod, spec);
  const sandboxRoot = hostProcess ? hostProcessRoot(deps.profile, c) : '';
  mountVolumes(fs, rec, spec, deps, sandboxRoot, (v) => !!v.projected?.sources?.some((s) => s.serviceAccountToken));
}

/** Mounts the container's volumeMounts (under the sandbox mount point for HostProcess containers). */
function mountVolumes(fs: VirtualFs, rec: PodRuntime, spec: Container, deps: Pick<ContainerEnvDeps, 'profile' | 'clock' | 'volumeContext' | 'shared'>, sandboxRoot: string, only?: (v: PodVolume) => boolean): void {
  const os = deps.profile.os;
  const now = deps.clock.now();
  for (const m of spec.volumeMounts ?? []) {
    const v = rec.pod.spec?.volumes?.find((x) => x.name === m.name);
    if (!v || (only && !only(v))) continue;
    const r = volumeContent(v, { ...deps.volumeContext, pod: rec.pod });
    if (!('content' in r)) continue;
    const ownPath = containerMountPath(os, m.mountPath);
    const path = sandboxRoot ? `${sandboxRoot}${ownPath.slice(2)}` : ownPath;
    const content = r.content;
    // containerd 1.7's hcsshim also binds each mount at its own path, for this container's silo only (mounts.go
    // setupMounts, ApplyFileBinding with the CRI mount's "ro"); the kubelet marks API data volumes read-only
    // (kubelet_pods.go makeMounts: mount.ReadOnly || Mounter.GetAttributes().ReadOnly). containerd 1.6 only links
    // them under the sandbox mount point (fallbackMountSetup).
    const bindOwn = (source: string, apiData: boolean, readOnly: boolean) => {
      if (!sandboxRoot || !bindFilterRootfs(deps.profile)) return;
      const node = fs.lstat(path);
      if (node) fs.bind(ownPath, node, { readOnly: readOnly || apiData || !!m.readOnly, source });
    };
    if (content.kind === 'files') {
      const files = new Map([...content.files].map(([k, f]) => [k, f.data] as const));
      const modes = new Map([...content.files].map(([k, f]) => [k, fileMode(os, f.mode)] as const));
      if (m.subPath) {
        const f = content.files.get(m.subPath);
        if (f) fs.mountFile(path, f.data, { readOnly: true, mode: fileMode(os, f.mode), source: 'configmap' });
        if (f) bindOwn('configmap', true, true);
        continue;
      }
      // A HostProcess container's volumes are host directories it may write (sig-windows-tools' kube-proxy start.ps1
      // writes kubeconfig-win.conf beside the ConfigMap's files); elsewhere ConfigMaps and Secrets are read-only.
      const source = v.configMap ? 'configmap' : v.secret ? 'secret' : 'projected';
      fs.mount(path, volumeFromFiles(os, files, { now, modes, atomic: true }), { readOnly: !sandboxRoot || !!m.readOnly, source });
      bindOwn(source, true, false);
      continue;
    }
    if (content.kind === 'network') {
      // A storage system's data outlives the pod and the node: the next pod sees it wherever it runs.
      mountBackendVolume(fs, path, content.key, now, { readOnly: !!m.readOnly || content.readOnly, source: content.source });
      bindOwn(content.source, false, content.readOnly);
      continue;
    }
    if (content.kind === 'hostPath') {
      // A directory of the node's disk, seen by every mount of it or of a directory above or below it (host-dirs.ts).
      const readOnly = !!m.readOnly || !!content.readOnly;
      fs.mount(path, hostDirVolume(deps.shared.host, os, content.path, now), { readOnly, source: 'hostPath' });
      bindOwn('hostPath', false, readOnly);
      continue;
    }
    // A PersistentVolume's files live on the node, keyed by the volume's name, so a later pod sees what an earlier wrote.
    const key = content.kind === 'persistentVolume' ? pvVolumeKey(content.volumeName) : v.name;
    const table = content.kind === 'persistentVolume' ? deps.shared.host : deps.shared.pod;
    let vol = table.get(key);
    if (!vol) {
      vol = new Volume(os, now);
      table.set(key, vol);
    }
    const readOnly = !!m.readOnly || (content.kind === 'persistentVolume' && !!content.readOnly);
    const source = content.kind === 'emptyDir' && content.memory ? 'tmpfs' : content.kind;
    fs.mount(path, vol, { readOnly, source });
    bindOwn(source, false, readOnly);
  }
}
