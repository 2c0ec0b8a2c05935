// Path helpers and background jobs: Join-Path, Split-Path, Copy/Move/Rename-Item, Get-Random, Read-Host, and
// Start-Job / Get-Job / Wait-Job / Receive-Job (the e2e CPU-limit pods park in `Get-Job | Wait-Job`). Also the
// Windows PowerShell 5.1 cmdlets the emulation knows exist but does not implement.

import { Aborted, abortReason } from '../core/ctx.js';
import { cmdletFqid, type Cmdlet, type CmdletCall } from './cmdlet-api.js';
import { registerView } from './format.js';
import { enumerate, PsError, PsObject, ScriptBlock, toNum, toStr, type PsValue } from './values.js';

const arg = (c: CmdletCall, n: string): PsValue => c.bound.get(n) ?? null;
const has = (c: CmdletCall, n: string) => c.bound.has(n);

const joinPath: Cmdlet = {
  name: 'Join-Path',
  params: [{ name: 'Path', position: 0 }, { name: 'ChildPath', position: 1 }, { name: 'AdditionalChildPath', position: 2, remaining: true }],
  async run(c) {
    const parts = [toStr(arg(c, 'Path')), toStr(arg(c, 'ChildPath')), ...enumerate(arg(c, 'AdditionalChildPath')).map(toStr)];
    c.out.emit(parts.filter((p) => p !== '').reduce((a, b) => `${a.replace(/[\\/]+$/, '')}\\${b.replace(/^[\\/]+/, '')}`));
  },
};

const splitPath: Cmdlet = {
  name: 'Split-Path',
  params: [{ name: 'Path', position: 0 }, { name: 'Leaf', switch: true }, { name: 'Parent', switch: true }, { name: 'Qualifier', switch: true }],
  async run(c) {
    const p = toStr(arg(c, 'Path')).replace(/[\\/]+$/, '');
    if (has(c, 'Leaf')) c.out.emit(p.replace(/^.*[\\/]/, ''));
    else if (has(c, 'Qualifier')) c.out.emit(/^[A-Za-z]:/.exec(p)?.[0] ?? '');
    else {
      const i = Math.max(p.lastIndexOf('\\'), p.lastIndexOf('/'));
      c.out.emit(i < 0 ? '' : i === 2 && /^[A-Za-z]:/.test(p) ? p.slice(0, 3) : p.slice(0, i));
    }
  },
};

function itemMove(name: 'Copy-Item' | 'Move-Item' | 'Rename-Item'): Cmdlet {
  return {
    name,
    params: [{ name: 'Path', aliases: ['LiteralPath'], position: 0 }, { name: 'Destination', aliases: ['NewName'], position: 1 }, { name: 'Recurse', switch: true }, { name: 'Force', switch: true }],
    async run(c) {
      const fs = c.ps.ctx.env.fs;
      const given = fs.resolve(c.ps.ctx.cwd, toStr(arg(c, 'Path')));
      // A wildcard in the last segment copies/moves every match (`Copy-Item "$root/cni/*" $env:CNI_BIN_PATH`).
      const leaf = given.replace(/^.*\\/, '');
      const sources = name !== 'Rename-Item' && /[*?]/.test(leaf) && fs.stat(given.slice(0, -leaf.length - 1))?.kind === 'dir'
        ? fs.readdir(given.slice(0, -leaf.length - 1)).filter((n) => wildcardRe(leaf).test(n.name)).map((n) => `${given.slice(0, -leaf.length)}${n.name}`)
        : [given];
      for (const src of sources) moveOne(c, src);
    },
  };
  function moveOne(c: CmdletCall, src: string): void {
      const fs = c.ps.ctx.env.fs;
      const node = fs.stat(src);
      if (!node) {
        c.ps.writeError(new PsError(`Cannot find path '${src}' because it does not exist.`, 'ObjectNotFound', `PathNotFound,${cmdletFqid(name)}`, { command: name, target: src, exceptionType: 'ItemNotFoundException' }));
        return;
      }
      let dst = name === 'Rename-Item' ? fs.resolve(fs.resolve(src, '..'), toStr(arg(c, 'Destination'))) : fs.resolve(c.ps.ctx.cwd, toStr(arg(c, 'Destination')));
      if (name !== 'Rename-Item' && fs.stat(dst)?.kind === 'dir') dst = fs.resolve(dst, node.name);
      try {
        if (name === 'Copy-Item') {
          if (node.kind !== 'file') throw new Error('dir');
          // A copied program stays that program (the emulated binary is its tag).
          const copy = fs.writeFile(dst, fs.readFile(src, c.ps.ctx.cred), { cred: c.ps.ctx.cred });
          if (node.program) copy.program = node.program;
        } else fs.rename(src, dst, c.ps.ctx.cred);
      } catch {
        c.ps.writeError(new PsError(`Access to the path '${dst}' is denied.`, 'PermissionDenied', `${name.replace('-', '')}UnauthorizedAccessError,${cmdletFqid(name)}`, { command: name, target: dst, exceptionType: 'UnauthorizedAccessException' }));
      }
  }
}

