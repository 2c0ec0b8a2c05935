// sc.exe query|queryex|qc|start|stop <service>: the Service Control Manager's command line, in its own output layout
// and with the SCM's Win32 error numbers as exit codes (1060 no such service, 1062 not started, 1056 already running,
// 1051 running dependents). A HostProcess container reaches the node's SCM; an ordinary one has none of its services.

import type { Ctx } from '../core/ctx.js';
import type { HostServiceStatus, ServiceControlError } from '../interfaces.js';

const ERRORS: Record<ServiceControlError, [number, string]> = {
  'not-found': [1060, 'The specified service does not exist as an installed service.'],
  'not-active': [1062, 'The service has not been started.'],
  'already-running': [1056, 'An instance of the service is already running.'],
  'dependent-running': [1051, 'A stop control has been sent to a service that other running services are dependent on.'],
  'access-denied': [5, 'Access is denied.'],
};

const STATES: Record<string, string> = { Stopped: '1  STOPPED', StartPending: '2  START_PENDING', StopPending: '3  STOP_PENDING', Running: '4  RUNNING' };

/** The SERVICE_STATUS block; a state other than STOPPED shows the accepted controls. */
function statusBlock(s: HostServiceStatus, state: HostServiceStatus['state'], ex: boolean, waitHint = 0): string[] {
  const lines = [
    `SERVICE_NAME: ${s.name}`,
    `        TYPE               : ${s.type.toString(16)}  WIN32_OWN_PROCESS`,
    `        STATE              : ${STATES[state]}`,
  ];
  if (state === 'Running') lines.push('                                (STOPPABLE, NOT_PAUSABLE, ACCEPTS_SHUTDOWN)');
  else if (state !== 'Stopped') lines.push('                                (NOT_STOPPABLE, NOT_PAUSABLE, IGNORES_SHUTDOWN)');
  lines.push(
    `        WIN32_EXIT_CODE    : ${s.win32ExitCode}  (0x${s.win32ExitCode.toString(16)})`,
    '        SERVICE_EXIT_CODE  : 0  (0x0)',
    '        CHECKPOINT         : 0x0',
    `        WAIT_HINT          : 0x${waitHint.toString(16)}`,
  );
  if (ex) lines.push(`        PID                : ${state === 'Stopped' ? 0 : s.pid}`, '        FLAGS              :');
  return lines;
}

function fail(ctx: Ctx, api: string, e: ServiceControlError): number {
  const [code, text] = ERRORS[e];
  ctx.stdout.write(`[SC] ${api} FAILED ${code}:\r\n\r\n${text}\r\n\r\n`);
  return code;
}

export async function scExe(argv: string[], ctx: Ctx): Promise<number> {
  const [verb = '', name] = [argv[1]?.toLowerCase(), argv[2]];
  const scm = ctx.env.hostServices;
  const out = (lines: string[]) => ctx.stdout.write(`\r\n${lines.join('\r\n')}\r\n`);
  if (!['query', 'queryex', 'qc', 'start', 'stop'].includes(verb) || (verb !== 'query' && verb !== 'queryex' && !name)) {
    ctx.stdout.write('DESCRIPTION:\r\n        SC is a command line program used for communicating with the\r\n        Service Control Manager and services.\r\nUSAGE:\r\n        sc <server> [command] [service name] <option1> <option2>...\r\n');
    return verb ? 1639 : 0;
  }
  if (!name) {
    for (const s of (scm?.list() ?? []).filter((x) => x.state === 'Running')) out([...statusBlock(s, s.state, verb === 'queryex'), '']);
    return 0;
  }
  const s = scm?.query(name);
  if (!s) return fail(ctx, verb === 'query' || verb === 'queryex' ? 'EnumQueryServicesStatus:OpenService' : 'OpenService', 'not-found');
  switch (verb) {
    case 'query':
    case 'queryex':
      out(statusBlock(s, s.state, verb === 'queryex'));
      return 0;
    case 'qc':
      ctx.stdout.write('[SC] QueryServiceConfig SUCCESS\r\n\r\n');
      out([
        `SERVICE_NAME: ${s.name}`,
        `        TYPE               : ${s.type.toString(16)}  WIN32_OWN_PROCESS`,
        `        START_TYPE         : ${s.startType === 'Automatic' ? '2   AUTO_START' : s.startType === 'Manual' ? '3   DEMAND_START' : '4   DISABLED'}`,
        '        ERROR_CONTROL      : 1   NORMAL',
        `        BINARY_PATH_NAME   : ${s.binaryPath}`,
        '        LOAD_ORDER_GROUP   :',
        '        TAG                : 0',
        `        DISPLAY_NAME       : ${s.displayName}`,
        `        DEPENDENCIES       : ${s.dependsOn.join('\r\n                           : ')}`,
        '        SERVICE_START_NAME : LocalSystem',
      ]);
      return 0;
    case 'stop': {
      const e = scm!.stop(s.name);
      if (e) return fail(ctx, 'ControlService', e);
      // The stop control returns at once with the service on its way down.
      out(statusBlock(s, 'StopPending', false));
      return 0;
    }
    default: {
      const e = scm!.start(s.name);
      if (e) return fail(ctx, 'StartService', e);
      out(statusBlock({ ...s, pid: scm!.query(s.name)?.pid ?? s.pid }, 'StartPending', true, 0x7d0));
      return 0;
    }
  }
}
