// The image catalogue: which images exist, for which platforms, how big they are and what their entrypoint does.
// Containers never run binaries; this data (plus per-pod annotations) decides their behaviour.
// An image whose repository is not listed pulls as a Linux amd64+arm64 image (see lookupImage).

import { createHash } from 'node:crypto';
import type { Platform } from './platform.js';
import { formatImageRef, parseImageRef, type ImageRef } from './reference.js';
import { SAC1903, SAC1909, SAC2004, SAC20H2, WINDOWS_ERA_CONFIGS, windowsEraEntries } from './catalogue-windows-eras.js';

/** What a container started from the image does when the pod does not override its command. */
export interface EntrypointBehaviour {
  /** `serve` runs until stopped; `exit` ends by itself after `runMs` with `exitCode`. */
  kind: 'serve' | 'exit';
  runMs?: number;
  exitCode?: number;
  /** Ports the process listens on (for probes and services later). */
  ports?: number[];
  /** Lines written to stdout at start. */
  logLines?: string[];
  /** How long the process takes to exit after the stop signal (SIGTERM / CTRL_SHUTDOWN_EVENT). */
  stopMs?: number;
  /** What the idle process uses (src/node/stats); pod annotations and the command can say otherwise. */
  usage?: ImageUsage;
}

/** CPU and working set of a process, as quantities; `windows` overrides for the image's Windows build. */
export interface ImageUsage {
  cpu: string;
  memory: string;
  windows?: { cpu?: string; memory?: string };
}

/** The programs an image ships, named by the shell family the emulated interpreter (src/node/shell) runs. */
export type ImageToolset = 'busybox' | 'alpine' | 'debian' | 'distroless' | 'none' | 'servercore' | 'nanoserver';

/** What a container of the image is inside: its programs per OS, its default user and its ENTRYPOINT/CMD. */
export interface ImageConfig {
  toolset: { linux?: ImageToolset; windows?: ImageToolset };
  /** The image's USER on Windows: Server Core images run as ContainerAdministrator, Nano Server as ContainerUser. */
  windowsUser?: string;
  /** The image's USER on Linux as a uid; root (0) when absent. */
  linuxUid?: number;
  /** ENTRYPOINT and CMD (argv); a pod's command replaces the first, its args the second. */
  entrypoint?: string[];
  cmd?: string[];
  /** Directories the image's ENV PATH adds after the base image's (Windows). */
  windowsPath?: string[];
  /** Directories the image's ENV PATH puts before the base image's (Windows), searched first. */
  windowsPathFirst?: string[];
  /** ENTRYPOINT and CMD of the image's Windows build when they differ from its Linux build's. */
  windows?: { entrypoint?: string[]; cmd?: string[] };
}

export interface CatalogueEntry {
  repository: string;
  /** Tags this entry covers: a list, or a pattern for families like agnhost:2.x. */
  tags: readonly string[] | RegExp;
  platforms: readonly Platform[];
  sizeBytes: number;
  entrypoint: EntrypointBehaviour;
}

const LINUX_MULTI: Platform[] = [{ os: 'linux', architecture: 'amd64' }, { os: 'linux', architecture: 'arm64' }];
const win = (...builds: string[]): Platform[] => builds.map((b) => ({ os: 'windows', architecture: 'amd64', osVersion: b }));
const WS2019 = '10.0.17763.6893';
const WS2022 = '10.0.20348.3453';
const WS2025 = '10.0.26100.3476';

