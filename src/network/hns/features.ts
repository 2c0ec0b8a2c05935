// What a node's HNS can do, from its version (microsoft/hcsshim hcn/hcnglobals.go version ranges, checked as
// hcn/hcnsupport.go isFeatureSupported does) and the version each Windows build ships. The per-build versions are
// winkube's model: Microsoft does not publish them, so they are chosen so that each build has what the seeds and the
// servicing notes say it has (v2 API from WS2019, DSR from its August 2020 update, session affinity from WS2022, IPv6
// from 2004).

import type { HnsVersion } from './types.js';

export interface HnsFeatures {
  /** HCN v2 API (HNS 9.2+, Windows Server 2019 / 1809): kube-proxy winkernel and containerd need it. */
  v2: boolean;
  remoteSubnet: boolean;
  hostRoute: boolean;
  /** Direct Server Return: HNS 9.3–9.max and 10.2+ (DSRVersion; 10.0 and 10.1 have none). */
  dsr: boolean;
  /** Session affinity for load balancers: HNS 12.0+. */
  sessionAffinity: boolean;
  /** IPv4/IPv6 dual stack: HNS 11.10+. */
  ipv6DualStack: boolean;
  /** Load balancers updated in place (kube-proxy's ModifyLoadbalancer check): HNS 15.4+. */
  modifyLoadBalancer: boolean;
}

/** HNS version by Windows build number (the third part of 10.0.x). */
const HNS_BY_BUILD: [build: number, version: HnsVersion][] = [
  [14393, { major: 5, minor: 0 }], // WS2016
  [16299, { major: 6, minor: 2 }], // 1709
  [17134, { major: 7, minor: 2 }], // 1803: ACLs (HNSVersion1803)
  [17763, { major: 9, minor: 2 }], // WS2019 / 1809: v2 API, remote subnets; DSR only with DSR_UBR_WS2019 (below)
  [18362, { major: 11, minor: 0 }], // 1903: preserve-destination era
  [19041, { major: 11, minor: 10 }], // 2004 / 20H2: dual stack
  [20348, { major: 13, minor: 2 }], // WS2022: session affinity
  [26100, { major: 15, minor: 4 }], // WS2025: in-place load balancer updates
];

/**
 * The WS2019 patch level that brought DSR: KB4571748, OS build 17763.1432 (August 2020). From it HNS on 1809 is a
 * 9.x at or above 9.3, the range hcsshim's DSRVersion admits since microsoft/hcsshim#848 (taken into kube-proxy by
 * kubernetes/kubernetes#93080; servicing tracked in microsoft/Windows-Containers#19; Calico for Windows' kube-proxy
 * script turns DSR on for 1809 from UBR 1432, projectcalico/node#1015).
 */
export const DSR_UBR_WS2019 = 1432;

/**
 * The HNS version of a build at a patch level (UBR). An unknown UBR is taken as current servicing, as elsewhere in
 * the model (a profile without a patch level is an up-to-date node).
 */
export function hnsVersionOf(windowsBuild: string | undefined, windowsUBR?: number): HnsVersion {
  const build = Number((windowsBuild ?? '').split('.')[2] ?? 0);
  let v: HnsVersion = { major: 5, minor: 0 };
  for (const [b, ver] of HNS_BY_BUILD) if (build >= b) v = ver;
  if (build === 17763 && (windowsUBR ?? Infinity) >= DSR_UBR_WS2019) v = { major: 9, minor: 3 };
  return v;
}

/** hcsshim isFeatureInRange: inclusive on both ends, major first. */
function inRange(v: HnsVersion, min: HnsVersion, max: HnsVersion): boolean {
  if (v.major < min.major || v.major > max.major) return false;
  if (v.major === min.major && v.minor < min.minor) return false;
  if (v.major === max.major && v.minor > max.minor) return false;
  return true;
}

const MAX = 2 ** 31 - 1; // math.MaxInt32
/** hcnglobals.go DSRVersion. */
export const DSR_VERSION_RANGES: readonly [HnsVersion, HnsVersion][] = [
  [{ major: 9, minor: 3 }, { major: 9, minor: MAX }],
  [{ major: 10, minor: 2 }, { major: MAX, minor: MAX }],
];

const atLeast = (v: HnsVersion, major: number, minor: number) => v.major > major || (v.major === major && v.minor >= minor);

export function hnsFeatures(v: HnsVersion): HnsFeatures {
  return {
    v2: atLeast(v, 9, 2),
    remoteSubnet: atLeast(v, 9, 2),
    hostRoute: atLeast(v, 9, 2),
    dsr: DSR_VERSION_RANGES.some(([min, max]) => inRange(v, min, max)),
    sessionAffinity: atLeast(v, 12, 0),
    ipv6DualStack: atLeast(v, 11, 10),
    modifyLoadBalancer: atLeast(v, 15, 4),
  };
}

/** hcn.DSRSupported's error (hcn/hcn.go platformDoesNotSupportError), which winkernel NewProxier returns with --enable-dsr. */
export const DSR_NOT_SUPPORTED = 'platform does not support feature Direct Server Return (DSR)';