/** PowerShell wildcards (`*`, `?`), case-insensitive. */
function wildcardRe(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
}

const getRandom: Cmdlet = {
  name: 'Get-Random',
  params: [{ name: 'Maximum', position: 0 }, { name: 'Minimum' }, { name: 'InputObject' }, { name: 'Count' }],
  async run(c) {
    if (has(c, 'InputObject')) {
      const items = enumerate(arg(c, 'InputObject'));
      c.out.emit(items[Math.floor(Math.random() * items.length)] ?? null);
      return;
    }
    const min = has(c, 'Minimum') ? toNum(arg(c, 'Minimum')) : 0;
    const max = has(c, 'Maximum') ? toNum(arg(c, 'Maximum')) : 2147483647;
    c.out.emit(min + Math.floor(Math.random() * Math.max(1, max - min)));
  },
};

const readHost: Cmdlet = {
  name: 'Read-Host',
  params: [{ name: 'Prompt', position: 0 }, { name: 'AsSecureString', switch: true }],
  async run(c) {
    if (has(c, 'Prompt')) c.ps.writeHost(`${toStr(arg(c, 'Prompt'))}: `);
    const line = await c.ps.ctx.stdin.readLine();
    c.out.emit(line === null ? '' : line.replace(/\r$/, ''));
  },
};

interface Job { id: number; name: string; state: 'Running' | 'Completed' | 'Failed'; output: PsValue[]; done: Promise<void>; command: string }
const JOBS = new WeakMap<object, Job[]>();

function jobsOf(c: CmdletCall): Job[] {
  let list = JOBS.get(c.ps);
  if (!list) { list = []; JOBS.set(c.ps, list); }
  return list;
}

function jobObject(j: Job): PsObject {
  return new PsObject(['System.Management.Automation.PSRemotingJob'], { Id: j.id, Name: j.name, PSJobTypeName: 'BackgroundJob', State: j.state, HasMoreData: j.output.length > 0, Location: 'localhost', Command: j.command });
}

registerView('System.Management.Automation.PSRemotingJob', {
  kind: 'table',
  columns: [{ name: 'Id', width: 2, align: 'right' }, { name: 'Name', width: 13 }, { name: 'PSJobTypeName', width: 13 }, { name: 'State', width: 13 }, { name: 'HasMoreData', width: 11 }, { name: 'Location', width: 20 }, { name: 'Command' }],
});

const startJob: Cmdlet = {
  name: 'Start-Job',
  params: [{ name: 'ScriptBlock', position: 0 }, { name: 'Name' }, { name: 'ArgumentList' }],
  async run(c) {
    const block = arg(c, 'ScriptBlock');
    if (!(block instanceof ScriptBlock)) throw new PsError('Cannot bind parameter \'ScriptBlock\'.', 'InvalidArgument', `CannotConvertArgumentNoMessage,${cmdletFqid(c.name)}`, { command: c.name, exceptionType: 'ParameterBindingException' });
    const list = jobsOf(c);
    const id = list.length * 2 + 1;
    const job: Job = { id, name: has(c, 'Name') ? toStr(arg(c, 'Name')) : `Job${id}`, state: 'Running', output: [], done: Promise.resolve(), command: block.text.trim() };
    job.done = c.ps.callBlock(block, enumerate(arg(c, 'ArgumentList')), undefined, { emit: (v) => job.output.push(v) })
      .then(() => { job.state = 'Completed'; }, (e: unknown) => { job.state = e instanceof Aborted ? 'Failed' : 'Failed'; });
    list.push(job);
    c.out.emit(jobObject(job));
  },
};

