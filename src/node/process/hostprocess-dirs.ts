// The host directories a HostProcess container shares with the node and with every other HostProcess container on it
// (a HostProcess container sees the host's file system): what sig-windows-tools' flannel start.ps1 copies to
// C:\opt\cni\bin and C:\etc, kube-proxy's c:\sourcevip cache, flanneld's C:\run\flannel\subnet.env.

import { Volume, type VirtualFs } from '../shell/index.js';

/** Host directories kept per node (the rest of C: stays the container's own view). */
const SHARED = ['C:\\opt', 'C:\\etc', 'C:\\run', 'C:\\var', 'C:\\sourcevip', 'C:\\k'];

/**
 * The CNI plugins a flannel node already has in C:\opt\cni\bin: its flanneld service and kubelet run (seed 000 Q2's
 * node setup), so the plugins the flannel CNI config names are installed (flannel-io/cni-plugin, host-local from
 * containernetworking/plugins, sdnoverlay from microsoft/windows-container-networking).
 */
const NODE_CNI: Record<string, string | undefined> = { 'flannel.exe': undefined, 'host-local.exe': 'win:host-local', 'win-overlay.exe': undefined, 'win-bridge.exe': undefined, 'sdnoverlay.exe': undefined };

export function mountHostProcessDirs(fs: VirtualFs, host: Map<string, Volume>, now: number, flannel: boolean): void {
  for (const dir of SHARED) {
    const key = `hostprocess:${dir.toLowerCase()}`;
    let vol = host.get(key);
    const fresh = !vol;
    if (!vol) {
      vol = new Volume('windows', now);
      host.set(key, vol);
    }
    fs.mount(dir, vol, { source: 'hostPath' });
    if (fresh && dir === 'C:\\opt' && flannel) {
      fs.mkdir('C:\\opt\\cni\\bin', { parents: true });
      for (const [name, tag] of Object.entries(NODE_CNI)) {
        fs.writeFile(`C:\\opt\\cni\\bin\\${name}`, Buffer.from('MZ emulated\r\n'), { mode: 0o755 }).program = tag ?? `win:absent:${name}`;
      }
    }
  }
}
