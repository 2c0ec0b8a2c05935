// FlexVolume on the emulated kubelet (pkg/volume/flexvolume): a driver `vendor/name` is an executable in the
// kubelet's plugin directory (`<vendor>~<name>/<name>`), on Windows C:\usr\libexec\kubernetes\kubelet-plugins\volume\exec\
// where microsoft/K8s-Storage-Plugins installs microsoft.com~smb.cmd and microsoft.com~iscsi.cmd (seed 001 "FlexVolume
// Plugins"). A driver the node lacks matches no volume plugin; a secretRef it cannot read fails SetUp.

import type { FlexVolumeSource } from 'kubernetes-types/core/v1.js';
import { smbShareKey } from '../../csi/smb-share.js';

export const LINUX_FLEX_DIR = '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/';
export const WINDOWS_FLEX_DIR = 'C:\\usr\\libexec\\kubernetes\\kubelet-plugins\\volume\\exec\\';

/** The drivers microsoft/K8s-Storage-Plugins ships for Windows (flexvolume/windows/plugins). */
export const MICROSOFT_FLEX_DRIVERS = ['microsoft.com/smb.cmd', 'microsoft.com/iscsi.cmd'];

/** Where a driver's executable lives on the node (flexvolume plugin dir `vendor~driver/driver`). */
export function flexDriverPath(os: 'linux' | 'windows', driver: string): string {
  const [vendor, name] = driver.includes('/') ? driver.split('/', 2) : ['', driver];
  const dir = vendor ? `${vendor}~${name}` : name;
  return os === 'windows' ? `${WINDOWS_FLEX_DIR}${dir}\\${name}` : `${LINUX_FLEX_DIR}${dir}/${name}`;
}

/** desired_state_of_world_populator: a spec no plugin claims (FindPluginBySpec's `no volume plugin matched`). */
export function noPluginMatched(volumeName: string): string {
  return `failed to get Plugin from volumeSpec for volume ${JSON.stringify(volumeName)} err=no volume plugin matched`;
}

export type FlexOutcome = { key: string } | { error: string } | { setUpError: string };

/**
 * Whether the node mounts a flexVolume and which backend data it names: the SMB share (`options.source`, in the
 * `\\server\share`, `smb://` or `//` forms the sample accepts) or the iSCSI target (portal, IQN, LUN).
 */
export function flexVolume(src: FlexVolumeSource, volumeName: string, ns: string, drivers: string[] | undefined,
  secret: (ns: string, name: string) => Record<string, string> | undefined): FlexOutcome {
  if (!(drivers ?? []).includes(src.driver)) return { error: noPluginMatched(volumeName) };
  const ref = src.secretRef?.name;
  // flexvolume/util.go addSecretsToOptions: the secret is read before the driver is called.
  if (ref && !secret(ns, ref)) return { setUpError: `Couldn't get secret ${ns}/${ref} err: secrets "${ref}" not found` };
  const o = src.options ?? {};
  // An SMB share is the same data whichever plugin mounts it (src/csi/smb-share.ts).
  if (!src.driver.endsWith('iscsi.cmd')) return { key: smbShareKey(o.source ?? '') };
  return { key: `flex:iscsi:${o.targetPortal ?? ''}/${o.iqn ?? ''}/${o.lun ?? '0'}` };
}
