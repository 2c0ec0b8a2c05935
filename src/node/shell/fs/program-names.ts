// Names of the programs images ship: BusyBox applets (a typical `busybox --list` of the Docker Hub and Alpine
// builds), where Alpine links them, and the Debian base system's commands.

export const BUSYBOX_APPLETS: readonly string[] = [
  '[', '[[', 'addgroup', 'adduser', 'arch', 'ash', 'awk', 'base64', 'basename', 'bc', 'busybox', 'cat', 'chgrp', 'chmod',
  'chown', 'chroot', 'cksum', 'clear', 'cmp', 'cp', 'crond', 'cut', 'date', 'dd', 'deluser', 'df', 'diff', 'dirname',
  'dmesg', 'dnsdomainname', 'du', 'echo', 'egrep', 'env', 'expr', 'false', 'fgrep', 'find', 'free', 'fuser', 'getty',
  'grep', 'gunzip', 'gzip', 'halt', 'head', 'hexdump', 'hostid', 'hostname', 'httpd', 'id', 'ifconfig', 'install', 'ip',
  'ipcalc', 'kill', 'killall', 'less', 'ln', 'logger', 'login', 'ls', 'lsof', 'md5sum', 'mkdir', 'mkfifo', 'mknod',
  'mktemp', 'more', 'mount', 'mv', 'nc', 'netstat', 'nice', 'nohup', 'nproc', 'nslookup', 'od', 'passwd', 'pgrep',
  'pidof', 'ping', 'ping6', 'pkill', 'poweroff', 'printenv', 'printf', 'ps', 'pwd', 'readlink', 'realpath', 'reboot',
  'renice', 'reset', 'rev', 'rm', 'rmdir', 'route', 'sed', 'seq', 'sh', 'sha1sum', 'sha256sum', 'sha512sum', 'sleep',
  'sort', 'stat', 'strings', 'stty', 'su', 'sync', 'sysctl', 'tac', 'tail', 'tar', 'tee', 'telnet', 'test', 'time',
  'timeout', 'top', 'touch', 'tr', 'traceroute', 'true', 'tty', 'umount', 'uname', 'uniq', 'unzip', 'uptime', 'usleep',
  'vi', 'watch', 'wc', 'wget', 'which', 'whoami', 'xargs', 'yes', 'zcat',
];

/** Applets Alpine links in /usr/bin (the rest in /bin, a few in /sbin). */
export const USR_BIN_APPLETS = new Set([
  '[', '[[', 'awk', 'base64', 'basename', 'bc', 'cksum', 'clear', 'cmp', 'cut', 'diff', 'dirname', 'du', 'env', 'expr',
  'find', 'free', 'fuser', 'head', 'hexdump', 'hostid', 'id', 'install', 'ipcalc', 'killall', 'less', 'logger', 'lsof',
  'md5sum', 'mkfifo', 'nc', 'nohup', 'nproc', 'nslookup', 'od', 'passwd', 'pgrep', 'pkill', 'printf', 'readlink',
  'realpath', 'renice', 'reset', 'seq', 'sha1sum', 'sha256sum', 'sha512sum', 'sort', 'strings', 'tac', 'tail', 'tee',
  'telnet', 'test', 'time', 'timeout', 'top', 'tr', 'traceroute', 'tty', 'uniq', 'unzip', 'uptime', 'vi', 'watch', 'wc',
  'wget', 'which', 'whoami', 'xargs', 'yes',
]);
export const SBIN_APPLETS = new Set(['getty', 'halt', 'ifconfig', 'ip', 'poweroff', 'reboot', 'route', 'sysctl', 'crond', 'addgroup', 'adduser', 'deluser']);

/** Commands of a Debian slim base (coreutils, grep, sed, tar, hostname, findutils, mawk, gzip). No ps, ping, ip, curl, wget. */
export const GNU_PROGRAMS: readonly string[] = [
  'arch', 'awk', 'base64', 'basename', 'cat', 'chgrp', 'chmod', 'chown', 'cksum', 'cp', 'cut', 'date', 'dd', 'df', 'dirname',
  'du', 'echo', 'egrep', 'env', 'expr', 'false', 'fgrep', 'find', 'grep', 'groups', 'gzip', 'head', 'hostname', 'id',
  'install', 'ln', 'ls', 'md5sum', 'mkdir', 'mktemp', 'mv', 'nice', 'nohup', 'nproc', 'od', 'printenv', 'printf',
  'pwd', 'readlink', 'realpath', 'rm', 'rmdir', 'sed', 'seq', 'sha1sum', 'sha256sum', 'sleep', 'sort', 'stat', 'tac',
  'tail', 'tar', 'tee', 'test', 'timeout', 'touch', 'tr', 'true', 'tty', 'uname', 'uniq', 'wc', 'which',
  'whoami', 'xargs', 'yes', 'zcat',
];

/** The applets the Windows e2e busybox image links in C:\bin, as its Dockerfile lists them (`busybox.exe --list` of the binary it ships). */
export const BUSYBOX_W32_APPLETS: readonly string[] = [
  '[', '[[', 'ar', 'arch', 'ash', 'awk', 'base64', 'basename', 'bash', 'bunzip2', 'bzcat', 'bzip2', 'cal', 'cat', 'chmod',
  'cksum', 'clear', 'cmp', 'comm', 'cp', 'cpio', 'cut', 'date', 'dc', 'dd', 'df', 'diff', 'dirname', 'dos2unix', 'dpkg-deb',
  'du', 'echo', 'ed', 'egrep', 'env', 'expand', 'expr', 'factor', 'false', 'fgrep', 'find', 'fold', 'fsync', 'ftpget',
  'ftpput', 'getopt', 'grep', 'groups', 'gunzip', 'gzip', 'hd', 'head', 'hexdump', 'id', 'ipcalc', 'kill', 'killall', 'less',
  'link', 'ln', 'logname', 'ls', 'lzcat', 'lzma', 'lzop', 'lzopcat', 'man', 'md5sum', 'mkdir', 'mktemp', 'mv', 'nl', 'od',
  'paste', 'patch', 'pgrep', 'pidof', 'pipe_progress', 'pkill', 'printenv', 'printf', 'ps', 'pwd', 'rev', 'rm', 'rmdir',
  'rpm', 'rpm2cpio', 'sed', 'seq', 'sh', 'sha1sum', 'sha256sum', 'sha3sum', 'sha512sum', 'shred', 'shuf', 'sleep', 'sort',
  'split', 'ssl_client', 'stat', 'strings', 'sum', 'tac', 'tail', 'tar', 'tee', 'test', 'timeout', 'touch', 'tr', 'true',
  'truncate', 'ttysize', 'uname', 'uncompress', 'unexpand', 'uniq', 'unix2dos', 'unlink', 'unlzma', 'unlzop', 'unxz',
  'unzip', 'usleep', 'uudecode', 'uuencode', 'vi', 'watch', 'wc', 'wget', 'which', 'whoami', 'whois', 'xargs', 'xxd', 'xz',
  'xzcat', 'yes', 'zcat',
];
