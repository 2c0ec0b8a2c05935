// The applet table shared by BusyBox (one binary dispatching on argv[0]) and Debian's separate GNU programs.

import { unavailable, type Ctx } from '../core/ctx.js';
import { BUSYBOX_APPLETS } from '../fs/program-names.js';
import { shellMain } from '../sh/main.js';
import { tarMain } from '../tar/tar-program.js';
import { busyboxHttpd } from '../servers/misc.js';
import * as F from './fileutils.js';
import * as I from './fileinfo.js';
import * as T from './text.js';
import * as S from './sysinfo.js';
import { ls } from './ls.js';
import { sed } from './sed.js';
import { ip, ifconfig, nc, netstat, nslookup, ping } from './net.js';
import { curl, wget } from './http-tools.js';
import { progName, type Applet } from './util.js';

export const APPLETS: Record<string, Applet> = {
  ls, cat: F.cat, cp: F.cp, mv: F.mv, rm: F.rm, mkdir: F.mkdir, rmdir: F.rmdir, touch: F.touch, ln: F.ln, chmod: I.chmod,
  chown: I.chown, readlink: I.readlink, realpath: I.realpath, basename: I.basename, dirname: I.dirname, mktemp: I.mktemp,
  stat: I.stat, df: I.df,
  head: T.head, tail: T.tail, wc: T.wc, grep: T.grep, egrep: T.grep, fgrep: T.grep, sed, sort: T.sort, uniq: T.uniq, tr: T.tr,
  cut: T.cut, tee: T.tee, seq: T.seq, yes: T.yes, rev: T.rev, tac: T.tac, base64: T.base64,
  md5sum: T.checksum('md5'), sha1sum: T.checksum('sha1'), sha256sum: T.checksum('sha256'), sha512sum: T.checksum('sha512'),
  hostname: S.hostname, id: S.id, whoami: S.whoami, groups: S.groupsApplet, uname: S.uname, date: S.date, env: S.env,
  printenv: S.printenv, sleep: S.sleepApplet, usleep: S.usleep, timeout: S.timeout, nohup: S.nohup, xargs: S.xargs,
  which: S.which, ps: S.ps, kill: S.killApplet, uptime: S.uptime, free: S.free, nproc: S.nproc, arch: S.arch,
  true: S.trueApplet, false: S.falseApplet, echo: S.echoApplet, printf: S.printfApplet, test: S.testApplet, '[': S.testApplet,
  '[[': S.testApplet, pwd: S.pwdApplet, tty: S.tty,
  nslookup, ping, ip, ifconfig, nc, netstat, wget, curl,
  tar: (argv, ctx, flavour) => tarMain(argv, ctx, flavour === 'gnu' ? 'gnu' : 'busybox'),
  httpd: (argv, ctx) => busyboxHttpd(argv, ctx),
  dnsdomainname: async (_argv, ctx) => { ctx.stdout.write(`${ctx.env.network.dns.search[0] ?? ''}\n`); return 0; },
  clear: async (_argv, ctx) => { ctx.stdout.write('\x1b[H\x1b[J'); return 0; },
  sync: async () => 0,
};

/** The BusyBox multi-call binary: the applet is argv[0]'s name, or argv[1] after `busybox`. */
export async function busybox(argv: string[], ctx: Ctx): Promise<number> {
  let name = progName(argv);
  let args = argv;
  if (name === 'busybox') {
    if (argv[1] === undefined || argv[1] === '--help') {
      ctx.stdout.write('BusyBox v1.36.1 (2024-06-10 07:11:47 UTC) multi-call binary.\nBusyBox is copyrighted by many authors between 1998-2015.\nLicensed under GPLv2. See source distribution for detailed\ncopyright notices.\n\nUsage: busybox [function [arguments]...]\n   or: busybox --list[-full]\n   or: busybox --show SCRIPT\n   or: busybox --install [-s] [DIR]\n   or: function [arguments]...\n\n\tBusyBox is a multi-call binary that combines many common Unix\n\tutilities into a single executable.  Most people will create a\n\tlink to busybox for each function they wish to use and BusyBox\n\twill act like whatever it was invoked as.\n\nCurrently defined functions:\n');
      ctx.stdout.write(`\t${BUSYBOX_APPLETS.filter((a) => a !== 'busybox').join(', ')}\n`);
      return 0;
    }
    if (argv[1] === '--list') { ctx.stdout.write(BUSYBOX_APPLETS.filter((a) => a !== 'busybox').map((a) => `${a}\n`).join('')); return 0; }
    name = argv[1];
    args = argv.slice(1);
  }
  if (!BUSYBOX_APPLETS.includes(name)) {
    ctx.stderr.write(`${name}: applet not found\n`);
    return 127;
  }
  if (name === 'sh' || name === 'ash') return shellMain(args, ctx, 'ash');
  const applet = APPLETS[name];
  if (!applet) return unavailable(ctx, name);
  return applet(args, ctx, 'busybox');
}

/** A Debian GNU program by name. */
export function gnuProgram(name: string) {
  return async (argv: string[], ctx: Ctx): Promise<number> => {
    const applet = APPLETS[name];
    if (!applet) return unavailable(ctx, name);
    return applet(argv, ctx, 'gnu');
  };
}
