// Runtime helpers: indexing ($a[1], $h['k'], $s[-1]), $Matches and $PSVersionTable.

import { netGroups, type NetRegex } from './dotnet-regex.js';
import type { Ctx } from '../core/ctx.js';
import { semanticVersion, systemVersion } from './ps-version.js';
import { DotNet, Hashtable, isArray, PsError, PsObject, toNum, toStr, type PsValue } from './values.js';

export function indexInto(obj: PsValue, idx: PsValue): PsValue {
  if (obj === null) throw new PsError('Cannot index into a null array.', 'InvalidOperation', 'NullArray');
  if (obj instanceof Hashtable) return Array.isArray(idx) ? idx.map((k) => obj.get(k)) : obj.get(idx);
  // A number indexes a single object as a one-element collection (`$route[0]` on one pipeline result).
  if (obj instanceof PsObject && typeof idx !== 'number') return obj.getProp(toStr(idx)) ?? null;
  if (obj instanceof DotNet) return obj.get(toStr(idx)) ?? obj.get('Item') ?? null;
  const seq: PsValue[] | string | Buffer = Array.isArray(obj) || typeof obj === 'string' || Buffer.isBuffer(obj) ? obj : [obj];
  const at = (i: number): PsValue => {
    const n = i < 0 ? seq.length + i : i;
    if (typeof seq === 'string') return seq[n] ?? null;
    if (Buffer.isBuffer(seq)) return seq[n] ?? null;
    return seq[n] ?? null;
  };
  if (isArray(idx)) return idx.map((i) => at(toNum(i)));
  return at(toNum(idx));
}

/** $Matches after a successful -match: .NET numbers the unnamed groups first and keys named groups by name
 *  (JavaScript numbers every group in order), and only groups that took part are present. */
export function matchTable(m: RegExpMatchArray, nr: NetRegex): Hashtable {
  const h = new Hashtable();
  netGroups(nr, m).forEach((g, n) => {
    if (g === undefined) return;
    const name = nr.names[n];
    h.set(/^\d+$/.test(name) ? n : name, g);
  });
  return h;
}

/** The PowerShell 7 release pwsh.exe is (the 7.4 LTS the `lts` tags of mcr.microsoft.com/powershell carry). */
export const PWSH_VERSION = '7.4.6';

export function psVersionTable(ctx: Ctx, edition: 'Desktop' | 'Core' = 'Desktop'): Hashtable {
  const h = new Hashtable();
  const build = /^10\.0\.(\d+)/.exec(ctx.env.system.windowsBuild ?? ctx.env.system.kernelVersion)?.[1] ?? '17763';
  const ubr = ctx.env.system.windowsUBR ?? 1;
  if (edition === 'Core') {
    // PowerShell 7's table (PSVersionInfo.cs): no BuildVersion or CLRVersion; GitCommitId, OS and Platform instead.
    h.set('PSVersion', semanticVersion(PWSH_VERSION));
    h.set('PSEdition', 'Core');
    h.set('GitCommitId', PWSH_VERSION);
    h.set('OS', `Microsoft Windows 10.0.${build}`);
    h.set('Platform', 'Win32NT');
    h.set('PSCompatibleVersions', ['1.0', '2.0', '3.0', '4.0', '5.0', '5.1', '6.0', '7.0'].map(systemVersion));
    h.set('PSRemotingProtocolVersion', '2.3');
    h.set('SerializationVersion', '1.1.0.1');
    h.set('WSManStackVersion', '3.0');
    return h;
  }
  h.set('PSVersion', systemVersion(`5.1.${build}.${ubr}`));
  h.set('PSEdition', 'Desktop');
  h.set('PSCompatibleVersions', ['1.0', '2.0', '3.0', '4.0', '5.0', `5.1.${build}.${ubr}`].map(systemVersion));
  h.set('BuildVersion', systemVersion(`10.0.${build}.${ubr}`));
  h.set('CLRVersion', '4.0.30319.42000');
  h.set('WSManStackVersion', '3.0');
  h.set('PSRemotingProtocolVersion', '2.3');
  h.set('SerializationVersion', '1.1.0.1');
  return h;
}

