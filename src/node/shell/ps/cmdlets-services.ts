// The service cmdlets of Windows PowerShell 5.1 (Get-Service, Start-/Stop-/Restart-Service) and Stop-Process for a
// service's process, against the SCM a HostProcess container sees (ContainerEnv.hostServices); an ordinary container
// has no node services, so the names are not found there.

import { cmdletFqid, type Cmdlet, type CmdletCall } from './cmdlet-api.js';
import { registerView } from './format.js';
import { enumerate, PsError, PsObject, toStr, type PsValue } from './values.js';
import { wildcardToRegex } from './operators.js';
import type { HostServiceStatus } from '../interfaces.js';

const SERVICE_TYPE = 'System.ServiceProcess.ServiceController';

registerView(SERVICE_TYPE, {
  kind: 'table',
  columns: [
    { name: 'Status', width: 8 },
    { name: 'Name', width: 18 },
    { name: 'DisplayName' },
  ],
});

function serviceObject(s: HostServiceStatus): PsObject {
  return new PsObject([SERVICE_TYPE], {
    Status: s.state, Name: s.name, DisplayName: s.displayName, ServiceName: s.name, StartType: s.startType,
    ServicesDependedOn: s.dependsOn, CanStop: s.state === 'Running', ServiceType: 'Win32OwnProcess',
  });
}

const names = (c: CmdletCall): string[] => {
  const v: PsValue = c.bound.get('Name') ?? c.bound.input?.map((x) => (x instanceof PsObject ? x.getProp('Name') ?? null : x)) ?? null;
  return enumerate(v).map((x) => toStr(x));
};

/** The SCM's services; a plain container has none of the node's. */
const servicesOf = (c: CmdletCall) => c.ps.ctx.env.hostServices?.list() ?? [];

function notFound(c: CmdletCall, name: string): PsError {
  return new PsError(`Cannot find any service with service name '${name}'.`, 'ObjectNotFound', `NoServiceFoundForGivenName,${cmdletFqid(c.name)}`, { command: c.name, target: name, exceptionType: 'ServiceCommandException', pos: c.pos, end: c.end });
}

