// The C: drive of Windows images: Server Core (cmd, Windows PowerShell 5.1 and the usual System32 tools), Nano Server
// (cmd and a reduced System32: no PowerShell, nltest, whoami, systeminfo or tasklist — MicrosoftDocs/
// Virtualization-Documentation#769, microsoft/Windows-Containers#252, microsoft/windows-container-tools#178) and the
// host seen by a HostProcess container.

import { VirtualFs } from './vfs.js';
import { addExtras, type ImageProgram } from './seed-extras.js';

export interface WindowsSeed {
  toolset: 'servercore' | 'nanoserver' | 'hostprocess' | 'none';
  now: number;
  extras?: ImageProgram[];
  /** The container's user profile to create (ContainerUser / ContainerAdministrator). */
  userName?: string;
  /** Where the image's own files land: `C:`, or a HostProcess container's sandbox mount point. */
  imageRoot?: string;
}

/** System32 programs and the emulation each runs; `undefined` = present but not emulated. */
const SERVERCORE_SYSTEM32: Record<string, string | undefined> = {
  'cmd.exe': 'win:cmd', 'PING.EXE': 'win:ping', 'nslookup.exe': 'win:nslookup', 'ipconfig.exe': 'win:ipconfig',
  'curl.exe': 'win:curl', 'tar.exe': 'win:tar', 'whoami.exe': 'win:whoami', 'HOSTNAME.EXE': 'win:hostname',
  'systeminfo.exe': 'win:systeminfo', 'tasklist.exe': 'win:tasklist', 'nltest.exe': 'win:nltest', 'timeout.exe': 'win:timeout',
  'findstr.exe': 'win:findstr', 'where.exe': 'win:where', 'sort.exe': 'win:sort', 'more.com': 'win:more',
  'netsh.exe': undefined, 'reg.exe': undefined, 'sc.exe': 'win:sc', 'net.exe': undefined, 'certutil.exe': undefined,
  'xcopy.exe': undefined, 'robocopy.exe': undefined, 'icacls.exe': undefined, 'klist.exe': undefined, 'netstat.exe': 'win:netstat',
  'taskkill.exe': undefined, 'ROUTE.EXE': 'win:route', 'fc.exe': undefined, 'find.exe': 'win:find', 'attrib.exe': undefined, 'chcp.com': undefined,
};
const NANOSERVER_SYSTEM32 = ['cmd.exe', 'PING.EXE', 'nslookup.exe', 'ipconfig.exe', 'curl.exe', 'tar.exe', 'HOSTNAME.EXE', 'timeout.exe', 'findstr.exe', 'where.exe', 'netsh.exe', 'reg.exe', 'xcopy.exe', 'certutil.exe', 'find.exe', 'sort.exe', 'more.com', 'netstat.exe'];

function program(fs: VirtualFs, path: string, tag: string | undefined): void {
  const n = fs.writeFile(path, Buffer.from('MZ emulated\r\n'), { mode: 0o755 });
  n.program = tag ?? `win:absent:${path.split('\\').pop()!.toLowerCase()}`;
  n.protected = true;
}

function protectedDir(fs: VirtualFs, path: string): void {
  fs.mkdir(path, { parents: true }).protected = true;
}

/** The default PATH of each image (its ENV / the system environment). */
export function windowsDefaultPath(toolset: WindowsSeed['toolset'], userName = 'ContainerAdministrator'): string {
  if (toolset === 'nanoserver' || toolset === 'none') return 'C:\\Windows\\system32;C:\\Windows;';
  return `C:\\Windows\\system32;C:\\Windows;C:\\Windows\\System32\\Wbem;C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\;C:\\Windows\\System32\\OpenSSH\\;C:\\Users\\${userName}\\AppData\\Local\\Microsoft\\WindowsApps`;
}

export function windowsImageFs(seed: WindowsSeed): VirtualFs {
  const fs = new VirtualFs('windows', () => seed.now);
  const t = seed.toolset;
  for (const d of ['C:\\Windows', 'C:\\Windows\\System32', 'C:\\Windows\\System32\\drivers', 'C:\\Windows\\System32\\drivers\\etc']) protectedDir(fs, d);
  fs.mkdir('C:\\Windows\\Temp');
  fs.mkdir('C:\\Users\\Public', { parents: true });
  for (const u of new Set(['ContainerAdministrator', 'ContainerUser', seed.userName ?? 'ContainerUser'])) {
    if (u.includes('\\')) continue;
    fs.mkdir(`C:\\Users\\${u}\\AppData\\Local\\Temp`, { parents: true });
    fs.mkdir(`C:\\Users\\${u}\\AppData\\Roaming`, { parents: true });
  }
  fs.writeFile('C:\\Windows\\System32\\drivers\\etc\\hosts', '# hosts: one IP address and its names a line; # starts a comment.\r\n');
  fs.writeFile('C:\\License.txt', 'Emulated Windows container image. The real image\'s license terms apply to real images.\r\n');
  if (t === 'none') {
    addExtras(fs, 'windows', seed.extras ?? [], seed.imageRoot);
    return fs;
  }
  if (t === 'nanoserver') {
    for (const name of NANOSERVER_SYSTEM32) program(fs, `C:\\Windows\\System32\\${name}`, SERVERCORE_SYSTEM32[name]);
  } else {
    protectedDir(fs, 'C:\\Program Files');
    protectedDir(fs, 'C:\\Program Files\\WindowsPowerShell');
    protectedDir(fs, 'C:\\Program Files\\WindowsPowerShell\\Modules');
    protectedDir(fs, 'C:\\Program Files (x86)');
    fs.mkdir('C:\\ProgramData\\Microsoft', { parents: true });
    for (const [name, tag] of Object.entries(SERVERCORE_SYSTEM32)) program(fs, `C:\\Windows\\System32\\${name}`, tag);
    protectedDir(fs, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0');
    program(fs, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'win:powershell');
    protectedDir(fs, 'C:\\Windows\\System32\\Wbem');
    protectedDir(fs, 'C:\\Windows\\System32\\OpenSSH');
  }
  addExtras(fs, 'windows', seed.extras ?? [], seed.imageRoot);
  return fs;
}
