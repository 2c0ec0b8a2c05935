// Windows output conventions shared by cmd and the System32 tools: CRLF lines, dates as the en-US locale prints
// them, thousands separators, the Windows version string.

import type { ContainerEnv } from '../interfaces.js';

export const CRLF = '\r\n';

export function crlf(lines: string[]): string {
  return lines.map((l) => l + CRLF).join('');
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** `05/05/2025  01:24 AM` (dir). */
export function dirDate(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours() % 12 || 12;
  return `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${d.getUTCFullYear()}  ${p2(h)}:${p2(d.getUTCMinutes())} ${d.getUTCHours() < 12 ? 'AM' : 'PM'}`;
}

/** %DATE%: `Mon 01/01/2024`. */
export function cmdDate(ms: number): string {
  const d = new Date(ms);
  return `${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]} ${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${d.getUTCFullYear()}`;
}

/** %TIME%: ` 0:00:00.00`. */
export function cmdTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCHours()).padStart(2)}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${p2(Math.floor(d.getUTCMilliseconds() / 10))}`;
}

/** `2/4/2025, 9:09:49 PM` (systeminfo). */
export function usDateTime(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours() % 12 || 12;
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}, ${h}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${d.getUTCHours() < 12 ? 'AM' : 'PM'}`;
}

export function thousands(n: number): string {
  return Math.floor(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `10.0.17763.6893`: the image's build and update revision. */
export function windowsVersion(env: ContainerEnv): string {
  const build = env.system.windowsBuild ?? (/^10\.0\.\d+/.exec(env.system.kernelVersion)?.[0] ?? '10.0.17763');
  const ubr = env.system.windowsUBR ?? Number(env.system.kernelVersion.split('.')[3] ?? 0);
  return `${build.split('.').slice(0, 3).join('.')}.${ubr}`;
}

export function buildNumber(env: ContainerEnv): number {
  return Number(windowsVersion(env).split('.')[2]);
}

/** A stable volume serial number for the container (`6A1B-2C3D`). */
export function volumeSerial(seed: string): string {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const hex = h.toString(16).toUpperCase().padStart(8, '0');
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

/** NetBIOS computer name: the hostname upper-cased and cut to 15 characters (%COMPUTERNAME%, systeminfo). */
export function computerName(hostname: string): string {
  return hostname.split('.')[0].toUpperCase().slice(0, 15);
}
