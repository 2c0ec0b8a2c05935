// The PSVersion value of $PSVersionTable: a System.Version in Windows PowerShell 5.1 and a SemanticVersion in
// PowerShell 7 (PSVersionInfo.cs), so `$PSVersionTable.PSVersion.Major -ge 7` works and the object prints as a table.

import { registerView } from './format.js';
import { PsObject } from './values.js';

const VERSION = 'System.Version';
const SEMVER = 'System.Management.Automation.SemanticVersion';

/** A version object whose string form is its dotted text. */
class VersionValue extends PsObject {
  constructor(type: string, private readonly text: string, parts: Record<string, number | string | null>) { super([type, 'System.Object'], parts); }
  override toString(): string { return this.text; }
}

/** 5.1.17763.6893 → Major 5, Minor 1, Build 17763, Revision 6893. */
export function systemVersion(text: string): PsObject {
  const [major = 0, minor = 0, build = -1, revision = -1] = text.split('.').map(Number);
  return new VersionValue(VERSION, text, { Major: major, Minor: minor, Build: build, Revision: revision, MajorRevision: revision < 0 ? -1 : revision >> 16, MinorRevision: revision < 0 ? -1 : revision & 0xffff });
}

/** 7.4.6 → Major 7, Minor 4, Patch 6, no pre-release or build label. */
export function semanticVersion(text: string): PsObject {
  const [core, label] = text.split('-', 2);
  const [major = 0, minor = 0, patch = 0] = core.split('.').map(Number);
  return new VersionValue(SEMVER, text, { Major: major, Minor: minor, Patch: patch, PreReleaseLabel: label ?? null, BuildLabel: null });
}

// Numeric columns are six wide in the console's default table for these types (`Major  Minor  Build  Revision`).
registerView(VERSION, { kind: 'table', columns: [{ name: 'Major', width: 6 }, { name: 'Minor', width: 6 }, { name: 'Build', width: 6 }, { name: 'Revision' }] });
registerView(SEMVER, { kind: 'table', columns: [{ name: 'Major', width: 6 }, { name: 'Minor', width: 6 }, { name: 'Patch', width: 6 }, { name: 'PreReleaseLabel' }, { name: 'BuildLabel' }] });
