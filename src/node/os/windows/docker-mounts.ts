// Docker on Windows maps only directories into a container: "Single file mapping: to be implemented with
// CRI-ContainerD" (seed 001 "Feature Restrictions"; 002 "Persistent storage"). The Docker daemon rejects a bind whose
// source is a file (moby volume/mounts/windows_parser.go validateMountConfigReg: "source path must be a directory",
// wrapped as `invalid volume specification: '<bind>': invalid mount config for type "bind": …`); containerd accepts it.

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import type { NodeProfile } from '../../profile.js';
import { containerMountPath } from '../../volumes/mount-paths.js';

/** The bind's host side, as the kubelet lays out a subPath of a volume (pods/<uid>/volume-subpaths/<vol>/<ctr>/<i>). */
function subPathSource(podUid: string, volume: string, container: string, index: number): string {
  return `c:\\var\\lib\\kubelet\\pods\\${podUid}\\volume-subpaths\\${volume}\\${container}\\${index}`;
}

/** Whether the mount maps a single file: a subPath naming a key of a ConfigMap/Secret/projected/downwardAPI volume, or a hostPath of type File. */
function mapsFile(pod: Pod, m: NonNullable<Container['volumeMounts']>[number]): boolean {
  const v = pod.spec?.volumes?.find((x) => x.name === m.name);
  if (!v) return false;
  if (v.hostPath) return v.hostPath.type === 'File' || v.hostPath.type === 'FileOrCreate';
  if (!m.subPath) return false;
  const sub = m.subPath.replace(/[\\/]+$/, '');
  if (v.configMap) return v.configMap.items ? v.configMap.items.some((i) => i.path === sub) : !sub.includes('/');
  if (v.secret) return v.secret.items ? v.secret.items.some((i) => i.path === sub) : !sub.includes('/');
  if (v.downwardAPI) return (v.downwardAPI.items ?? []).some((i) => i.path === sub);
  if (v.projected) return !sub.includes('/');
  return false;
}

/** The Docker daemon's CreateContainer error for a file mount, or undefined (containerd, Linux, directory mounts). */
export function dockerSingleFileMountError(profile: Pick<NodeProfile, 'os' | 'containerRuntime'>, pod: Pod, c: Container): string | undefined {
  if (profile.os !== 'windows' || profile.containerRuntime !== 'docker') return undefined;
  const mounts = c.volumeMounts ?? [];
  for (let i = 0; i < mounts.length; i++) {
    const m = mounts[i];
    if (!mapsFile(pod, m)) continue;
    const v = pod.spec?.volumes?.find((x) => x.name === m.name);
    const source = v?.hostPath ? v.hostPath.path : subPathSource(pod.metadata?.uid ?? '', m.name, c.name, i);
    const bind = `${source}:${containerMountPath('windows', m.mountPath)}${m.readOnly || !v?.hostPath ? ':ro' : ''}`;
    return `Error response from daemon: invalid volume specification: '${bind}': invalid mount config for type "bind": source path must be a directory`;
  }
  return undefined;
}
