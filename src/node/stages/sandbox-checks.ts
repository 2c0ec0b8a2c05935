// What stops a pod's sandbox from being made, checked before it is: volumes the volume manager cannot set up, and a
// pause image without the node's Windows build (kubelet.go SyncPod: WaitForAttachAndMount, then createPodSandbox).

import { lookupImage } from '../images/catalogue.js';
import { selectPlatform } from '../images/platform.js';
import { DEFAULT_SANDBOX_IMAGE } from '../profile.js';
import { containerdMismatch, dockerSandboxMismatch } from '../os/windows/os-mismatch.js';
import type { PodRuntime } from '../runtime-state.js';
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

/** The SetUp errors of the pod's volumes, checked against the ConfigMaps and Secrets the node can read now. */
export function unmountableVolumes(ctx: StageContext, rec: PodRuntime): string[] {
  const out: string[] = [];
  for (const v of rec.pod.spec?.volumes ?? []) {
    const r = volumeContent(v, { pod: rec.pod, os: ctx.profile.os, hostIP: ctx.profile.internalIP, podIP: '', allocatable: ctx.allocatable, config: ctx.config });
    if ('error' in r) out.push(r.error);
  }
  return out;
}
