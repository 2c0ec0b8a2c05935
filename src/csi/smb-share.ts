// Which directory of which SMB share a volume names, so the two ways Windows pods reach a share — csi-driver-smb
// (smb.csi.k8s.io) and the FlexVolume driver microsoft.com/smb.cmd — land on the same data. csi-driver-smb's node
// plugin mounts volumeAttributes `source` plus `subDir` (pkg/smb/nodeserver.go NodeStageVolume; attribute keys match
// without case); a handle it made itself reads `<server>/<share>#<subDir>#…` (pkg/smb/controllerserver.go
// getSmbVolFromID). FlexVolume mounts options.source (microsoft/K8s-Storage-Plugins flexvolume/windows smb.ps1).

/** The store key of a share path: server and share names match without case (SMB), the path below as given. */
export function smbShareKey(share: string, subDir = ''): string {
  const parts = share.replace(/^smb:/i, '').split(/[\\/]+/).filter((x) => x);
  const [server = '', name = '', ...rest] = parts;
  const below = [...rest, ...subDir.split(/[\\/]+/)].filter((x) => x);
  return `smb:${[server.toLowerCase(), name.toLowerCase(), ...below].join('/')}`;
}

/** The share directory of an smb.csi.k8s.io volume, or undefined when neither its attributes nor handle name one. */
export function smbCsiKey(handle: string, attributes: Record<string, string> | undefined): string | undefined {
  const attr = (k: string) => Object.entries(attributes ?? {}).find(([key]) => key.toLowerCase() === k)?.[1];
  const fromHandle = handle.includes('#') ? handle.split('#') : undefined;
  const source = attr('source');
  if (source) return smbShareKey(source, attr('subdir') ?? fromHandle?.[1] ?? '');
  if (fromHandle && fromHandle[0]) return smbShareKey(fromHandle[0], fromHandle[1] ?? '');
  return undefined;
}
