// The Windows node's services as its service control manager runs them: kubelet, kube-proxy and the container
// runtime are native services (seed 000 "Node-level troubleshooting" Q2: `sc.exe create …`, Start-/Stop-/Get-Service,
// "re-starting the services automatically in the event of failure (for example a process crash)"). A HostProcess
// container sees them; stopping the kubelet stops its heartbeats, so the node lifecycle controller marks it NotReady.

import type { HostServices, HostServiceStatus, ServiceControlError } from '../../shell/interfaces.js';
import type { Clock, Timer } from '../../../util/clock.js';
import type { NodeProfile } from '../../profile.js';
import { CSI_PROXY_SERVICE, csiProxyVersion } from '../../../csi/csi-proxy.js';

/** What stopping and starting a service does to the component behind it. */
export interface ServiceHooks {
  start(): void;
  stop(): void;
}

/** SCM recovery for the node's services: restart after this long (sc.exe failure <svc> actions= restart/5000). */
export const SERVICE_RESTART_DELAY_MS = 5000;
/** ERROR_PROCESS_ABORTED: the Win32 exit code the SCM records when a service's process ends on its own. */
export const ERROR_PROCESS_ABORTED = 1067;

interface Service {
  status: HostServiceStatus;
  hooks?: ServiceHooks;
}

export interface ServiceManagerOptions {
  profile: Pick<NodeProfile, 'containerRuntime' | 'name'> & Partial<Pick<NodeProfile, 'internalIP' | 'network' | 'kubeletVersion' | 'csiProxy'>>;
  clock: Clock;
  /** Components behind the services (the kubelet's heartbeat, kube-proxy's sync loop), by service name. */
  hooks?: Partial<Record<string, ServiceHooks>>;
}

/** The node's SCM: the node services, their states, dependencies and crash recovery. */
export class WindowsServiceManager implements HostServices {
  private readonly services = new Map<string, Service>();
  private readonly restarts = new Map<string, Timer>();
  private nextPid = 4100;

  constructor(private readonly o: ServiceManagerOptions) {
    const runtime = o.profile.containerRuntime === 'docker'
      ? { name: 'docker', displayName: 'Docker Engine', binaryPath: 'C:\\Program Files\\Docker\\dockerd.exe --run-service' }
      : { name: 'containerd', displayName: 'containerd', binaryPath: 'C:\\Program Files\\containerd\\bin\\containerd.exe --run-service' };
    this.add(runtime.name, runtime.displayName, runtime.binaryPath, []);
    this.add('kubelet', 'kubelet', `C:\\k\\kubelet.exe --windows-service --hostname-override=${o.profile.name} --kubeconfig=C:\\k\\config`, [runtime.name]);
    // register-svc.ps1 / sc.exe config kube-proxy depend= kubelet (seed 000/001/002 Q2).
    this.add('kube-proxy', 'kube-proxy', 'C:\\k\\kube-proxy.exe --windows-service --proxy-mode=kernelspace --kubeconfig=C:\\k\\config', ['kubelet']);
    // flanneld with the flags seed 000/001 Q2 lists (nssm register-svc.ps1), where the node runs flannel.
    if ((o.profile.network?.plugin ?? 'flannel') === 'flannel') {
      this.add('flanneld', 'flanneld', `C:\\flannel\\flanneld.exe --kubeconfig-file=C:\\k\\config --iface=${o.profile.internalIP ?? ''} --ip-masq=1 --kube-subnet-mgr=1`, []);
    }
    // csi-proxy as its README installs it (sc.exe create csiproxy … -windows-service), where the node has it.
    if (o.profile.kubeletVersion && csiProxyVersion({ os: 'windows', kubeletVersion: o.profile.kubeletVersion, csiProxy: o.profile.csiProxy })) {
      this.add(CSI_PROXY_SERVICE.name, CSI_PROXY_SERVICE.displayName, CSI_PROXY_SERVICE.binaryPath, []);
    }
  }

  private add(name: string, displayName: string, binaryPath: string, dependsOn: string[]): void {
    this.services.set(name.toLowerCase(), {
      status: { name, displayName, state: 'Running', type: 0x10, startType: 'Automatic', win32ExitCode: 0, pid: this.nextPid++, binaryPath, dependsOn, acceptsStop: true },
      hooks: this.o.hooks?.[name],
    });
  }

  list(): HostServiceStatus[] {
    return [...this.services.values()].map((s) => ({ ...s.status }));
  }

  query(name: string): HostServiceStatus | undefined {
    const s = this.services.get(name.toLowerCase());
    return s ? { ...s.status } : undefined;
  }

  /** Services that depend on `name` and are running (they must stop first). */
  dependents(name: string): string[] {
    return [...this.services.values()].filter((s) => s.status.state === 'Running' && s.status.dependsOn.some((d) => d.toLowerCase() === name.toLowerCase())).map((s) => s.status.name);
  }

  /** StartService: its dependencies start first (the SCM starts them), then the service. */
  start(name: string): ServiceControlError | undefined {
    const s = this.services.get(name.toLowerCase());
    if (!s) return 'not-found';
    if (s.status.state === 'Running') return 'already-running';
    for (const d of s.status.dependsOn) this.start(d);
    this.cancelRestart(s.status.name);
    s.status = { ...s.status, state: 'Running', win32ExitCode: 0, pid: this.nextPid++ };
    s.hooks?.start();
    return undefined;
  }

  /** ControlService(SERVICE_CONTROL_STOP): refused while running services depend on it. */
  stop(name: string): ServiceControlError | undefined {
    const s = this.services.get(name.toLowerCase());
    if (!s) return 'not-found';
    if (s.status.state !== 'Running') return 'not-active';
    if (this.dependents(s.status.name).length) return 'dependent-running';
    this.cancelRestart(s.status.name);
    s.status = { ...s.status, state: 'Stopped', win32ExitCode: 0, pid: 0 };
    s.hooks?.stop();
    return undefined;
  }

  /** The service's process dies (Stop-Process -Force, a crash): the SCM records it and restarts it after the delay. */
  kill(name: string): ServiceControlError | undefined {
    const s = this.services.get(name.toLowerCase());
    if (!s) return 'not-found';
    if (s.status.state !== 'Running') return 'not-active';
    s.status = { ...s.status, state: 'Stopped', win32ExitCode: ERROR_PROCESS_ABORTED, pid: 0 };
    s.hooks?.stop();
    this.cancelRestart(s.status.name);
    this.restarts.set(s.status.name, this.o.clock.setTimeout(() => {
      this.restarts.delete(s.status.name);
      if (s.status.state === 'Stopped') this.start(s.status.name);
    }, SERVICE_RESTART_DELAY_MS));
    return undefined;
  }

  private cancelRestart(name: string): void {
    this.restarts.get(name)?.cancel();
    this.restarts.delete(name);
  }

  /** The node goes away: pending restarts with it. */
  dispose(): void {
    for (const t of this.restarts.values()) t.cancel();
    this.restarts.clear();
  }
}
