// What stops a pod's sandbox from being made, checked before it is: volumes the volume manager cannot set up, and a
// pause image without the node's Windows build (kubelet.go SyncPod: WaitForAttachAndMount, then createPodSandbox).

import { lookupImage } from '../images/catalogue.js';
import { selectPlatform } from '../images/platform.js';
import { DEFAULT_SANDBOX_IMAGE } from '../profile.js';
import { containerdMismatch, dockerSandboxMismatch } from '../os/windows/os-mismatch.js';
import type { PodRuntime } from '../runtime-state.js';
import { populatorErrorMessage, type VolumeWaitState } from '../volumes/attach-mount-wait.js';
import { volumeContent } from '../volumes/volume-content.js';
import type { StageContext } from './types.js';

/** Why the node's pause image cannot run this sandbox: on Windows it must match the host build (process isolation). */
export function sandboxImageError(ctx: StageContext, rec: PodRuntime, sandboxID: string): string | undefined {
  const image = ctx.profile.sandboxImage ?? DEFAULT_SANDBOX_IMAGE;
  const img = lookupImage(image);
  if (img && (ctx.profile.os !== 'windows' || selectPlatform(ctx.profile, rec.isolation ?? ctx.profile.isolation, img.platforms))) {
    ctx.images.add(img.name);
    return undefined;
  }
  if (ctx.profile.os !== 'windows') return undefined;
  if (ctx.profile.containerRuntime === 'docker') return dockerSandboxMismatch(ctx.profile, rec.pod.metadata?.name ?? '', sandboxID);
  return containerdMismatch(sandboxID);
}

/** What keeps the pod's volumes from being set up: events to record (reason, message), or a wait without one. */
export interface VolumeProblems {
  events: { reason: 'FailedMount' | 'FailedMapVolume'; message: string }[];
  pending: boolean;
  /** What WaitForAttachAndMount would list if it gave up now (src/node/volumes/attach-mount-wait.ts). */
  wait: VolumeWaitState;
}

/** getExpectedVolumes (util.GetPodVolumeNames): the volumes the pod's containers mount or map. */
function expectedVolumes(rec: PodRuntime): Set<string> {
  const cs = [...(rec.pod.spec?.initContainers ?? []), ...(rec.pod.spec?.containers ?? [])];
  return new Set(cs.flatMap((c) => [...(c.volumeMounts ?? []), ...(c.volumeDevices ?? [])].map((m) => m.name)));
}

/** The SetUp errors of the pod's volumes, checked against what the node can read now (ConfigMaps, Secrets, PVs, attachments). */
export function unmountableVolumes(ctx: StageContext, rec: PodRuntime): VolumeProblems {
  const out: VolumeProblems = { events: [], pending: false, wait: { unmounted: [], unattached: [], unprocessed: [] } };
  const expected = expectedVolumes(rec);
  for (const v of rec.pod.spec?.volumes ?? []) {
    const r = volumeContent(v, { pod: rec.pod, os: ctx.profile.os, hostIP: ctx.profile.internalIP, podIP: '', allocatable: ctx.allocatable, config: ctx.config, node: ctx.profile });
    if ('content' in r) continue;
    if (expected.has(v.name)) out.wait.unmounted.push(v.name);
    if ('error' in r) out.events.push({ reason: 'FailedMount', message: r.error });
    else if ('unprocessed' in r) out.wait.unprocessed.push({ name: v.name, error: r.unprocessed });
    else {
      out.pending = true;
      if (r.unattached) out.wait.unattached.push(v.name);
    }
  }
  // The populator's errors end the kubelet's wait at once: one event, on every sync (kubelet.go SyncPod).
  const populator = populatorErrorMessage(ctx.profile.kubeletVersion, out.wait);
  if (populator) out.events.push({ reason: 'FailedMount', message: populator });
  if (!out.events.length && !out.pending) out.events.push(...windowsBlockDeviceErrors(ctx, rec));
  return out;
}

/**
 * volumeDevices on Windows: the volume is staged, but the kubelet cannot hold the block device open — the non-Linux
 * volume path handler has no loop devices (pkg/volume/util/volumepathhandler/volume_path_handler_unsupported.go
 * AttachFileDevice, called by operation_generator.go GenerateMapVolumeFunc). Seeds 001 (l.333), 002 (l.284), 003:
 * "Windows cannot attach raw block devices to pods".
 */
export function windowsBlockDeviceErrors(ctx: StageContext, rec: PodRuntime): VolumeProblems['events'] {
  if (ctx.profile.os !== 'windows') return [];
  const names = new Set([...(rec.pod.spec?.containers ?? []), ...(rec.pod.spec?.initContainers ?? [])].flatMap((c) => (c.volumeDevices ?? []).map((d) => d.name)));
  const out: VolumeProblems['events'] = [];
  for (const v of rec.pod.spec?.volumes ?? []) {
    if (!names.has(v.name)) continue;
    const claim = v.persistentVolumeClaim ? ctx.config.persistentVolumeClaim?.(rec.pod.metadata?.namespace ?? 'default', v.persistentVolumeClaim.claimName) : undefined;
    const volName = claim?.volumeName ?? v.name;
    out.push({ reason: 'FailedMapVolume', message: `MapVolume.AttachFileDevice failed for volume ${JSON.stringify(volName)} : AttachFileDevice not supported for this build` });
  }
  return out;
}
