// User and group names from the image's /etc/passwd and /etc/group, and the credential a container runs with.

import type { ContainerEnv, ContainerUser } from '../interfaces.js';
import type { Cred, VirtualFs } from '../fs/vfs.js';

export interface PasswdEntry { name: string; uid: number; gid: number; gecos: string; home: string; shell: string }

function lines(fs: VirtualFs, path: string): string[] {
  // Most images (pause among them) have no /etc/passwd: look before reading, as a thrown error per container start
  // was a measurable share of the node agent's time at thousands of pods.
  if (fs.stat(path)?.kind !== 'file') return [];
  try { return fs.readFile(path).toString().split('\n').filter((l) => l && !l.startsWith('#')); } catch { return []; }
}

export function passwd(fs: VirtualFs): PasswdEntry[] {
  return lines(fs, '/etc/passwd').map((l) => {
    const [name, , uid, gid, gecos, home, shell] = l.split(':');
    return { name, uid: Number(uid), gid: Number(gid), gecos: gecos ?? '', home: home ?? '/', shell: shell ?? '/bin/sh' };
  });
}

export function groups(fs: VirtualFs): { name: string; gid: number; members: string[] }[] {
  return lines(fs, '/etc/group').map((l) => {
    const [name, , gid, members] = l.split(':');
    return { name, gid: Number(gid), members: (members ?? '').split(',').filter(Boolean) };
  });
}

export function userName(fs: VirtualFs, uid: number): string | undefined {
  return passwd(fs).find((p) => p.uid === uid)?.name;
}

export function groupName(fs: VirtualFs, gid: number): string | undefined {
  return groups(fs).find((g) => g.gid === gid)?.name;
}

/** The Linux identity: uid/gid given by the pod (runAsUser) or the image's user name looked up in /etc/passwd. */
export function linuxIdentity(fs: VirtualFs, user: ContainerUser): { uid: number; gid: number; name?: string; groups: { name?: string; gid: number }[] } {
  const users = passwd(fs);
  const byName = users.find((p) => p.name === user.name);
  const uid = user.uid ?? byName?.uid ?? 0;
  const entry = users.find((p) => p.uid === uid);
  const gid = user.gid ?? entry?.gid ?? 0;
  const known = groups(fs);
  const extra = user.groups ?? known.filter((g) => entry && g.members.includes(entry.name)).map((g) => ({ name: g.name, gid: g.gid }));
  const all = [{ name: known.find((g) => g.gid === gid)?.name, gid }, ...extra.filter((g) => g.gid !== gid)];
  return { uid, gid, name: entry?.name, groups: all };
}

const WINDOWS_ADMINS = ['containeradministrator', 'nt authority\\system'];

export function isWindowsAdmin(name: string): boolean {
  return WINDOWS_ADMINS.includes(name.toLowerCase());
}

export function credFor(env: Pick<ContainerEnv, 'os' | 'fs' | 'user'>): Cred {
  if (env.os === 'windows') return { uid: isWindowsAdmin(env.user.name) ? 0 : 1000, gids: [0], admin: isWindowsAdmin(env.user.name) };
  const id = linuxIdentity(env.fs, env.user);
  return { uid: id.uid, gids: id.groups.map((g) => g.gid), admin: id.uid === 0 };
}
