// The plugins a node's CNI bin directory holds, and how the runtime runs one (libcni: find the binary, skel's
// checks, then the plugin), so meta-plugins delegate through the same path.

import { CniError, CniRegistry, type CniContext, type CniResult, type NetConfJson } from './interfaces.js';
import { skelCheck, field } from './netconf.js';
import { createBridge, LINUX_CNI_BIN, NAME as BRIDGE } from './plugins/bridge.js';
import { createFlannel, NAME as FLANNEL } from './plugins/flannel.js';
import { createAzureVnet, createOvnCni, createOvnOverlay, createWincni } from './plugins/hns-simple.js';
import { createCalico } from './plugins/calico.js';
import { createPortmap, NAME as PORTMAP } from './plugins/portmap.js';
import { createWinBridge, NAME as WIN_BRIDGE, WINDOWS_CNI_BIN } from './plugins/win-bridge.js';
import { createWinOverlay, NAME as WIN_OVERLAY } from './plugins/win-overlay.js';

/** Every plugin winkube models, registered once each. */
export function defaultRegistry(): CniRegistry {
  return new CniRegistry()
    .register(WIN_BRIDGE, createWinBridge)
    .register(WIN_OVERLAY, createWinOverlay)
    .register(FLANNEL, createFlannel)
    .register(BRIDGE, createBridge)
    .register(PORTMAP, createPortmap)
    .register('azure-vnet', createAzureVnet)
    .register('calico', createCalico)
    .register('ovn-k8s-cni-overlay', createOvnOverlay)
    .register('ovn_cni', createOvnCni)
    .register('wincni', createWincni);
}

export const binDir = (os: 'linux' | 'windows') => (os === 'windows' ? WINDOWS_CNI_BIN : LINUX_CNI_BIN);

/** `type` as FindInPath resolves it: Windows configs may name `wincni.exe`. */
export function binaryName(os: 'linux' | 'windows', type: string): string {
  return os === 'windows' ? type.replace(/\.exe$/i, '') : type;
}

/** Runs one plugin for one command; `failed to find plugin` when the node has no such binary (invoke.FindInPath). */
export function invokePlugin(registry: CniRegistry, ctx: Omit<CniContext, 'delegate'>, conf: NetConfJson, cmd: 'add' | 'del'): CniResult | CniError | undefined {
  const type = String(field(conf, 'type') ?? '');
  const plugin = registry.get(binaryName(ctx.os, type));
  if (!plugin || !plugin.os.includes(ctx.os)) return new CniError(`failed to find plugin "${type}" in path [${binDir(ctx.os)}]`);
  const bad = skelCheck(plugin, ctx.era, conf);
  if (bad) return bad;
  const full: CniContext = { ...ctx, delegate: (c, command) => invokePlugin(registry, ctx, c, command) };
  return cmd === 'add' ? plugin.add(full, conf) : plugin.del(full, conf);
}
