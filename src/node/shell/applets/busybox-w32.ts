// busybox-w32, the BusyBox of the Windows e2e busybox image (kubernetes test/images/busybox/Dockerfile_windows):
// busybox.exe in C:\bin with a `<applet>.exe` link per applet, dispatching on the name it was run as.

import { unavailable, type Ctx } from '../core/ctx.js';
import { shellMain } from '../sh/main.js';
import { APPLETS } from './index.js';
import { BUSYBOX_W32_APPLETS } from '../fs/program-names.js';


/** `C:\bin\sh.exe`, `sh.exe` and `sh` all name the applet `sh` (Windows names are case-insensitive). */
function appletName(arg0: string): string {
  return arg0.replace(/^.*[\\/]/, '').replace(/\.exe$/i, '').toLowerCase();
}

export async function busyboxW32(argv: string[], ctx: Ctx): Promise<number> {
  let name = appletName(argv[0] ?? '');
  let args = argv;
  if (name === 'busybox') {
    if (argv[1] === '--list') { ctx.stdout.write(BUSYBOX_W32_APPLETS.map((a) => `${a}\n`).join('')); return 0; }
    if (argv[1] === undefined) { ctx.stdout.write(`Usage: busybox [function [arguments]...]\n\nCurrently defined functions:\n\t${BUSYBOX_W32_APPLETS.join(', ')}\n`); return 0; }
    name = argv[1];
    args = argv.slice(1);
  }
  if (!BUSYBOX_W32_APPLETS.includes(name)) {
    ctx.stderr.write(`${name}: applet not found\n`);
    return 127;
  }
  // busybox-w32's sh and bash are its ash.
  if (name === 'sh' || name === 'ash' || name === 'bash') return shellMain([name, ...args.slice(1)], ctx, 'ash');
  const applet = APPLETS[name];
  if (!applet) return unavailable(ctx, name);
  return applet([name, ...args.slice(1)], ctx, 'busybox');
}
