// What a Windows runtime says when HCS refuses an image built for another Windows version (0xc0370101), per runtime
// and era (windows-facts §3.5; seed 004 "Known Limitations": with Docker the pod "will get stuck in a crash loop").

import type { NodeProfile } from '../../profile.js';

/** The HCS text since Docker EE 18.09 / hcsshim's CreateComputeSystem errors (community#3091, sig-windows-tools#72). */
export const OS_MISMATCH = 'The container operating system does not match the host operating system.';
/** The older Windows wording, with its HRESULT (Docker 17.x, MicrosoftDocs/Virtualization-Documentation#765, acs-engine#2965). */
export const OS_MISMATCH_LEGACY = 'The operating system of the container does not match the operating system of the host. (0xc0370101)';

/** containerd: CreateContainer's shim task fails (the container waits in CreateContainerError). */
export function containerdMismatch(name: string): string {
  return `failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem ${name}: ${OS_MISMATCH}: unknown`;
}

/** Docker before 18.09 spoke through the Windows system call, not hcsshim. */
function legacyDocker(p: Pick<NodeProfile, 'containerRuntimeVersion'>): boolean {
  const m = /^docker:\/\/(\d+)\.(\d+)/.exec(p.containerRuntimeVersion);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return major < 18 || (major === 18 && minor < 9);
}

/** The daemon's error for a compute system HCS would not create; `extra info` is the HCS configuration it sent. */
function daemonError(p: Pick<NodeProfile, 'containerRuntimeVersion'>, id: string): string {
  const extra = `{"SystemType":"Container","Name":"${id}","Owner":"docker","IgnoreFlushesDuringBoot":true,"LayerFolderPath":"C:\\\\ProgramData\\\\docker\\\\windowsfilter\\\\${id}"}`;
  if (legacyDocker(p)) return `Error response from daemon: container ${id} encountered an error during CreateContainer: failure in a Windows system call: ${OS_MISMATCH_LEGACY} extra info: ${extra}`;
  return `Error response from daemon: hcsshim::CreateComputeSystem ${id}: ${OS_MISMATCH}\n(extra info: ${extra})`;
}

/**
 * Docker: `docker create` succeeds and `docker start` fails, so dockershim's StartContainer returns the error
 * (dockershim docker_container.go "failed to start container %q: %v") and the container is left exited with 128
 * (moby daemon/start.go) — the kubelet restarts it with back-off: the seed's crash loop.
 */
export function dockerStartMismatch(p: Pick<NodeProfile, 'containerRuntimeVersion'>, id: string): string {
  return `failed to start container "${id}": ${daemonError(p, id)}`;
}

/** Docker: the pause container does not start (dockershim docker_sandbox.go "failed to start sandbox container for pod %q: %v"). */
export function dockerSandboxMismatch(p: Pick<NodeProfile, 'containerRuntimeVersion'>, podName: string, id: string): string {
  return `failed to start sandbox container for pod "${podName}": ${daemonError(p, id)}`;
}
