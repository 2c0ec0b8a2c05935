// What the runtime makes of a container before and as it starts it: its environment and identity
// (kuberuntime generateContainerConfig, with the runAsNonRoot checks of each OS), and whether Windows can log it on.

import type { Container } from 'kubernetes-types/core/v1.js';
import { imageConfig, lookupImage } from '../images/catalogue.js';
import { effectiveLinuxUser, verifyRunAsNonRoot as verifyLinuxNonRoot } from '../os/linux/identity.js';
import { accountExists, effectiveUserName, isHostProcess, LOGON_FAILURE, verifyRunAsNonRoot as verifyWindowsNonRoot } from '../os/windows/identity.js';
import { containerEnv } from '../process/env-vars.js';
import { containerSpec, type ContainerRuntime, type PodRuntime } from '../runtime-state.js';
import type { StageContext } from './types.js';

/** What generateContainerConfig makes of a container: its environment and identity, or the error that stops it. */
export function containerConfig(ctx: StageContext, rec: PodRuntime, c: ContainerRuntime, spec: Container):
  { env: Record<string, string>; identity: NonNullable<ContainerRuntime['identity']> } | { error: string } {
  const img = lookupImage(c.image);
  const cfg = img ? imageConfig(img) : undefined;
  const windows = ctx.profile.os === 'windows';
  const nonRoot = windows ? verifyWindowsNonRoot(rec.pod, spec, cfg?.windowsUser, ctx.profile) : verifyLinuxNonRoot(rec.pod, spec, cfg?.linuxUid);
  if (nonRoot) return { error: nonRoot };
  const env = containerEnv({
    pod: rec.pod, container: spec, hostIP: ctx.profile.internalIP, podIP: rec.podIP ?? '', allocatable: ctx.allocatable, config: ctx.config,
  });
  if ('error' in env) return env;
  const identity = windows
    ? { windowsUser: effectiveUserName(rec.pod, spec, cfg?.windowsUser, ctx.profile) }
    : { linux: effectiveLinuxUser(rec.pod, spec, cfg?.linuxUid) };
  return { env: env.env, identity };
}

/** HCS logs the container on as its user when the task starts; an account it lacks fails there (windows-facts §7). */
export function windowsStartError(ctx: StageContext, rec: PodRuntime, c: ContainerRuntime): string | undefined {
  if (ctx.profile.os !== 'windows') return undefined;
  const spec = containerSpec(rec.pod, c);
  const user = c.identity?.windowsUser;
  if (!spec || !user || accountExists(user, isHostProcess(rec.pod, spec))) return undefined;
  return `failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem ${c.containerID?.replace(/^\w+:\/\//, '')}: ${LOGON_FAILURE}: unknown`;
}
