// The Kubernetes version winkube reports (/version, node kubeletVersion): one place, so every component agrees.

import { KUBERNETES_VERSION } from '../api/version.js';

const [major, minor] = KUBERNETES_VERSION.slice(1).split('.');
export const KUBE_VERSION = { major, minor, gitVersion: KUBERNETES_VERSION } as const;

export function versionInfo(): object {
  return {
    major: KUBE_VERSION.major,
    minor: KUBE_VERSION.minor,
    gitVersion: KUBE_VERSION.gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'winkube',
    compiler: 'winkube',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
