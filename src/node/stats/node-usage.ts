// What the node itself uses besides its pods (OS, kubelet, runtime), derived from the profile: Windows Server needs
// far more memory than a Linux host, which is why the Windows docs ask for 2Gi of system-reserved memory.

import type { NodeProfile } from '../profile.js';
import { bytesOf, milliOf, nodeCores } from './container-usage.js';
import type { DeclaredUsage } from './declared.js';

const MI = 1024 * 1024;
const GI = 1024 * MI;

/** Floors when the profile reserves nothing (kind and kubeadm nodes reserve nothing by default). */
const FLOOR = {
  linux: { cpuNanoCores: 40e6, memoryBytes: 450 * MI },
  windows: { cpuNanoCores: 100e6, memoryBytes: 1.5 * GI },
};

/** The OS's share of the node: a quarter of the reserved CPU and 80% of system-reserved memory, above a floor. */
export function systemOverhead(p: NodeProfile): DeclaredUsage {
  const reservedCpuMilli = (milliOf(p.systemReserved.cpu) ?? 0) + (milliOf(p.kubeReserved.cpu) ?? 0);
  const floor = FLOOR[p.os];
  const capacity = bytesOf(p.capacity.memory) ?? 0;
  const memory = Math.max(floor.memoryBytes, 0.8 * (bytesOf(p.systemReserved.memory) ?? 0));
  return {
    cpuNanoCores: Math.min(nodeCores(p) * 1e9, Math.max(floor.cpuNanoCores, reservedCpuMilli * 0.25 * 1e6)),
    memoryBytes: Math.round(capacity ? Math.min(memory, capacity * 0.6) : memory),
  };
}

/** Memory of one pod's sandbox: Linux's pause is inside the pod cgroup; a Windows sandbox is its own container. */
export function sandboxMemory(p: NodeProfile): number {
  return p.os === 'windows' ? 8 * MI : 256 * 1024;
}

/** Disk the OS and the runtime's state take before any image: a Windows Server install is much larger. */
export function baseDiskUsage(p: NodeProfile): number {
  return p.os === 'windows' ? 18 * GI : 4.5 * GI;
}

/** The node's disk: capacity from ephemeral-storage, used by the OS, images and pods' writable layers and logs. */
export function nodeDisk(p: NodeProfile, imageBytes: number, podBytes: number): { capacity: number; used: number; available: number } {
  const capacity = bytesOf(p.capacity['ephemeral-storage']) ?? 100 * GI;
  const used = Math.min(capacity, baseDiskUsage(p) + imageBytes + podBytes);
  return { capacity, used, available: capacity - used };
}

/** ext4's default of one inode per 16 KiB, and a file per 40 KiB of image content. */
export const BYTES_PER_INODE = 16 * 1024;
export const BYTES_PER_IMAGE_FILE = 40 * 1024;
