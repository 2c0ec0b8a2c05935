// The file system provider's cmdlets: Get-ChildItem (its `Directory:` grouped table), Get/Set/Add-Content (BOM
// detection; Set-Content writes ANSI), Out-File (UTF-16LE like `>` in 5.1), New-Item, Remove-Item, Test-Path,
// Get-Location and Set-Location.

import type { FsNode } from '../fs/vfs.js';
import { cmdletFqid, type Cmdlet, type CmdletCall } from './cmdlet-api.js';
import { DateTime, dotnetDate } from './dotnet.js';
import { formatToString, registerView } from './format.js';
import { DotNet, enumerate, PsError, PsObject, toNum, toStr, type PsValue } from './values.js';

const arg = (c: CmdletCall, n: string): PsValue => c.bound.get(n) ?? null;
const has = (c: CmdletCall, n: string) => c.bound.has(n);

function pathError(c: CmdletCall, path: string): PsError {
  return new PsError(`Cannot find path '${path}' because it does not exist.`, 'ObjectNotFound', `PathNotFound,${cmdletFqid(c.name)}`, { command: c.name, target: path, exceptionType: 'ItemNotFoundException', pos: c.pos, end: c.end });
}

function resolvePath(c: CmdletCall, p: PsValue): string {
  return c.ps.ctx.env.fs.resolve(c.ps.ctx.cwd, toStr(p).replace(/^FileSystem::/i, '').replace(/^Microsoft\.PowerShell\.Core\\FileSystem::/i, ''));
}

/** FileInfo / DirectoryInfo as Get-ChildItem and New-Item return them. */
export class FsItem extends DotNet {
  readonly viewKey = 'System.IO.FileSystemInfo';
  constructor(readonly node: FsNode, readonly fullName: string, readonly parent: string) { super(); }
  get typeName(): string { return this.node.kind === 'dir' ? 'System.IO.DirectoryInfo' : 'System.IO.FileInfo'; }
  mode(): string {
    if (this.node.kind === 'symlink') return 'd----l';
    return this.node.kind === 'dir' ? 'd-----' : '-a----';
  }
  override get(name: string): PsValue | undefined {
    const n = this.node;
    switch (name.toLowerCase()) {
      case 'name': return n.name;
      case 'fullname': return this.fullName;
      case 'length': return n.kind === 'file' ? n.data.length : undefined;
      case 'mode': return this.mode();
      case 'lastwritetime': return new DateTime(n.mtimeMs);
      case 'extension': return /\.[^.]*$/.exec(n.name)?.[0] ?? '';
      case 'basename': return n.name.replace(/\.[^.]*$/, '');
      case 'directoryname': case 'psparentpath': return this.parent;
      case 'psiscontainer': return n.kind === 'dir';
      case 'exists': return true;
    }
    return undefined;
  }
  override toString(): string { return this.node.name; }
  override properties(): string[] { return ['Mode', 'LastWriteTime', 'Length', 'Name']; }
}

registerView('System.IO.FileSystemInfo', {
  kind: 'table',
  group: { key: (v) => (v as FsItem).parent, header: (v) => `    Directory: ${(v as FsItem).parent}` },
  columns: [
    { name: 'Mode', width: 6, value: (v) => (v as FsItem).mode() },
    { name: 'LastWriteTime', width: 26, align: 'right', value: (v) => { const ms = (v as FsItem).node.mtimeMs; return `${dotnetDate(ms, 'M/d/yyyy').padStart(10)}  ${dotnetDate(ms, 'h:mm tt').padStart(8)}`; } },
    { name: 'Length', width: 14, align: 'right', value: (v) => { const n = (v as FsItem).node; return n.kind === 'file' ? String(n.data.length) : ''; } },
    { name: 'Name' },
  ],
});

registerView('System.Management.Automation.PathInfo', { kind: 'table', columns: [{ name: 'Path' }] });
registerView('System.Collections.DictionaryEntry', { kind: 'table', columns: [{ name: 'Name', width: 30 }, { name: 'Value' }] });

export function decode(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString();
  return buf.toString();
}

function lines(text: string): string[] {
  const l = text.split(/\r?\n/);
  if (l[l.length - 1] === '') l.pop();
  return l;
}

