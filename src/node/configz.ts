// The kubelet's /configz answer for an emulated node: its KubeletConfiguration as derived from the profile, which the
// Windows memory_limits e2e test reads to recompute allocatable (test/e2e/windows/memory_limits.go getNodeMemory).
// Command-line-only flags (--windows-priorityclass, --image-pull-progress-deadline, --windows-service) are KubeletFlags,
// not KubeletConfiguration fields (cmd/kubelet/app/options), so /configz never shows them.

import type { NodeProfile } from './profile.js';

function runtimeEndpoint(p: NodeProfile): string {
  if (p.containerRuntime === 'docker') return p.os === 'windows' ? 'npipe:////./pipe/cri-dockerd' : 'unix:///run/cri-dockerd.sock';
  return p.os === 'windows' ? 'npipe:////./pipe/containerd-containerd' : 'unix:///run/containerd/containerd.sock';
}

/** pkg/kubelet/server/server.go serves {"kubeletconfig": <KubeletConfiguration>} at /configz. */
export function kubeletConfigz(p: NodeProfile): object {
  const windows = p.os === 'windows';
  return {
    kubeletconfig: {
      enableServer: true,
      podCIDR: p.podCIDR,
      maxPods: Number(p.capacity.pods ?? 110),
      kubeReserved: p.kubeReserved,
      systemReserved: p.systemReserved,
      evictionHard: p.evictionHard,
      // The seeds' Windows kubelet line passes --enforce-node-allocatable="" (an empty list); the Windows kubelet ignores
      // the field anyway (validation_windows.go), as it does cgroupsPerQOS.
      enforceNodeAllocatable: windows ? [] : ['pods'],
      cgroupDriver: windows ? '' : 'systemd',
      cgroupsPerQOS: !windows,
      containerRuntimeEndpoint: runtimeEndpoint(p),
      // The seeds' Windows kubelet command line: --resolv-conf="" (the pod DNS comes from the cluster), --hairpin-mode.
      resolvConf: windows ? '' : '/run/systemd/resolve/resolv.conf',
      hairpinMode: 'promiscuous-bridge',
      clusterDomain: 'cluster.local',
      clusterDNS: ['10.96.0.10'],
      registerWithTaints: p.taints.length ? p.taints : undefined,
      nodeStatusUpdateFrequency: '10s',
      nodeStatusReportFrequency: '5m0s',
      nodeLeaseDurationSeconds: 40,
      failSwapOn: !windows,
      // --feature-gates as the profile sets them (KubeletConfiguration.featureGates lists only what was set).
      featureGates: { ...p.featureGates },
    },
  };
}
