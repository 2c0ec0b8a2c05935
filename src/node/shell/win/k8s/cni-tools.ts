// host-local.exe (containernetworking/plugins plugins/ipam/host-local) and route.exe as a HostProcess container runs
// them against the host: IPAM on the node's pod subnet, and `route /p add` on the host's routing table.

import type { Ctx } from '../../core/ctx.js';

const envVar = (ctx: Ctx, name: string) => Object.entries(ctx.vars).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? '';

/** A CNI error result on stdout, exit 1 (pkg/skel PrintErrorResult). */
function cniError(ctx: Ctx, code: number, msg: string): number {
  ctx.stdout.write(`{\n    "code": ${code},\n    "msg": ${JSON.stringify(msg)}\n}`);
  return 1;
}

/**
 * host-local ADD: the address comes from the node's own allocator, so it is never also a pod's. The owner is the CNI
 * container ID and interface; sig-windows-tools' source-VIP request ("dummy") is the reservation the node's kube-proxy
 * service already made (src/node/node-net.ts proxyConfig), so both kube-proxies name the same source VIP.
 */
export async function hostLocalExe(_argv: string[], ctx: Ctx): Promise<number> {
  const cmd = envVar(ctx, 'CNI_COMMAND');
  if (!cmd) return cniError(ctx, 4, 'required env variables [CNI_COMMAND] missing');
  if (cmd === 'VERSION') {
    ctx.stdout.write('{"cniVersion":"1.0.0","supportedVersions":["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0"]}');
    return 0;
  }
  const text = (await ctx.stdin.readAll()).toString().replace(/^\uFEFF/, '').replace(/\0/g, '');
  let conf: { cniVersion?: string };
  try { conf = JSON.parse(text) as { cniVersion?: string }; } catch (e) {
    return cniError(ctx, 6, `failed to load netconf: ${(e as Error).message}`);
  }
  const host = ctx.env.hostNetwork;
  if (!host) return cniError(ctx, 11, 'host-local: no access to the host network');
  if (cmd !== 'ADD') return 0;
  const id = envVar(ctx, 'CNI_CONTAINERID');
  const owner = id === 'dummy' ? 'source-vip' : `cni:${id}/${envVar(ctx, 'CNI_IFNAME')}`;
  const r = host.ipamAdd(owner);
  if ('error' in r) return cniError(ctx, 11, r.error);
  ctx.stdout.write(JSON.stringify({ cniVersion: conf.cniVersion ?? '0.3.0', ips: [{ version: '4', address: `${r.ip}/${r.prefixLength}`, gateway: r.gateway }], dns: {} }, null, 4));
  return 0;
}

/** route.exe ADD/PRINT (the host's table is the model's; an added route is acknowledged as Windows does). */
export async function routeExe(argv: string[], ctx: Ctx): Promise<number> {
  const args = argv.slice(1).filter((a) => !/^[-/][pf4]$/i.test(a));
  const verb = (args[0] ?? '').toUpperCase();
  if (verb === 'ADD' || verb === 'DELETE' || verb === 'CHANGE') {
    ctx.stdout.write(' OK!\r\n');
    return 0;
  }
  ctx.stdout.write('\r\nManipulates network routing tables.\r\n\r\nROUTE [-f] [-p] [-4|-6] command [destination]\r\n                  [MASK netmask]  [gateway] [METRIC metric]  [IF interface]\r\n');
  return 1;
}
