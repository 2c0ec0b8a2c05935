// Catalogue entries for Windows releases before and between the LTSCs (WS2016, SAC 1709–20H2) and the Docker Hub
// images of the v1.9 era (microsoft/windowsservercore, microsoft/nanoserver, microsoft/iis, kubeletwin/pause).

import type { Platform } from './platform.js';
import type { CatalogueEntry, EntrypointBehaviour, ImageConfig } from './catalogue.js';

const win = (...builds: string[]): Platform[] => builds.map((b) => ({ os: 'windows', architecture: 'amd64', osVersion: b }));

// One late cumulative update per release, as its images were last published.
export const WS2016 = '10.0.14393.7699';
export const SAC1709 = '10.0.16299.1087';
export const SAC1803 = '10.0.17134.1130';
export const SAC1903 = '10.0.18362.1256';
export const SAC1909 = '10.0.18363.1556';
export const SAC2004 = '10.0.19041.1415';
export const SAC20H2 = '10.0.19042.1889';
const WS2019 = '10.0.17763.6893';

/** The behaviours the main catalogue defines, passed in so this module does not import it at load time. */
export interface EraBehaviours {
  base: EntrypointBehaviour;
  nano: EntrypointBehaviour;
  iis: EntrypointBehaviour;
  pause: EntrypointBehaviour;
}

/**
 * The entries. MCR tags per release (servercore `ltsc2016`, `1709` … `20H2`; Nano Server `sac2016` for WS2016) and
 * the Docker Hub repositories seed 004 uses: "Supported Features" (`microsoft/windowsservercore:1709`, `:ltsc2016`),
 * "Scheduling Pods on Windows" (`microsoft/iis:windowsservercore-1709`; untagged `microsoft/iis` "will default to"
 * WS2016). An untagged reference is `:latest`, which on Docker Hub was the WS2016 image (seed 004 "Supported
 * Features": not specifying a tag "can lead to surprising behaviors"; seed 001 Q12).
 */