// Idle usage: a shell or sleep is tiny on Linux; a Windows container's own session (smss, csrss, CExecSvc) and a
// Server Core shell take tens of MiB.
const SHELL_USAGE: ImageUsage = { cpu: '1m', memory: '1Mi', windows: { cpu: '2m', memory: '40Mi' } };
const exitsAtOnce: EntrypointBehaviour = { kind: 'exit', runMs: 50, exitCode: 0, usage: SHELL_USAGE };
const exitsAtOnceNano: EntrypointBehaviour = { ...exitsAtOnce, usage: { cpu: '1m', memory: '16Mi' } };
const pause: EntrypointBehaviour = { kind: 'serve', stopMs: 50, usage: { cpu: '100u', memory: '256Ki', windows: { memory: '8Mi' } } };
const NGINX: EntrypointBehaviour = {
  kind: 'serve', ports: [80], stopMs: 200, usage: { cpu: '1m', memory: '6Mi' },
  logLines: ['/docker-entrypoint.sh: Configuration complete; ready for start up'],
};
const IIS: EntrypointBehaviour = {
  kind: 'serve', ports: [80], stopMs: 1000, usage: { cpu: '3m', memory: '95Mi' },
  logLines: [' Service \'w3svc\' has been stopped', '', ' Service \'w3svc\' started'],
};
const ASPNET: EntrypointBehaviour = { ...IIS, usage: { cpu: '5m', memory: '160Mi' } };
const HTTPD: EntrypointBehaviour = { kind: 'serve', ports: [80], stopMs: 200, usage: { cpu: '1m', memory: '12Mi' } };

