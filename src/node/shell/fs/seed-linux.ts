// The root filesystem of Linux images by toolset: BusyBox (every applet a link in /bin), Alpine (BusyBox plus apk,
// links spread over /bin, /sbin, /usr/bin), Debian (merged /usr, bash, dash as /bin/sh, GNU coreutils), distroless.

import type { ContainerEnv } from '../interfaces.js';
import { VirtualFs } from './vfs.js';
import { BUSYBOX_APPLETS, GNU_PROGRAMS, USR_BIN_APPLETS, SBIN_APPLETS } from './program-names.js';
import { addExtras, type ImageProgram } from './seed-extras.js';

export interface LinuxSeed {
  toolset: 'busybox' | 'alpine' | 'debian' | 'distroless' | 'none';
  now: number;
  extras?: ImageProgram[];
  system: ContainerEnv['system'];
  hostname: string;
}

const PASSWD: Record<string, string[]> = {
  busybox: ['root:x:0:0:root:/root:/bin/sh', 'daemon:x:1:1:daemon:/usr/sbin:/bin/false', 'bin:x:2:2:bin:/bin:/bin/false', 'sys:x:3:3:sys:/dev:/bin/false', 'sync:x:4:100:sync:/bin:/bin/sync', 'mail:x:8:8:mail:/var/spool/mail:/bin/false', 'www-data:x:33:33:www-data:/var/www:/bin/false', 'operator:x:37:37:Operator:/var:/bin/false', 'nobody:x:65534:65534:nobody:/home:/bin/false'],
  alpine: ['root:x:0:0:root:/root:/bin/sh', 'bin:x:1:1:bin:/bin:/sbin/nologin', 'daemon:x:2:2:daemon:/sbin:/sbin/nologin', 'lp:x:4:7:lp:/var/spool/lpd:/sbin/nologin', 'sync:x:5:0:sync:/sbin:/bin/sync', 'shutdown:x:6:0:shutdown:/sbin:/sbin/shutdown', 'halt:x:7:0:halt:/sbin:/sbin/halt', 'mail:x:8:12:mail:/var/mail:/sbin/nologin', 'news:x:9:13:news:/usr/lib/news:/sbin/nologin', 'operator:x:11:0:operator:/root:/sbin/nologin', 'ftp:x:21:21::/var/lib/ftp:/sbin/nologin', 'sshd:x:22:22:sshd:/dev/null:/sbin/nologin', 'games:x:35:35:games:/usr/games:/sbin/nologin', 'ntp:x:123:123:NTP:/var/empty:/sbin/nologin', 'guest:x:405:100:guest:/dev/null:/sbin/nologin', 'nobody:x:65534:65534:nobody:/:/sbin/nologin'],
  debian: ['root:x:0:0:root:/root:/bin/bash', 'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin', 'bin:x:2:2:bin:/bin:/usr/sbin/nologin', 'sys:x:3:3:sys:/dev:/usr/sbin/nologin', 'sync:x:4:65534:sync:/bin:/bin/sync', 'games:x:5:60:games:/usr/games:/usr/sbin/nologin', 'man:x:6:12:man:/var/cache/man:/usr/sbin/nologin', 'mail:x:8:8:mail:/var/mail:/usr/sbin/nologin', 'www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin', 'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin'],
  distroless: ['root:x:0:0:root:/root:/sbin/nologin', 'nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin', 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin'],
};
const GROUP: Record<string, string[]> = {
  busybox: ['root:x:0:', 'daemon:x:1:', 'bin:x:2:', 'sys:x:3:', 'adm:x:4:', 'tty:x:5:', 'disk:x:6:', 'wheel:x:10:root', 'www-data:x:33:', 'users:x:100:', 'nogroup:x:65534:'],
  alpine: ['root:x:0:root', 'bin:x:1:root,bin,daemon', 'daemon:x:2:root,bin,daemon', 'sys:x:3:root,bin', 'adm:x:4:root,daemon', 'tty:x:5:', 'disk:x:6:root', 'wheel:x:10:root', 'users:x:100:games', 'nogroup:x:65533:', 'nobody:x:65534:'],
  debian: ['root:x:0:', 'daemon:x:1:', 'bin:x:2:', 'sys:x:3:', 'adm:x:4:', 'tty:x:5:', 'disk:x:6:', 'mail:x:8:', 'www-data:x:33:', 'users:x:100:', 'nogroup:x:65534:'],
  distroless: ['root:x:0:', 'nobody:x:65534:', 'tty:x:5:', 'staff:x:50:', 'nonroot:x:65532:'],
};

/** /etc/os-release of each distribution (fields as the distributions ship them). */
const OS_RELEASE: Record<string, string> = {
  alpine: 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.20.3\nPRETTY_NAME="Alpine Linux v3.20"\nHOME_URL="https://alpinelinux.org/"\nBUG_REPORT_URL="https://gitlab.alpinelinux.org/alpine/aports/-/issues"\n',
  debian: 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\nHOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\nBUG_REPORT_URL="https://bugs.debian.org/"\n',
  distroless: 'PRETTY_NAME="Distroless"\nNAME="Debian GNU/Linux"\nID="debian"\nVERSION_ID="12"\nVERSION="Debian GNU/Linux 12 (bookworm)"\nHOME_URL="https://github.com/GoogleContainerTools/distroless"\n',
};

function dirs(fs: VirtualFs, list: string[], mode = 0o755): void {
  for (const d of list) fs.mkdir(d, { parents: true, mode });
}

function program(fs: VirtualFs, path: string, tag: string): void {
  fs.writeFile(path, Buffer.from(`\x7fELF emulated ${tag}\n`), { mode: 0o755 }).program = tag;
}

function procFiles(fs: VirtualFs, seed: LinuxSeed): void {
  const sys = seed.system;
  fs.mkdir('/proc/sys/kernel', { parents: true, mode: 0o555 });
  const gen = (path: string, f: () => string) => {
    const n = fs.writeFile(path, '', { mode: 0o444 });
    n.generate = () => Buffer.from(f());
  };
  gen('/proc/version', () => `Linux version ${sys.kernelVersion} (builder@winkube) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC\n`);
  gen('/proc/uptime', () => {
    const up = Math.max(0, (fs.now() - sys.bootTimeMs) / 1000);
    return `${up.toFixed(2)} ${(up * sys.cpus * 0.95).toFixed(2)}\n`;
  });
  gen('/proc/loadavg', () => '0.08 0.03 0.01 1/123 42\n');
  gen('/proc/meminfo', () => {
    const kb = Math.floor(sys.memoryBytes / 1024);
    return `MemTotal:       ${String(kb).padStart(8)} kB\nMemFree:        ${String(Math.floor(kb * 0.6)).padStart(8)} kB\nMemAvailable:   ${String(Math.floor(kb * 0.8)).padStart(8)} kB\n`;
  });
  gen('/proc/cpuinfo', () => Array.from({ length: sys.cpus }, (_, i) => `processor\t: ${i}\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz\n\n`).join(''));
  gen('/proc/sys/kernel/hostname', () => `${seed.hostname}\n`);
  gen('/proc/mounts', () => {
    const lines = ['overlay / overlay rw,relatime 0 0', 'proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0', 'tmpfs /dev tmpfs rw,nosuid,size=65536k,mode=755 0 0'];
    for (const m of fs.mountTable()) lines.push(`${m.source === 'tmpfs' ? 'tmpfs' : '/dev/sda1'} ${m.path} ${m.source === 'tmpfs' ? 'tmpfs' : 'ext4'} ${m.readOnly ? 'ro' : 'rw'},relatime 0 0`);
    return `${lines.join('\n')}\n`;
  });
}

/** Builds the image's root filesystem (the kubelet's files — hosts, resolv.conf, volumes — are mounted later). */
export function linuxImageFs(seed: LinuxSeed): VirtualFs {
  const fs = new VirtualFs('linux', () => seed.now);
  const t = seed.toolset;
  dirs(fs, ['/dev', '/etc', '/proc', '/sys', '/root', '/home', '/var', '/usr', '/run']);
  fs.chmod('/root', 0o700);
  fs.mkdir('/tmp', { mode: 0o1777 });
  const nul = fs.writeFile('/dev/null', '', { mode: 0o666 });
  nul.generate = () => Buffer.alloc(0);
  if (t === 'none') {
    addExtras(fs, 'linux', seed.extras ?? []);
    return fs;
  }
  const family = t === 'busybox' ? 'busybox' : t === 'alpine' ? 'alpine' : t === 'distroless' ? 'distroless' : 'debian';
  fs.writeFile('/etc/passwd', `${PASSWD[family].join('\n')}\n`);
  fs.writeFile('/etc/group', `${GROUP[family].join('\n')}\n`);
  if (OS_RELEASE[family]) fs.writeFile('/etc/os-release', OS_RELEASE[family]);
  if (family === 'alpine') fs.writeFile('/etc/alpine-release', '3.20.3\n');
  if (family === 'debian') fs.writeFile('/etc/debian_version', '12.8\n');
  fs.writeFile('/etc/hostname', `${seed.hostname}\n`);
  procFiles(fs, seed);
  if (t === 'busybox') {
    dirs(fs, ['/bin', '/usr/sbin', '/var/spool/mail', '/var/www', '/home']);
    program(fs, '/bin/busybox', 'busybox');
    for (const a of BUSYBOX_APPLETS) if (a !== 'busybox') fs.symlink('busybox', `/bin/${a}`);
  } else if (t === 'alpine') {
    dirs(fs, ['/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/lib', '/etc/apk', '/var/cache/apk', '/media', '/mnt', '/opt', '/srv']);
    program(fs, '/bin/busybox', 'busybox');
    program(fs, '/sbin/apk', 'apk');
    for (const a of BUSYBOX_APPLETS) {
      if (a === 'busybox') continue;
      const dir = USR_BIN_APPLETS.has(a) ? '/usr/bin' : SBIN_APPLETS.has(a) ? '/sbin' : '/bin';
      fs.symlink('/bin/busybox', `${dir}/${a}`);
    }
  } else if (t === 'debian') {
    dirs(fs, ['/usr/bin', '/usr/sbin', '/usr/lib', '/usr/local/bin', '/usr/share', '/var/lib', '/var/log', '/opt', '/srv', '/mnt', '/media', '/boot']);
    fs.symlink('usr/bin', '/bin');
    fs.symlink('usr/sbin', '/sbin');
    fs.symlink('usr/lib', '/lib');
    program(fs, '/usr/bin/bash', 'bash');
    program(fs, '/usr/bin/dash', 'dash');
    fs.symlink('dash', '/usr/bin/sh');
    for (const p of GNU_PROGRAMS) program(fs, `/usr/bin/${p}`, `gnu:${p}`);
    fs.symlink('test', '/usr/bin/[');
    program(fs, '/usr/bin/apt-get', 'apt-get');
    program(fs, '/usr/bin/dpkg', 'dpkg');
  } else {
    dirs(fs, ['/etc/ssl/certs', '/home/nonroot', '/var/lib']);
  }
  addExtras(fs, 'linux', seed.extras ?? []);
  return fs;
}
