// What a node's HNS can do, from its version (microsoft/hcsshim hcn/hcnsupport.go version ranges) and the version each
// Windows build ships. The per-build versions are winkube's model: Microsoft does not publish them, so they are chosen
// so that each build has what the seeds say it has (DSR from WS2019, session affinity from WS2022, IPv6 from 2004).

import type { HnsVersion } from './types.js';

export interface HnsFeatures {
  /** HCN v2 API (HNS 9.2+, Windows Server 2019 / 1809): kube-proxy winkernel and containerd need it. */
  v2: boolean;
  remoteSubnet: boolean;
  hostRoute: boolean;
  /** Direct Server Return: HNS 9.3–9.x and 10.2+. */
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
  [17763, { major: 10, minor: 4 }], // WS2019 / 1809 with its updates: v2, DSR
  [18362, { major: 11, minor: 0 }], // 1903: preserve-destination era
  [19041, { major: 11, minor: 10 }], // 2004 / 20H2: dual stack
  [20348, { major: 13, minor: 2 }], // WS2022: session affinity
  [26100, { major: 15, minor: 4 }], // WS2025: in-place load balancer updates
];

export function hnsVersionOf(windowsBuild: string | undefined): HnsVersion {
  const build = Number((windowsBuild ?? '').split('.')[2] ?? 0);
  let v: HnsVersion = { major: 5, minor: 0 };
  for (const [b, ver] of HNS_BY_BUILD) if (build >= b) v = ver;
  return v;
}

const atLeast = (v: HnsVersion, major: number, minor: number) => v.major > major || (v.major === major && v.minor >= minor);

export function hnsFeatures(v: HnsVersion): HnsFeatures {
  return {
    v2: atLeast(v, 9, 2),
    remoteSubnet: atLeast(v, 9, 2),
    hostRoute: atLeast(v, 9, 2),
    dsr: (v.major === 9 && v.minor >= 3) || atLeast(v, 10, 2),
    sessionAffinity: atLeast(v, 12, 0),
    ipv6DualStack: atLeast(v, 11, 10),
    modifyLoadBalancer: atLeast(v, 15, 4),
  };
}