const getChildItem: Cmdlet = {
  name: 'Get-ChildItem',
  params: [{ name: 'Path', aliases: ['LiteralPath', 'PSPath'], position: 0 }, { name: 'Filter', position: 1 }, { name: 'Recurse', switch: true }, { name: 'Name', switch: true }, { name: 'Force', switch: true }, { name: 'File', switch: true }, { name: 'Directory', switch: true }, { name: 'Include' }, { name: 'Exclude' }, { name: 'Depth' }],
  async run(c) {
    const fs = c.ps.ctx.env.fs;
    const paths = has(c, 'Path') ? enumerate(arg(c, 'Path')).map(toStr) : ['.'];
    for (const p of paths) {
      if (/^env:\\?/i.test(p)) {
        // The Env: drive: one Name/Value entry per variable, sorted.
        const name = p.replace(/^env:\\?/i, '');
        const vars = Object.entries(c.ps.ctx.vars).filter(([k]) => !name || k.toLowerCase() === name.toLowerCase()).sort(([a], [b]) => a.toLowerCase().localeCompare(b.toLowerCase()));
        if (name && vars.length === 0) { c.ps.writeError(pathError(c, `Env:\\${name}`)); continue; }
        for (const [k, v] of vars) c.out.emit(new PsObject(['System.Collections.DictionaryEntry'], { Name: k, Value: v }));
        continue;
      }
      const wildcard = /[*?]/.test(p.replace(/^.*[\\/]/, ''));
      const abs = resolvePath(c, wildcard ? p.replace(/[\\/][^\\/]*$/, '') || '.' : p);
      const node = fs.stat(abs);
      if (!node) { c.ps.writeError(pathError(c, abs)); continue; }
      const filter = wildcard ? p.replace(/^.*[\\/]/, '') : has(c, 'Filter') ? toStr(arg(c, 'Filter')) : undefined;
      const re = filter ? new RegExp(`^${filter.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i') : undefined;
      const walk = (dir: string, rel: string) => {
        const kids = fs.readdir(dir).filter((k) => has(c, 'Force') || !(k.name.startsWith('..') || /^(ProgramData|WcSandboxState)$/i.test(k.name))).sort((a, b) => (a.kind === 'dir' ? 0 : 1) - (b.kind === 'dir' ? 0 : 1) || a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
        for (const k of kids) {
          const full = fs.resolve(dir, k.name);
          const ok = (!re || re.test(k.name)) && !(has(c, 'File') && k.kind === 'dir') && !(has(c, 'Directory') && k.kind !== 'dir');
          if (ok) c.out.emit(has(c, 'Name') ? (rel ? `${rel}\\${k.name}` : k.name) : new FsItem(k, full, dir));
        }
        if (has(c, 'Recurse')) for (const k of kids) if (k.kind === 'dir') walk(fs.resolve(dir, k.name), rel ? `${rel}\\${k.name}` : k.name);
      };
      if (node.kind === 'dir') walk(abs, '');
      else c.out.emit(has(c, 'Name') ? node.name : new FsItem(node, abs, fs.resolve(abs, '..')));
    }
  },
};

const getContent: Cmdlet = {
  name: 'Get-Content',
  params: [{ name: 'Path', aliases: ['LiteralPath', 'PSPath', 'FullName'], position: 0, pipeline: true }, { name: 'Raw', switch: true }, { name: 'Tail', aliases: ['Last'] }, { name: 'TotalCount', aliases: ['First', 'Head'] }, { name: 'Wait', switch: true }, { name: 'Encoding' }],
  async run(c) {
    const fs = c.ps.ctx.env.fs;
    const paths = has(c, 'Path') ? enumerate(arg(c, 'Path')) : c.bound.input ?? [];
    for (const p of paths) {
      const abs = p instanceof FsItem ? p.fullName : resolvePath(c, p);
      const node = fs.stat(abs);
      if (!node) { c.ps.writeError(pathError(c, abs)); continue; }
      if (node.kind === 'dir') { c.ps.writeError(new PsError(`Unable to get content because it is a directory: '${abs}'. Please use 'Get-ChildItem' instead.`, 'InvalidOperation', `GetContentReaderUnauthorizedAccessError,${cmdletFqid(c.name)}`, { command: c.name, target: abs, exceptionType: 'UnauthorizedAccessException' })); continue; }
      const text = decode(fs.readFile(abs, c.ps.ctx.cred));
      if (has(c, 'Raw')) { c.out.emit(text); continue; }
      let ls = lines(text);
      if (has(c, 'TotalCount')) ls = ls.slice(0, toNum(arg(c, 'TotalCount')));
      if (has(c, 'Tail')) ls = ls.slice(Math.max(0, ls.length - toNum(arg(c, 'Tail'))));
      for (const l of ls) c.out.emit(l);
      if (has(c, 'Wait')) await new Promise((_, rej) => c.ps.ctx.signal.addEventListener('abort', () => rej(c.ps.ctx.signal.reason), { once: true }));
    }
  },
};

function setContent(name: 'Set-Content' | 'Add-Content'): Cmdlet {
  return {
    name,
    params: [{ name: 'Path', aliases: ['LiteralPath', 'PSPath'], position: 0 }, { name: 'Value', position: 1, remaining: true }, { name: 'NoNewline', switch: true }, { name: 'Encoding' }, { name: 'Force', switch: true }],
    async run(c) {
      const values = has(c, 'Value') ? enumerate(arg(c, 'Value')) : c.bound.input ?? [];
      const text = values.map(toStr).join(has(c, 'NoNewline') ? '' : '\r\n') + (has(c, 'NoNewline') || values.length === 0 ? '' : '\r\n');
      const enc = toStr(arg(c, 'Encoding')).toLowerCase();
      for (const p of enumerate(arg(c, 'Path'))) {
        const abs = resolvePath(c, p);
        if (!c.ps.ctx.env.fs.stat(c.ps.ctx.env.fs.resolve(abs, '..'))) {
          c.ps.writeError(new PsError(`Could not find a part of the path '${abs}'.`, 'ObjectNotFound', `GetContentWriterDirectoryNotFoundError,${cmdletFqid(c.name)}`, { command: c.name, target: abs, exceptionType: 'DirectoryNotFoundException' }));
          continue;
        }
        try {
          c.ps.ctx.env.fs.writeFile(abs, Buffer.from(text, enc === 'unicode' ? 'utf16le' : 'utf8'), { append: name === 'Add-Content', cred: c.ps.ctx.cred });
        } catch {
          c.ps.writeError(new PsError(`Access to the path '${abs}' is denied.`, 'PermissionDenied', `GetContentWriterUnauthorizedAccessError,${cmdletFqid(c.name)}`, { command: c.name, target: abs, exceptionType: 'UnauthorizedAccessException' }));
        }
      }
    },
  };
}

const outFile: Cmdlet = {
  name: 'Out-File',
  params: [{ name: 'FilePath', aliases: ['Path'], position: 0 }, { name: 'Append', switch: true }, { name: 'Encoding', position: 1 }, { name: 'InputObject' }, { name: 'NoNewline', switch: true }, { name: 'Force', switch: true }, { name: 'Width' }],
  async run(c) {
    const values = has(c, 'InputObject') ? enumerate(arg(c, 'InputObject')) : c.bound.input ?? [];
    const enc = toStr(arg(c, 'Encoding')).toLowerCase();
    c.ps.writeFile(toStr(arg(c, 'FilePath')), formatToString(values), has(c, 'Append'), 'Out-File', enc === 'utf8' ? 'utf8' : enc === 'ascii' ? 'ascii' : 'unicode');
  },
};

const newItem: Cmdlet = {
  name: 'New-Item',
  params: [{ name: 'Path', position: 0 }, { name: 'Name' }, { name: 'ItemType', aliases: ['Type'] }, { name: 'Value' }, { name: 'Force', switch: true }],
  async run(c) {
    const fs = c.ps.ctx.env.fs;
    let abs = resolvePath(c, has(c, 'Path') ? arg(c, 'Path') : '.');
    if (has(c, 'Name')) abs = fs.resolve(abs, toStr(arg(c, 'Name')));
    const dir = /^dir/i.test(toStr(arg(c, 'ItemType')));
    const exists = fs.stat(abs);
    if (exists && !has(c, 'Force')) {
      c.ps.writeError(new PsError(dir ? `An item with the specified name ${abs} already exists.` : `The file '${abs}' already exists.`, 'ResourceExists', `${dir ? 'DirectoryExist' : 'NewItemIOError'},${cmdletFqid(c.name)}`, { command: c.name, target: abs, exceptionType: 'IOException' }));
      return;
    }
    try {
      if (dir) { if (!exists) fs.mkdir(abs, { parents: true, cred: c.ps.ctx.cred }); }
      else fs.writeFile(abs, has(c, 'Value') ? toStr(arg(c, 'Value')) : '', { cred: c.ps.ctx.cred });
    } catch {
      c.ps.writeError(new PsError(`Access to the path '${abs}' is denied.`, 'PermissionDenied', `NewItemUnauthorizedAccessError,${cmdletFqid(c.name)}`, { command: c.name, target: abs, exceptionType: 'UnauthorizedAccessException' }));
      return;
    }
    c.out.emit(new FsItem(fs.stat(abs)!, abs, fs.resolve(abs, '..')));
  },
};

const removeItem: Cmdlet = {
  name: 'Remove-Item',
  params: [{ name: 'Path', aliases: ['LiteralPath', 'PSPath'], position: 0 }, { name: 'Recurse', switch: true }, { name: 'Force', switch: true }],
  async run(c) {
    const fs = c.ps.ctx.env.fs;
    for (const p of enumerate(has(c, 'Path') ? arg(c, 'Path') : c.bound.input ?? [])) {
      // The Environment provider: `Remove-Item env:NAME` unsets a process variable.
      const envName = typeof p === 'string' ? /^env:(.+)$/i.exec(p)?.[1] : undefined;
      if (envName !== undefined) {
        const key = Object.keys(c.ps.ctx.vars).find((k) => k.toLowerCase() === envName.toLowerCase());
        if (key === undefined) c.ps.writeError(new PsError(`Cannot find path 'Env:\\${envName}' because it does not exist.`, 'ObjectNotFound', `PathNotFound,${cmdletFqid(c.name)}`, { command: c.name, target: `Env:\\${envName}`, exceptionType: 'ItemNotFoundException' }));
        else delete c.ps.ctx.vars[key];
        continue;
      }
      const abs = p instanceof FsItem ? p.fullName : resolvePath(c, p);
      if (!fs.lstat(abs)) { c.ps.writeError(pathError(c, abs)); continue; }
      try { fs.removeTree(abs, c.ps.ctx.cred); } catch {
        c.ps.writeError(new PsError(`Access to the path '${abs}' is denied.`, 'PermissionDenied', `RemoveFileSystemItemUnAuthorizedAccess,${cmdletFqid(c.name)}`, { command: c.name, target: abs, exceptionType: 'UnauthorizedAccessException' }));
      }
    }
  },
};

const testPath: Cmdlet = {
  name: 'Test-Path',
  params: [{ name: 'Path', aliases: ['LiteralPath'], position: 0 }, { name: 'PathType' }, { name: 'IsValid', switch: true }],
  async run(c) {
    for (const p of enumerate(arg(c, 'Path'))) {
      const n = c.ps.ctx.env.fs.stat(resolvePath(c, p));
      const t = toStr(arg(c, 'PathType')).toLowerCase();
      c.out.emit(!!n && (t === 'leaf' ? n.kind === 'file' : t === 'container' ? n.kind === 'dir' : true));
    }
  },
};

const getLocation: Cmdlet = {
  name: 'Get-Location',
  params: [],
  async run(c) { c.out.emit(new PsObject(['System.Management.Automation.PathInfo'], { Path: c.ps.ctx.cwd })); },
};

const setLocation: Cmdlet = {
  name: 'Set-Location',
  params: [{ name: 'Path', aliases: ['LiteralPath'], position: 0 }],
  async run(c) {
    const abs = resolvePath(c, has(c, 'Path') ? arg(c, 'Path') : c.ps.ctx.vars.USERPROFILE ?? 'C:\\');
    const n = c.ps.ctx.env.fs.stat(abs);
    if (!n || n.kind !== 'dir') { c.ps.writeError(pathError(c, abs)); return; }
    c.ps.ctx.cwd = c.ps.ctx.env.fs.realpath(abs);
  },
};

export const FS_CMDLETS: Cmdlet[] = [getChildItem, getContent, setContent('Set-Content'), setContent('Add-Content'), outFile, newItem, removeItem, testPath, getLocation, setLocation];
