// The HCS compute systems of a Windows node, as `Get-ComputeProcess` (HostComputeService module) lists them in a
// HostProcess container: one per process-isolated container, and one utility VM per Hyper-V isolated pod, owned by
// the runtime's shim (test/e2e/windows/hyperv.go counts the `VirtualMachine` ones owned by containerd-shim-runhcs-v1.exe).

import { createHash } from 'node:crypto';
import type { ComputeSystem } from '../../shell/interfaces.js';
import type { NodeProfile } from '../../profile.js';
import type { PodRuntime } from '../../runtime-state.js';

/** A GUID for a pod's utility VM, stable for the pod's sandbox. */
function uvmId(sandboxID: string): string {
  const h = createHash('sha1').update(`uvm/${sandboxID}`).digest('hex').toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function computeSystems(pods: Iterable<PodRuntime>, profile: Pick<NodeProfile, 'containerRuntime'>): ComputeSystem[] {
  const owner = profile.containerRuntime === 'docker' ? 'docker' : 'containerd-shim-runhcs-v1.exe';
  const out: ComputeSystem[] = [];
  for (const rec of pods) {
    if (rec.state !== 'active' || !rec.sandboxID) continue;
    // HostProcess containers are job objects on the host, not compute systems.
    if (rec.pod.spec?.securityContext?.windowsOptions?.hostProcess) continue;
    if (rec.isolation === 'hyperv') out.push({ id: uvmId(rec.sandboxID), type: 'VirtualMachine', owner });
    for (const c of rec.containers) {
      if (c.state === 'running' && c.containerID) out.push({ id: c.containerID.replace(/^\w+:\/\//, ''), type: 'Container', owner });
    }
  }
  return out;
}
