// Whether a Windows pod's sandbox joins the node's network: what the kubelet asks for (WindowsHostNetwork, seed 003
// "Field compatibility for hostNetwork") and what each runtime does with it (containerd only for HostProcess pods).

import type { Pod } from 'kubernetes-types/core/v1.js';
import { featureEnabled } from '../../feature-gates.js';
import type { NodeProfile } from '../../profile.js';
import { isHostProcess } from './identity.js';

/** CRI NamespaceMode of the sandbox's network (runtime/v1 api.proto): the pod's own, or the node's. */
export type NamespaceMode = 'POD' | 'NODE';

/** A pod whose containers are all HostProcess (the API server refuses a mix, windows-facts §1.5). */
export function hostProcessPod(pod: Pod): boolean {
  const cs = pod.spec?.containers ?? [];
  return cs.length > 0 && cs.every((c) => isHostProcess(pod, c));
}

/**
 * The WindowsSandboxSecurityContext the kubelet sends (kuberuntime_sandbox.go generatePodSandboxWindowsConfig): with
 * WindowsHostNetwork on, NamespaceOptions.Network is NODE for hostNetwork pods and POD for the others; with it off
 * (or a kubelet before 1.26) no NamespaceOptions at all (TestGeneratePodSandboxWindowsConfig_HostNetwork).
 */
export function windowsNamespaceRequest(p: Pick<NodeProfile, 'kubeletVersion' | 'featureGates'>, pod: Pod): NamespaceMode | undefined {
  if (!featureEnabled(p, 'WindowsHostNetwork')) return undefined;
  return pod.spec?.hostNetwork ? 'NODE' : 'POD';
}

/**
 * Whether the runtime puts the sandbox in the node's network, so it gets no CNI address and reports none (the kubelet
 * then shows the node's IP as the pod IP, kubelet_pods.go generateAPIPodStatus "HostNetwork Pods inherit the node IPs").
 * - Linux: NamespaceOptions NODE, i.e. spec.hostNetwork.
 * - Windows + containerd: only a HostProcess sandbox; containerd never reads the Windows NamespaceOptions
 *   (containerd internal/cri/server/helpers.go hostNetwork: "Windows HostProcess pods can only run on the host network",
 *   up to v2.2), so a hostNetwork pod that is not HostProcess gets a pod network whatever the gate says (KEP-3503
 *   "Today it is possible to set hostNetwork=true for Windows pods but it doesn't change anything").
 * - Windows + Docker (dockershim, cri-dockerd): the Linux NamespaceOptions the kubelet also generates on Windows decide
 *   (cri-dockerd core/sandbox_run.go "Do not invoke network plugins if in hostNetwork mode"; getIPs reports no IP).
 */
export function sandboxJoinsHostNetwork(p: Pick<NodeProfile, 'os' | 'containerRuntime'>, pod: Pod): boolean {
  if (p.os !== 'windows' || p.containerRuntime === 'docker') return !!pod.spec?.hostNetwork;
  return !!pod.spec?.hostNetwork && hostProcessPod(pod);
}