export const CATALOGUE: readonly CatalogueEntry[] = [
  // Windows base images (mcr.microsoft.com/windows/*): one build per tag.
  { repository: 'mcr.microsoft.com/windows/servercore', tags: ['ltsc2019', '1809'], platforms: win(WS2019), sizeBytes: 2_497_245_440, entrypoint: exitsAtOnce },
  { repository: 'mcr.microsoft.com/windows/servercore', tags: ['ltsc2022'], platforms: win(WS2022), sizeBytes: 1_653_791_616, entrypoint: exitsAtOnce },
  { repository: 'mcr.microsoft.com/windows/servercore', tags: ['ltsc2025'], platforms: win(WS2025), sizeBytes: 2_012_467_200, entrypoint: exitsAtOnce },
  { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['ltsc2019', '1809'], platforms: win(WS2019), sizeBytes: 111_912_488, entrypoint: exitsAtOnceNano },
  { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['ltsc2022'], platforms: win(WS2022), sizeBytes: 121_387_510, entrypoint: exitsAtOnceNano },
  { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['ltsc2025'], platforms: win(WS2025), sizeBytes: 126_802_104, entrypoint: exitsAtOnceNano },
  { repository: 'mcr.microsoft.com/windows', tags: ['1809', 'ltsc2019'], platforms: win(WS2019), sizeBytes: 3_641_892_864, entrypoint: exitsAtOnce },
  // PowerShell 7 on Nano Server (PowerShell-Docker release/*/nanoserver*): pwsh.exe in C:\Program Files\PowerShell,
  // the image's CMD; `lts` and `7.4` tags are the 7.4 LTS release.
  { repository: 'mcr.microsoft.com/powershell', tags: /^((lts|7\.4(\.\d+)?)-)?nanoserver-(1809|ltsc2019)$/, platforms: win(WS2019), sizeBytes: 330_000_000, entrypoint: exitsAtOnceNano },
  { repository: 'mcr.microsoft.com/powershell', tags: /^((lts|7\.4(\.\d+)?)-)?nanoserver-ltsc2022$/, platforms: win(WS2022), sizeBytes: 341_000_000, entrypoint: exitsAtOnceNano },
  { repository: 'mcr.microsoft.com/windows/server', tags: ['ltsc2022'], platforms: win(WS2022), sizeBytes: 3_307_520_000, entrypoint: exitsAtOnce },
  // IIS: the build-specific tags and a multi-build `latest`.
  { repository: 'mcr.microsoft.com/windows/servercore/iis', tags: ['windowsservercore-ltsc2019'], platforms: win(WS2019), sizeBytes: 2_555_904_000, entrypoint: IIS },
  { repository: 'mcr.microsoft.com/windows/servercore/iis', tags: ['windowsservercore-ltsc2022'], platforms: win(WS2022), sizeBytes: 1_712_324_608, entrypoint: IIS },
  { repository: 'mcr.microsoft.com/windows/servercore/iis', tags: ['latest'], platforms: win(WS2019, WS2022), sizeBytes: 1_712_324_608, entrypoint: IIS },
  { repository: 'mcr.microsoft.com/dotnet/framework/aspnet', tags: /ltsc2019$/, platforms: win(WS2019), sizeBytes: 2_889_011_200, entrypoint: ASPNET },
  { repository: 'mcr.microsoft.com/dotnet/framework/aspnet', tags: /ltsc2022$/, platforms: win(WS2022), sizeBytes: 2_105_344_000, entrypoint: ASPNET },
  { repository: 'mcr.microsoft.com/dotnet/framework/samples', tags: ['aspnetapp'], platforms: win(WS2019, WS2022), sizeBytes: 2_150_000_000, entrypoint: ASPNET },
  // IIS wrapped in LogMonitor, as windows-container-tools' IIS example builds it (a stand-in for the user's own build).
  { repository: 'docker.io/winkube/iis-logmonitor', tags: ['latest', 'ltsc2019', 'ltsc2022'], platforms: win(WS2019, WS2022), sizeBytes: 1_714_000_000, entrypoint: { ...IIS, logLines: [] } },
  // Sandbox (pause) images: multi-arch manifest lists with Windows entries per build.
  { repository: 'registry.k8s.io/pause', tags: ['3.6', '3.7', '3.8', '3.9', '3.10'], platforms: [...LINUX_MULTI, ...win(WS2019, WS2022)], sizeBytes: 320_368, entrypoint: pause },
  { repository: 'registry.k8s.io/pause', tags: ['3.10.1'], platforms: [...LINUX_MULTI, ...win(WS2019, WS2022, WS2025)], sizeBytes: 320_368, entrypoint: pause },
  { repository: 'mcr.microsoft.com/oss/kubernetes/pause', tags: ['3.6', '3.9', '3.10'], platforms: [...LINUX_MULTI, ...win(WS2019, WS2022)], sizeBytes: 320_368, entrypoint: pause },
  // The v1.15–v1.20 Windows-only pause images (seed 001 "Pause Image"); wincat.exe is in them from 1.4.1 on.
  { repository: 'mcr.microsoft.com/oss/kubernetes/pause', tags: ['1.3.0', '1.4.0', '1.4.1'], platforms: win(WS2019), sizeBytes: 104_183_552, entrypoint: pause },
  { repository: 'k8s.gcr.io/pause', tags: ['3.2', '3.4.1', '3.6'], platforms: [...LINUX_MULTI, ...win(WS2019)], sizeBytes: 301_261, entrypoint: pause },
  // The v1.22 edition's pause (seed 002 "Pause image"): build/pause/Makefile of 3.5 has OSVERSION 1809 1903 1909 2004 20H2.
  { repository: 'k8s.gcr.io/pause', tags: ['3.5'], platforms: [...LINUX_MULTI, ...win(WS2019, SAC1903, SAC1909, SAC2004, SAC20H2)], sizeBytes: 301_261, entrypoint: pause },
  // Kubernetes e2e images (multi-arch, Windows included).
  { repository: 'registry.k8s.io/e2e-test-images/agnhost', tags: /^2\.\d+$/, platforms: [...LINUX_MULTI, ...win(WS2019, WS2022)], sizeBytes: 51_217_720, entrypoint: { kind: 'exit', runMs: 50, exitCode: 0, logLines: ['Tool for testing Kubernetes e2e'], usage: { cpu: '1m', memory: '10Mi', windows: { memory: '45Mi' } } } },
  { repository: 'registry.k8s.io/e2e-test-images/busybox', tags: /^1\.3\d(\.\d+)?-\d+$/, platforms: [...LINUX_MULTI, ...win(WS2019, WS2022)], sizeBytes: 2_231_050, entrypoint: exitsAtOnce },
  { repository: 'registry.k8s.io/e2e-test-images/nginx', tags: /^1\.\d+-\d+$/, platforms: LINUX_MULTI, sizeBytes: 6_476_468, entrypoint: NGINX },
  { repository: 'registry.k8s.io/e2e-test-images/httpd', tags: /^2\.4\.\d+-\d+$/, platforms: LINUX_MULTI, sizeBytes: 40_764_075, entrypoint: HTTPD },
  { repository: 'registry.k8s.io/e2e-test-images/nonroot', tags: /^1\.\d+$/, platforms: [...LINUX_MULTI, ...win(WS2019, WS2022)], sizeBytes: 17_747_885, entrypoint: pause },
  // Common Linux images. Tag patterns make `nginx:doesnotexist` fail like a missing tag does.
  // The Kubernetes docs' probe examples use this mirror (busybox 1.27.2 under `latest`).
  { repository: 'registry.k8s.io/busybox', tags: /^(latest|1\.\d+(\.\d+)?)$/, platforms: LINUX_MULTI, sizeBytes: 1_144_547, entrypoint: exitsAtOnce },
  { repository: 'docker.io/library/busybox', tags: /^(latest|stable|musl|glibc|uclibc|1\.\d+(\.\d+)?(-[a-z]+)?)$/, platforms: LINUX_MULTI, sizeBytes: 2_155_306, entrypoint: exitsAtOnce },
  { repository: 'docker.io/library/alpine', tags: /^(latest|edge|3\.\d+(\.\d+)?)$/, platforms: LINUX_MULTI, sizeBytes: 3_653_068, entrypoint: exitsAtOnce },
  { repository: 'docker.io/library/nginx', tags: /^(latest|stable|mainline|alpine|stable-alpine|mainline-alpine|perl|\d+(\.\d+){0,2}(-(alpine|perl|bookworm|alpine-slim))?)$/, platforms: LINUX_MULTI, sizeBytes: 72_188_133, entrypoint: NGINX },
  { repository: 'docker.io/library/httpd', tags: /^(latest|alpine|2(\.\d+){0,2}(-alpine)?)$/, platforms: LINUX_MULTI, sizeBytes: 58_125_021, entrypoint: HTTPD },
  { repository: 'docker.io/library/redis', tags: /^(latest|alpine|\d+(\.\d+){0,2}(-alpine)?)$/, platforms: LINUX_MULTI, sizeBytes: 45_064_181, entrypoint: { kind: 'serve', ports: [6379], stopMs: 100, logLines: ['* Ready to accept connections tcp'], usage: { cpu: '2m', memory: '4Mi' } } },
  { repository: 'docker.io/library/ubuntu', tags: /^(latest|\d\d\.\d\d|jammy|noble|focal)$/, platforms: LINUX_MULTI, sizeBytes: 29_754_290, entrypoint: exitsAtOnce },
  // CoreDNS as kubeadm deploys it (v1.12.0 with kubeadm 1.33): DNS on 53, health 8080, ready 8181, metrics 9153.
  { repository: 'registry.k8s.io/coredns/coredns', tags: /^v1\.(8|9|1[0-2])\.\d+$/, platforms: LINUX_MULTI, sizeBytes: 20_900_000, entrypoint: { kind: 'serve', ports: [53, 8080, 8181, 9153], stopMs: 200, usage: { cpu: '3m', memory: '14Mi' } } },
  // The windows-gmsa admission webhook (FROM scratch, linux/amd64+arm64): registry.k8s.io since v0.4.0, Docker Hub's
  // sigwindowstools before (windows-gmsa RELEASE.md, deploy-gmsa-webhook.sh history).
  { repository: 'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook', tags: /^(latest|v0\.(\d|1[0-3])\.\d+)$/, platforms: LINUX_MULTI, sizeBytes: 18_600_000, entrypoint: { kind: 'serve', ports: [443], stopMs: 100, usage: { cpu: '1m', memory: '12Mi' } } },
  { repository: 'docker.io/sigwindowstools/k8s-gmsa-webhook', tags: /^(latest|v0\.[1-3]\.\d+)$/, platforms: LINUX_MULTI, sizeBytes: 18_200_000, entrypoint: { kind: 'serve', ports: [443], stopMs: 100, usage: { cpu: '1m', memory: '12Mi' } } },
  // metrics-server's release image (HTTPS on 10250) and the e2e aggregator backend (HTTPS on 443).
  { repository: 'registry.k8s.io/metrics-server/metrics-server', tags: /^v0\.[5-8]\.\d+$/, platforms: LINUX_MULTI, sizeBytes: 19_500_000, entrypoint: { kind: 'serve', ports: [10250], stopMs: 200, usage: { cpu: '4m', memory: '18Mi' } } },
  { repository: 'registry.k8s.io/e2e-test-images/sample-apiserver', tags: /^1\.\d+\.\d+$/, platforms: LINUX_MULTI, sizeBytes: 23_400_000, entrypoint: { kind: 'serve', ports: [443], stopMs: 200, usage: { cpu: '3m', memory: '25Mi' } } },
  // sig-windows-tools' HostProcess images for Windows kube-proxy and flannel: built on the host-process base image,
  // which carries no OS build, so one image runs on every Windows build (sig-windows-tools hostprocess/ manifests).
  { repository: 'docker.io/sigwindowstools/kube-proxy', tags: /^v1\.\d+\.\d+-(flannel|calico)-hostprocess$/, platforms: [{ os: 'windows', architecture: 'amd64' }], sizeBytes: 26_800_000, entrypoint: { kind: 'serve', stopMs: 200, usage: { cpu: '2m', memory: '30Mi' } } },
  { repository: 'docker.io/sigwindowstools/flannel', tags: /^v0\.\d+\.\d+-hostprocess$/, platforms: [{ os: 'windows', architecture: 'amd64' }], sizeBytes: 32_400_000, entrypoint: { kind: 'serve', stopMs: 200, usage: { cpu: '1m', memory: '25Mi' } } },
  // WS2016 and the SAC releases, and the v1.9 era's Docker Hub images (after the entries above, which keep their order).
  ...windowsEraEntries({ base: exitsAtOnce, nano: exitsAtOnceNano, iis: IIS, pause }),
];