const getJob: Cmdlet = {
  name: 'Get-Job',
  params: [{ name: 'Id', position: 0 }],
  async run(c) { for (const j of jobsOf(c)) if (!has(c, 'Id') || toNum(arg(c, 'Id')) === j.id) c.out.emit(jobObject(j)); },
};

const waitJob: Cmdlet = {
  name: 'Wait-Job',
  params: [{ name: 'Job', position: 0 }, { name: 'Id' }, { name: 'Timeout' }],
  async run(c) {
    const ids = enumerate(has(c, 'Job') ? arg(c, 'Job') : c.bound.input ?? []).map((j) => toNum((j as PsObject).getProp?.('Id') ?? j));
    const jobs = jobsOf(c).filter((j) => ids.length === 0 || ids.includes(j.id));
    const signal = c.ps.ctx.signal;
    await Promise.race([
      Promise.all(jobs.map((j) => j.done)),
      new Promise<never>((_, rej) => signal.addEventListener('abort', () => rej(new Aborted(abortReason(signal))), { once: true })),
    ]);
    for (const j of jobs) c.out.emit(jobObject(j));
  },
};

const receiveJob: Cmdlet = {
  name: 'Receive-Job',
  params: [{ name: 'Job', position: 0 }, { name: 'Id' }, { name: 'Wait', switch: true }, { name: 'Keep', switch: true }],
  async run(c) {
    const ids = enumerate(has(c, 'Job') ? arg(c, 'Job') : c.bound.input ?? []).map((j) => toNum((j as PsObject).getProp?.('Id') ?? j));
    for (const j of jobsOf(c).filter((x) => ids.length === 0 || ids.includes(x.id))) {
      if (has(c, 'Wait')) await j.done;
      for (const v of j.output) c.out.emit(v);
      if (!has(c, 'Keep')) j.output = [];
    }
  },
};

export const JOB_CMDLETS: Cmdlet[] = [joinPath, splitPath, itemMove('Copy-Item'), itemMove('Move-Item'), itemMove('Rename-Item'), getRandom, readHost, startJob, getJob, waitJob, receiveJob];
export const JOB_ALIASES: Record<string, string> = { cp: 'copy-item', copy: 'copy-item', cpi: 'copy-item', mv: 'move-item', move: 'move-item', mi: 'move-item', ren: 'rename-item', rni: 'rename-item', sajb: 'start-job', gjb: 'get-job', wjb: 'wait-job', rcjb: 'receive-job' };

/** Cmdlets Windows PowerShell 5.1 on Server Core has that the emulation does not run: they fail with winkube's message. */
export const UNAVAILABLE_CMDLETS = new Set([
  'get-service', 'start-service', 'stop-service', 'restart-service', 'set-service', 'new-service', 'get-eventlog', 'get-winevent', 'write-eventlog',
  'get-wmiobject', 'get-ciminstance', 'invoke-cimmethod', 'get-command', 'get-help', 'get-member', 'get-item', 'get-itemproperty',
  'set-itemproperty', 'new-itemproperty', 'select-string', 'start-process', 'stop-process', 'wait-process', 'get-computerinfo', 'get-host',
  'get-variable', 'set-variable', 'new-variable', 'remove-variable', 'get-netroute', 'get-dnsclientserveraddress', 'get-dnsclient',
  'set-dnsclientserveraddress', 'get-nettcpconnection', 'get-netfirewallrule', 'new-netfirewallrule', 'add-type', 'get-acl', 'set-acl',
  'get-localuser', 'new-localuser', 'add-localgroupmember', 'get-localgroup', 'compare-object', 'group-object', 'tee-object', 'export-csv',
  'import-csv', 'convertto-csv', 'convertfrom-csv', 'convertto-securestring', 'get-credential', 'get-filehash', 'expand-archive',
  'compress-archive', 'get-culture', 'get-timezone', 'set-timezone', 'install-windowsfeature', 'get-windowsfeature', 'add-windowsfeature',
  'install-module', 'install-packageprovider', 'register-scheduledtask', 'get-counter', 'resolve-path', 'get-psdrive', 'get-module',
  'set-alias', 'new-alias', 'restart-computer', 'rename-computer', 'add-computer', 'test-computersecurechannel', 'invoke-command',
  'enter-pssession', 'new-pssession', 'get-netipconfiguration', 'set-netipaddress', 'new-netipaddress', 'get-netipinterface',
]);