export function windowsEraEntries(b: EraBehaviours): CatalogueEntry[] {
  return [
    { repository: 'mcr.microsoft.com/windows/servercore', tags: ['ltsc2016'], platforms: win(WS2016), sizeBytes: 5_741_056_000, entrypoint: b.base },
    { repository: 'mcr.microsoft.com/windows/servercore', tags: ['1709'], platforms: win(SAC1709), sizeBytes: 2_869_420_032, entrypoint: b.base },
    { repository: 'mcr.microsoft.com/windows/servercore', tags: ['1803'], platforms: win(SAC1803), sizeBytes: 2_631_680_000, entrypoint: b.base },
    { repository: 'mcr.microsoft.com/windows/servercore', tags: ['1903'], platforms: win(SAC1903), sizeBytes: 2_520_514_560, entrypoint: b.base },
    { repository: 'mcr.microsoft.com/windows/servercore', tags: ['1909'], platforms: win(SAC1909), sizeBytes: 2_541_486_080, entrypoint: b.base },
    { repository: 'mcr.microsoft.com/windows/servercore', tags: ['2004'], platforms: win(SAC2004), sizeBytes: 2_469_396_480, entrypoint: b.base },
    { repository: 'mcr.microsoft.com/windows/servercore', tags: ['20H2'], platforms: win(SAC20H2), sizeBytes: 2_480_930_816, entrypoint: b.base },
    { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['sac2016'], platforms: win(WS2016), sizeBytes: 1_083_179_008, entrypoint: b.nano },
    { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['1709'], platforms: win(SAC1709), sizeBytes: 235_520_000, entrypoint: b.nano },
    { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['1803'], platforms: win(SAC1803), sizeBytes: 205_520_896, entrypoint: b.nano },
    { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['1903'], platforms: win(SAC1903), sizeBytes: 256_901_120, entrypoint: b.nano },
    { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['1909'], platforms: win(SAC1909), sizeBytes: 258_998_272, entrypoint: b.nano },
    { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['2004'], platforms: win(SAC2004), sizeBytes: 259_731_456, entrypoint: b.nano },
    { repository: 'mcr.microsoft.com/windows/nanoserver', tags: ['20H2'], platforms: win(SAC20H2), sizeBytes: 262_144_000, entrypoint: b.nano },
    { repository: 'mcr.microsoft.com/windows/servercore/iis', tags: ['windowsservercore-ltsc2016'], platforms: win(WS2016), sizeBytes: 5_802_000_000, entrypoint: b.iis },
    { repository: 'mcr.microsoft.com/windows/servercore/iis', tags: ['windowsservercore-1903'], platforms: win(SAC1903), sizeBytes: 2_580_000_000, entrypoint: b.iis },
    { repository: 'mcr.microsoft.com/windows/servercore/iis', tags: ['windowsservercore-1909'], platforms: win(SAC1909), sizeBytes: 2_601_000_000, entrypoint: b.iis },
    { repository: 'mcr.microsoft.com/windows/servercore/iis', tags: ['windowsservercore-2004'], platforms: win(SAC2004), sizeBytes: 2_528_000_000, entrypoint: b.iis },
    { repository: 'mcr.microsoft.com/windows/servercore/iis', tags: ['windowsservercore-20H2'], platforms: win(SAC20H2), sizeBytes: 2_540_000_000, entrypoint: b.iis },
    // Docker Hub, v1.9 era (seed 004).
    { repository: 'docker.io/microsoft/windowsservercore', tags: ['latest', 'ltsc2016'], platforms: win(WS2016), sizeBytes: 5_741_056_000, entrypoint: b.base },
    { repository: 'docker.io/microsoft/windowsservercore', tags: ['1709'], platforms: win(SAC1709), sizeBytes: 2_869_420_032, entrypoint: b.base },
    { repository: 'docker.io/microsoft/windowsservercore', tags: ['1803'], platforms: win(SAC1803), sizeBytes: 2_631_680_000, entrypoint: b.base },
    { repository: 'docker.io/microsoft/windowsservercore', tags: ['1809'], platforms: win(WS2019), sizeBytes: 2_497_245_440, entrypoint: b.base },
    { repository: 'docker.io/microsoft/nanoserver', tags: ['latest', 'sac2016'], platforms: win(WS2016), sizeBytes: 1_083_179_008, entrypoint: b.nano },
    { repository: 'docker.io/microsoft/nanoserver', tags: ['1709'], platforms: win(SAC1709), sizeBytes: 235_520_000, entrypoint: b.nano },
    { repository: 'docker.io/microsoft/nanoserver', tags: ['1803'], platforms: win(SAC1803), sizeBytes: 205_520_896, entrypoint: b.nano },
    { repository: 'docker.io/microsoft/nanoserver', tags: ['1809'], platforms: win(WS2019), sizeBytes: 111_912_488, entrypoint: b.nano },
    { repository: 'docker.io/microsoft/iis', tags: ['latest', 'windowsservercore', 'windowsservercore-ltsc2016'], platforms: win(WS2016), sizeBytes: 5_802_000_000, entrypoint: b.iis },
    { repository: 'docker.io/microsoft/iis', tags: ['windowsservercore-1709'], platforms: win(SAC1709), sizeBytes: 2_940_000_000, entrypoint: b.iis },
    { repository: 'docker.io/microsoft/iis', tags: ['windowsservercore-1803'], platforms: win(SAC1803), sizeBytes: 2_700_000_000, entrypoint: b.iis },
    // The pause image seed 004's start-kubelet.ps1 builds on each node from its own base image, so it has the node's
    // build whatever that is: an entry without os.version (any Windows host).
    { repository: 'docker.io/kubeletwin/pause', tags: ['latest'], platforms: [{ os: 'windows', architecture: 'amd64' }], sizeBytes: 1_090_000_000, entrypoint: b.pause },
  ];
}

const SERVICE_MONITOR = ['C:\\ServiceMonitor.exe', 'w3svc'];

/** Image configs of the Docker Hub repositories above (the MCR ones share the main catalogue's). */
export const WINDOWS_ERA_CONFIGS: Record<string, ImageConfig> = {
  'docker.io/microsoft/windowsservercore': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', cmd: ['c:\\windows\\system32\\cmd.exe'] },
  'docker.io/microsoft/nanoserver': { toolset: { windows: 'nanoserver' }, windowsUser: 'ContainerUser', cmd: ['c:\\windows\\system32\\cmd.exe'] },
  'docker.io/microsoft/iis': { toolset: { windows: 'servercore' }, windowsUser: 'ContainerAdministrator', entrypoint: SERVICE_MONITOR },
  'docker.io/kubeletwin/pause': { toolset: { windows: 'none' }, windowsUser: 'ContainerUser', entrypoint: ['/pause'] },
};
