// Mount paths as each OS names them. Windows accepts `C:\\etc\\foo`, `C:/etc/foo` and a drive-less `/cache`
// (= `C:\cache`) for the same place (seed 004 "Volumes"; pkg/kubelet/kubelet_pods.go makeMounts on Windows).

/** The container path a mountPath names: on Windows `C:\…` with backslashes, on Linux as written. */
export function containerMountPath(os: 'linux' | 'windows', mountPath: string): string {
  if (os === 'linux') return mountPath;
  let p = mountPath.replace(/\//g, '\\');
  if (/^[A-Za-z]:/.test(p)) p = p[0].toUpperCase() + p.slice(1);
  else p = `C:${p.startsWith('\\') ? '' : '\\'}${p}`;
  return p.length > 3 ? p.replace(/\\+$/, '') : p;
}

/** The CRI's mount propagation modes (cri-api MountPropagation). */
export type CriMountPropagation = 'PROPAGATION_PRIVATE' | 'PROPAGATION_HOST_TO_CONTAINER' | 'PROPAGATION_BIDIRECTIONAL';

/**
 * What the kubelet asks the runtime for (pkg/kubelet/kubelet_pods.go translateMountPropagation): on Windows every
 * mount is private whatever mountPropagation says — Windows containers do not support propagation, and the field is
 * ignored rather than rejected (seed 001/002 "mountPropagation … not supported on Windows").
 */
export function criMountPropagation(os: 'linux' | 'windows', mode: string | undefined): CriMountPropagation | { error: string } {
  if (os === 'windows') return 'PROPAGATION_PRIVATE';
  switch (mode) {
    case undefined: case 'None': return 'PROPAGATION_PRIVATE';
    case 'HostToContainer': return 'PROPAGATION_HOST_TO_CONTAINER';
    case 'Bidirectional': return 'PROPAGATION_BIDIRECTIONAL';
    default: return { error: `invalid MountPropagation mode: ${JSON.stringify(mode)}` };
  }
}