/**
 * Image configs by repository (Docker Hub / MCR image definitions): which shell and tools are inside, the default
 * user, ENTRYPOINT and CMD. Repositories not listed are Debian-based Linux images with bash.
 */
const CONFIGS: Record<string, ImageConfig> = {
  'mcr.microsoft.com/windows/servercore': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', cmd: ['c:\\windows\\system32\\cmd.exe'] },
  'mcr.microsoft.com/windows/nanoserver': { toolset: { windows: 'nanoserver' }, windowsUser: 'ContainerUser', cmd: ['c:\\windows\\system32\\cmd.exe'] },
  'mcr.microsoft.com/windows': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', cmd: ['c:\\windows\\system32\\cmd.exe'] },
  'mcr.microsoft.com/windows/server': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', cmd: ['c:\\windows\\system32\\cmd.exe'] },
  'mcr.microsoft.com/powershell': { toolset: { windows: 'nanoserver' }, windowsUser: 'ContainerUser', cmd: ['pwsh.exe'], windowsPath: ['C:\\Program Files\\PowerShell'] },
  'mcr.microsoft.com/windows/servercore/iis': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', entrypoint: ['C:\\ServiceMonitor.exe', 'w3svc'] },
  'mcr.microsoft.com/dotnet/framework/aspnet': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', entrypoint: ['C:\\ServiceMonitor.exe', 'w3svc'] },
  'mcr.microsoft.com/dotnet/framework/samples': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', entrypoint: ['C:\\ServiceMonitor.exe', 'w3svc'] },
  'docker.io/winkube/iis-logmonitor': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', entrypoint: ['C:\\LogMonitor\\LogMonitor.exe', 'C:\\ServiceMonitor.exe', 'w3svc'] },
  // The pause image has no shell on either OS: exec into it fails as the runtime words it.
  'registry.k8s.io/pause': { toolset: { linux: 'none', windows: 'none' }, windowsUser: 'ContainerUser', entrypoint: ['/pause'] },
  'mcr.microsoft.com/oss/kubernetes/pause': { toolset: { linux: 'none', windows: 'none' }, windowsUser: 'ContainerUser', entrypoint: ['/pause'] },
  'k8s.gcr.io/pause': { toolset: { linux: 'none', windows: 'none' }, windowsUser: 'ContainerUser', entrypoint: ['/pause'] },
  // e2e images: Linux ones are BusyBox/Alpine based; their Windows builds carry PowerShell plus busybox-like tools.
  'registry.k8s.io/e2e-test-images/agnhost': { toolset: { linux: 'alpine', windows: 'servercore' }, windowsUser: 'ContainerAdministrator', entrypoint: ['/agnhost'] },
  // Windows build (test/images/busybox/Dockerfile_windows): Server Core with busybox-w32 in C:\bin (sh included), curl,
  // BIND dig/nslookup and netcat; ENTRYPOINT cmd.exe /s /c and no CMD; its ENV PATH puts C:\dig, C:\bin, C:\curl first.
  // That PATH names no WindowsPowerShell directory, yet e2e windows/cpu_limits.go runs powershell.exe in this image, so
  // the base image's PATH is kept after those directories.
  'registry.k8s.io/e2e-test-images/busybox': {
    toolset: { linux: 'busybox', windows: 'servercore' }, windowsUser: 'ContainerAdministrator', cmd: ['sh'],
    windows: { entrypoint: ['cmd.exe', '/s', '/c'], cmd: [] },
    windowsPathFirst: ['C:\\dig\\', 'C:\\bin', 'C:\\curl'], windowsPath: ['C:\\Program Files\\PowerShell'],
  },
  'registry.k8s.io/e2e-test-images/nonroot': { toolset: { linux: 'busybox', windows: 'nanoserver' }, windowsUser: 'ContainerUser', linuxUid: 1234 },
  'registry.k8s.io/e2e-test-images/nginx': { toolset: { linux: 'alpine' }, entrypoint: ['/docker-entrypoint.sh'], cmd: ['nginx', '-g', 'daemon off;'] },
  'registry.k8s.io/e2e-test-images/httpd': { toolset: { linux: 'debian' }, cmd: ['httpd-foreground'] },
  'docker.io/library/busybox': { toolset: { linux: 'busybox' }, cmd: ['sh'] },
  'registry.k8s.io/busybox': { toolset: { linux: 'busybox' }, cmd: ['sh'] },
  'docker.io/library/alpine': { toolset: { linux: 'alpine' }, cmd: ['/bin/sh'] },
  'docker.io/library/nginx': { toolset: { linux: 'debian' }, entrypoint: ['/docker-entrypoint.sh'], cmd: ['nginx', '-g', 'daemon off;'] },
  'docker.io/library/httpd': { toolset: { linux: 'debian' }, cmd: ['httpd-foreground'] },
  'docker.io/library/redis': { toolset: { linux: 'debian' }, entrypoint: ['docker-entrypoint.sh'], cmd: ['redis-server'] },
  'docker.io/library/ubuntu': { toolset: { linux: 'debian' }, cmd: ['/bin/bash'] },
  // FROM scratch: the binary and CA certificates, no shell.
  'registry.k8s.io/coredns/coredns': { toolset: { linux: 'distroless' }, entrypoint: ['/coredns'] },
  'registry.k8s.io/metrics-server/metrics-server': { toolset: { linux: 'distroless' }, entrypoint: ['/metrics-server'] },
  'registry.k8s.io/e2e-test-images/sample-apiserver': { toolset: { linux: 'distroless' }, entrypoint: ['/sample-apiserver'] },
  'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook': { toolset: { linux: 'distroless' }, entrypoint: ['/admission-webhook/admission-webhook'] },
  'docker.io/sigwindowstools/k8s-gmsa-webhook': { toolset: { linux: 'distroless' }, entrypoint: ['/admission-webhook/admission-webhook'] },
  // ENTRYPOINT of sig-windows-tools hostprocess/flannel/{kube-proxy,flanneld}/Dockerfile: start.ps1 under the sandbox mount point.
  'docker.io/sigwindowstools/kube-proxy': { toolset: { windows: 'servercore' }, entrypoint: ['PowerShell', '/c', '$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1'] },
  'docker.io/sigwindowstools/flannel': { toolset: { windows: 'servercore' }, entrypoint: ['PowerShell', '/c', '$env:CONTAINER_SANDBOX_MOUNT_POINT/flannel/start.ps1'] },
  ...WINDOWS_ERA_CONFIGS,
};
const DEFAULT_CONFIG: ImageConfig = { toolset: { linux: 'debian' } };