/** Resolves -Name patterns to services, writing the not-found errors Get-Service writes for plain names. */
function resolve(c: CmdletCall): HostServiceStatus[] {
  const all = servicesOf(c);
  const want = names(c);
  if (!want.length) return all;
  const out: HostServiceStatus[] = [];
  for (const n of want) {
    const re = wildcardToRegex(n, true);
    const hit = all.filter((s) => re.test(s.name) || re.test(s.displayName));
    if (!hit.length && !/[*?[]/.test(n)) c.ps.writeError(notFound(c, n));
    out.push(...hit);
  }
  return out;
}

const getService: Cmdlet = {
  name: 'Get-Service',
  params: [{ name: 'Name', aliases: ['ServiceName'], position: 0, pipeline: true }, { name: 'DisplayName' }],
  async run(c) {
    for (const s of resolve(c)) c.out.emit(serviceObject(s));
  },
};

const startService: Cmdlet = {
  name: 'Start-Service',
  params: [{ name: 'Name', aliases: ['ServiceName'], position: 0, pipeline: true }, { name: 'PassThru', switch: true }],
  async run(c) {
    const scm = c.ps.ctx.env.hostServices;
    for (const s of resolve(c)) {
      scm?.start(s.name);
      if (c.bound.has('PassThru')) c.out.emit(serviceObject(scm?.query(s.name) ?? s));
    }
  },
};

/** Stop-Service: a service others depend on stops only with -Force, which stops the dependents first. */
const stopService = (name: string): Cmdlet => ({
  name,
  params: [{ name: 'Name', aliases: ['ServiceName'], position: 0, pipeline: true }, { name: 'Force', switch: true }, { name: 'PassThru', switch: true }],
  async run(c) {
    const scm = c.ps.ctx.env.hostServices;
    if (!scm) { resolve(c); return; }
    for (const s of resolve(c)) {
      const deps = servicesOf(c).filter((d) => d.state === 'Running' && d.dependsOn.some((x) => x.toLowerCase() === s.name.toLowerCase()));
      if (deps.length && !c.bound.has('Force')) {
        c.ps.writeError(new PsError(`Cannot stop service '${s.displayName} (${s.name})' because it has dependent services. It can only be stopped if the Force flag is set.`, 'InvalidOperation', `ServiceHasDependentServices,${cmdletFqid(c.name)}`, { command: c.name, target: s.name, exceptionType: 'ServiceCommandException', pos: c.pos, end: c.end }));
        continue;
      }
      for (const d of deps) scm.stop(d.name);
      scm.stop(s.name);
      if (name === 'Restart-Service') {
        scm.start(s.name);
        for (const d of deps) scm.start(d.name);
      }
      if (c.bound.has('PassThru')) c.out.emit(serviceObject(scm.query(s.name) ?? s));
    }
  },
});

/** Stop-Process for a node service's process: the SCM sees it die and its recovery restarts it. */
const stopProcess: Cmdlet = {
  name: 'Stop-Process',
  params: [{ name: 'Name', aliases: ['ProcessName'], pipeline: true }, { name: 'Id', position: 0 }, { name: 'Force', switch: true }, { name: 'PassThru', switch: true }],
  async run(c) {
    const scm = c.ps.ctx.env.hostServices;
    const all = servicesOf(c).filter((s) => s.state === 'Running');
    const byName = c.bound.has('Name') ? names(c) : [];
    const byId = c.bound.has('Id') ? enumerate(c.bound.get('Id') ?? null).map((x) => Number(toStr(x))) : [];
    for (const n of byName) {
      const s = all.find((x) => x.name.toLowerCase() === n.replace(/\.exe$/i, '').toLowerCase());
      if (s && scm) scm.kill(s.name);
      else c.ps.writeError(new PsError(`Cannot find a process with the name "${n}". Verify the process name and call the cmdlet again.`, 'ObjectNotFound', `NoProcessFoundForGivenName,${cmdletFqid(c.name)}`, { command: c.name, target: n, exceptionType: 'ProcessCommandException', pos: c.pos, end: c.end }));
    }
    for (const id of byId) {
      const s = all.find((x) => x.pid === id);
      if (s && scm) scm.kill(s.name);
      else c.ps.writeError(new PsError(`Cannot find a process with the process identifier ${id}.`, 'ObjectNotFound', `NoProcessFoundForGivenId,${cmdletFqid(c.name)}`, { command: c.name, target: String(id), exceptionType: 'ProcessCommandException', pos: c.pos, end: c.end }));
    }
  },
};

const COMPUTE_TYPE = 'Microsoft.Windows.ComputeVirtualization.ComputeProcess';
registerView(COMPUTE_TYPE, { kind: 'table', columns: [{ name: 'Id', width: 64 }, { name: 'Type', width: 16 }, { name: 'Owner' }] });

/**
 * Get-ComputeProcess (HostComputeService module): the node's HCS compute systems — containers and Hyper-V utility VMs.
 * Only a HostProcess container sees the host's; elsewhere there are none.
 */
const getComputeProcess: Cmdlet = {
  name: 'Get-ComputeProcess',
  params: [{ name: 'Id', position: 0 }],
  async run(c) {
    const want = c.bound.get('Id');
    for (const s of c.ps.ctx.env.hostCompute?.() ?? []) {
      if (want !== undefined && want !== null && toStr(want).toLowerCase() !== s.id.toLowerCase()) continue;
      c.out.emit(new PsObject([COMPUTE_TYPE], { Id: s.id, Type: s.type, Owner: s.owner, IsTemplate: false }));
    }
  },
};

export const SERVICE_CMDLETS: Cmdlet[] = [getService, startService, stopService('Stop-Service'), stopService('Restart-Service'), stopProcess, getComputeProcess];
export const SERVICE_ALIASES: Record<string, string> = { gsv: 'get-service', sasv: 'start-service', spsv: 'stop-service', kill: 'stop-process', spps: 'stop-process' };
