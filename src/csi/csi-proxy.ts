// csi-proxy (kubernetes-csi/csi-proxy): the Windows service through which containerised CSI node plugins do
// privileged storage work on the host. Each API group/version is served on its own named pipe
// `\\.\pipe\csi-proxy-<group>-<version>` (client/utils.go PipePath); which pipes a release serves comes from its
// CHANGELOG (v0.2.0 disk/volume v1beta1, v0.2.1 filesystem/smb v1beta1, v1.0.0 the v1 groups, iSCSI v1alpha2 and
// system v1alpha1, v1.1.0 filesystem/volume v2alpha1).

/** The csi-proxy releases the node profiles know, oldest first. */
export const CSI_PROXY_VERSIONS = ['v0.1.0', 'v0.2.0', 'v0.2.1', 'v0.2.2', 'v1.0.0', 'v1.0.2', 'v1.1.0', 'v1.1.3', 'v1.2.1'] as const;
/** Installed on Windows nodes whose profile says nothing (kubelet v1.18 and later: csi-proxy README "Compatibility"). */
export const DEFAULT_CSI_PROXY_VERSION = 'v1.1.3';
/** The profile value for a node without csi-proxy. */
export const NO_CSI_PROXY = 'none';

export function pipeName(group: string, version: string): string {
  return `\\\\.\\pipe\\csi-proxy-${group}-${version}`;
}

/** Group versions by the release that added them. */
const ADDED: [string, [string, string][]][] = [
  ['v0.1.0', [['disk', 'v1alpha1'], ['filesystem', 'v1alpha1'], ['smb', 'v1alpha1'], ['volume', 'v1alpha1']]],
  ['v0.2.0', [['disk', 'v1beta1'], ['volume', 'v1beta1']]],
  ['v0.2.1', [['filesystem', 'v1beta1'], ['smb', 'v1beta1']]],
  ['v0.2.2', [['disk', 'v1beta2'], ['volume', 'v1beta2'], ['iscsi', 'v1alpha1'], ['system', 'v1alpha1']]],
  ['v1.0.0', [['disk', 'v1beta3'], ['volume', 'v1beta3'], ['filesystem', 'v1beta2'], ['smb', 'v1beta2'], ['iscsi', 'v1alpha2'],
    ['disk', 'v1'], ['volume', 'v1'], ['filesystem', 'v1'], ['smb', 'v1']]],
  ['v1.1.0', [['filesystem', 'v2alpha1'], ['volume', 'v2alpha1']]],
];

function versionKey(v: string): number[] {
  return v.replace(/^v/, '').split(/[.-]/).slice(0, 3).map((x) => Number(x) || 0);
}

function atLeast(v: string, min: string): boolean {
  const a = versionKey(v);
  const b = versionKey(min);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/** The named pipes a csi-proxy release serves. */
export function servedPipes(version: string): string[] {
  return ADDED.filter(([since]) => atLeast(version, since)).flatMap(([, gv]) => gv.map(([g, v]) => pipeName(g, v)));
}

/** The csi-proxy a node runs: the profile's version, none, or the default for kubelets from v1.18. */
export function csiProxyVersion(p: { os: string; kubeletVersion: string; csiProxy?: string }): string | undefined {
  if (p.os !== 'windows' || p.csiProxy === NO_CSI_PROXY) return undefined;
  if (p.csiProxy) return p.csiProxy;
  return atLeast(p.kubeletVersion, 'v1.18.0') ? DEFAULT_CSI_PROXY_VERSION : undefined;
}

/**
 * Why a node plugin cannot start: the first pipe it needs that the host does not serve, as go-winio's DialPipe
 * reports it (an os.PathError over ERROR_FILE_NOT_FOUND). The plugin then never registers with the kubelet.
 */
export function missingPipeError(needed: string[], version: string | undefined): string | undefined {
  const served = new Set(version ? servedPipes(version) : []);
  const missing = needed.find((p) => !served.has(p));
  return missing ? `open ${missing}: The system cannot find the file specified.` : undefined;
}

/** The csiproxy service as csi-proxy's README installs it (`sc.exe create csiproxy … -windows-service`). */
export const CSI_PROXY_SERVICE = {
  name: 'csiproxy',
  displayName: 'csiproxy',
  binaryPath: 'C:\\etc\\kubernetes\\node\\bin\\csi-proxy.exe -windows-service -log_file=C:\\etc\\kubernetes\\logs\\csi-proxy.log -logtostderr=false',
};
