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