/** The image's config (toolset, user, ENTRYPOINT/CMD), by repository; `os` picks the build's ENTRYPOINT/CMD. */
export function imageConfig(img: Pick<ResolvedImage, 'ref'>, os?: 'linux' | 'windows'): ImageConfig {
  const cfg = CONFIGS[img.ref.repository] ?? DEFAULT_CONFIG;
  return os === 'windows' && cfg.windows ? { ...cfg, entrypoint: cfg.windows.entrypoint, cmd: cfg.windows.cmd } : cfg;
}

/** An image resolved against the catalogue: its normalised reference, platforms, size and entrypoint. */
export interface ResolvedImage {
  ref: ImageRef;
  /** Normalised name, as status.containerStatuses[].image shows it. */
  name: string;
  known: boolean;
  /** Set when the repository is known but the tag is not: pulls fail with "not found". */
  tagMissing: boolean;
  platforms: readonly Platform[];
  sizeBytes: number;
  entrypoint: EntrypointBehaviour;
}

/** Default for unknown images: a Linux multi-arch image of a size derived from the name, serving nothing, running. */
function unknownImage(ref: ImageRef, name: string): ResolvedImage {
  const h = createHash('sha256').update(name).digest();
  const sizeBytes = 5_000_000 + (h.readUInt32BE(0) % 95_000_000);
  return { ref, name, known: false, tagMissing: false, platforms: LINUX_MULTI, sizeBytes, entrypoint: { kind: 'serve', stopMs: 200 } };
}

const matchesTag = (tags: CatalogueEntry['tags'], tag: string): boolean => (Array.isArray(tags) ? tags.includes(tag) : (tags as RegExp).test(tag));

/** Resolves an image string; undefined if the reference itself is invalid (InvalidImageName). */
export function lookupImage(image: string): ResolvedImage | undefined {
  const ref = parseImageRef(image);
  if (!ref) return undefined;
  const name = formatImageRef(ref);
  const sameRepo = CATALOGUE.filter((e) => e.repository === ref.repository);
  if (sameRepo.length === 0) return unknownImage(ref, name);
  // A digest reference names one manifest; treat it as the repository's first entry.
  const entry = ref.tag ? sameRepo.find((e) => matchesTag(e.tags, ref.tag!)) : sameRepo[0];
  if (!entry) return { ...unknownImage(ref, name), known: true, tagMissing: true, platforms: [] };
  return { ref, name, known: true, tagMissing: false, platforms: entry.platforms, sizeBytes: entry.sizeBytes, entrypoint: entry.entrypoint };
}
