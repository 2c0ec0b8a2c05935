// Which manifest entry of a multi-platform image a node can run: containerd's platform matcher
// (github.com/containerd/platforms: defaults_windows.go, platform_windows_compat.go).

import type { Isolation, NodeProfile } from '../profile.js';

export interface Platform {
  os: 'linux' | 'windows';
  architecture: 'amd64' | 'arm64';
  /** Windows image entries carry `major.minor.build[.ubr]`; empty means "any". */
  osVersion?: string;
}

/** LTSC releases with the stable container ABI, ascending (platform_windows_compat.go compatLTSCReleases). */
const COMPAT_LTSC = [20348, 26100];
const LTSC2022 = 20348;

function parseVersion(v: string): { major: number; minor: number; build: number } | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
  return m ? { major: Number(m[1]), minor: Number(m[2]), build: Number(m[3]) } : undefined;
}

/**
 * checkWindowsHostAndContainerCompat: major.minor must be equal; hosts before WS2022 need the exact build; newer
 * hosts run images from the newest LTSC strictly older than the host (or 20348) up to the host's own build.
 */
export function windowsBuildsCompatible(hostVersion: string, imageVersion: string): boolean {
  const host = parseVersion(hostVersion);
  const ctr = parseVersion(imageVersion);
  if (!host || !ctr) return false;
  if (host.major !== ctr.major || host.minor !== ctr.minor) return false;
  if (host.build < LTSC2022) return host.build === ctr.build;
  let floor = LTSC2022;
  for (let i = COMPAT_LTSC.length - 1; i >= 0; i--) {
    if (host.build > COMPAT_LTSC[i]) {
      floor = COMPAT_LTSC[i];
      break;
    }
  }
  return ctr.build >= floor && ctr.build <= host.build;
}

/**
 * Whether the host can run the entry. OS and architecture must match; an entry without os.version matches any
 * Windows host. With Hyper-V isolation the utility VM runs the image's own kernel, so any build up to the host's
 * is accepted (Microsoft "Windows container version compatibility", Hyper-V isolation column).
 */
export function platformMatches(host: Pick<NodeProfile, 'os' | 'arch' | 'windowsBuild'>, isolation: Isolation, entry: Platform): boolean {
  if (entry.os !== host.os || entry.architecture !== host.arch) return false;
  if (host.os !== 'windows' || !entry.osVersion) return true;
  const hostVersion = host.windowsBuild ?? '';
  if (isolation === 'hyperv') {
    const h = parseVersion(hostVersion);
    const c = parseVersion(entry.osVersion);
    return !!h && !!c && h.major === c.major && h.minor === c.minor && c.build <= h.build;
  }
  return windowsBuildsCompatible(hostVersion, entry.osVersion);
}

/** The best entry for the host: the matcher's order prefers the highest compatible build (platforms.Less). */
export function selectPlatform(host: Pick<NodeProfile, 'os' | 'arch' | 'windowsBuild'>, isolation: Isolation, entries: readonly Platform[]): Platform | undefined {
  const ok = entries.filter((e) => platformMatches(host, isolation, e));
  ok.sort((a, b) => (parseVersion(b.osVersion ?? '')?.build ?? 0) - (parseVersion(a.osVersion ?? '')?.build ?? 0));
  return ok[0];
}

/**
 * Docker's choice from a manifest list on a Windows host (moby distribution/pull_v2_windows.go filterManifests): the
 * host's OS and architecture; Windows entries built after the host are skipped (checkImageCompatibility, moby#36184);
 * the host's own build first, else the list's order. An older build is pulled, and only fails when it starts.
 */
export function dockerSelectPlatform(host: Pick<NodeProfile, 'os' | 'arch' | 'windowsBuild'>, entries: readonly Platform[]): Platform | undefined {
  const hostBuild = parseVersion(host.windowsBuild ?? '')?.build ?? 0;
  const ok = entries.filter((e) => e.os === host.os && e.architecture === host.arch
    && (host.os !== 'windows' || !e.osVersion || (parseVersion(e.osVersion)?.build ?? 0) <= hostBuild));
  const same = ok.find((e) => e.osVersion && parseVersion(e.osVersion)?.build === hostBuild);
  return same ?? ok[0];
}

/** moby's pull error when nothing in the list fits: formatPlatform adds the host's `major.minor.build` on Windows. */
export function dockerNoMatchText(host: Pick<NodeProfile, 'os' | 'arch' | 'windowsBuild'>): string {
  const v = parseVersion(host.windowsBuild ?? '');
  const platform = `${host.os}/${host.arch}${host.os === 'windows' && v ? ` ${v.major}.${v.minor}.${v.build}` : ''}`;
  return `no matching manifest for ${platform} in the manifest list entries`;
}
