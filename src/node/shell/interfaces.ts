// The contract between the kubelet and the emulated container programs: what a container is (ContainerEnv), how a
// program talks to the session (ShellIO) and how it ends (RunResult).

import type { VirtualFs } from './fs/vfs.js';
import type { WindowsEventLog } from './win/event-log.js';

/** Which programs an image ships (the image catalogue's ImageToolset plus the host of a HostProcess container). */
export type Toolset = 'busybox' | 'alpine' | 'debian' | 'distroless' | 'none' | 'servercore' | 'nanoserver' | 'hostprocess';

export interface ContainerUser {
  /** Linux: the passwd name (`root`, `nobody`); Windows: `ContainerUser`, `ContainerAdministrator`, `NT AUTHORITY\SYSTEM`. */
  name: string;
  uid?: number;
  gid?: number;
  groups?: { name: string; gid: number }[];
}

export interface SystemInfo {
  /** Node osImage, e.g. `Windows Server 2019 Datacenter` or `Debian GNU/Linux 12 (bookworm)`. */
  osImage: string;
  /** Node kernel version, e.g. `6.1.0-18-amd64` or `10.0.17763.6893`. */
  kernelVersion: string;
  arch: string;
  /** Windows build of the container image (`10.0.17763`); the host's for process isolation. */
  windowsBuild?: string;
  windowsUBR?: number;
  nodeName: string;
  bootTimeMs: number;
  memoryBytes: number;
  cpus: number;
}

export interface DnsAnswer { name: string; type: string; data: string; ttl: number }
export interface DnsResult {
  answers: DnsAnswer[];
  rcode: 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' | 'TIMEOUT';
  /** The server that answered (an IP). */
  server: string;
  /** True when the server is authoritative for the name (cluster zone); nslookup prints "Non-authoritative answer:" otherwise. */
  authoritative?: boolean;
}

export type ConnectResult = 'open' | 'refused' | 'timeout' | 'unreachable';

export interface HttpClientRequest { method: string; url: string; headers?: Record<string, string>; body?: Buffer }
export interface HttpClientResponse { status: number; headers: Record<string, string>; body: Buffer }
export interface HttpClientError { error: 'refused' | 'timeout' | 'unreachable' | 'resolve'; message?: string }

export interface NetworkView {
  /** The container's interfaces; Windows names look like `vEthernet (<endpoint>)`, Linux ones `eth0`. */
  interfaces: { name: string; ip: string; prefix: number; mac: string; gateway?: string; ipv6?: string }[];
  dns: { nameservers: string[]; search: string[]; ndots?: number };
  /** Asks the cluster DNS one question for one fully qualified name (the caller of lookup applies search lists). */
  lookup(name: string, type: 'A' | 'AAAA' | 'SRV' | 'PTR' | 'CNAME'): Promise<DnsResult>;
  /** A TCP connection to ip:port through the cluster network model. */
  connect(ip: string, port: number): Promise<ConnectResult>;
  /** An HTTP request through the cluster network model (the URL's host is an IP or a name the model resolves). */
  http(req: HttpClientRequest): Promise<HttpClientResponse | HttpClientError>;
  ping(ip: string): Promise<{ rttMs: number; ttl: number } | 'timeout' | 'unreachable'>;
  /**
   * The cluster zone answering one DNS message, as a CoreDNS process computes it from its watch of the API
   * (src/network/dns); undefined = no reply. Only DNS server images use it.
   */
  serveDns?(packet: Buffer, transport: 'udp' | 'tcp'): Promise<Buffer | undefined>;
}

/** One HTTP request reaching a server inside the container. */
export interface HttpRequest {
  method: string;
  /** Path and query, e.g. `/hostname?x=1`. */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  remoteAddress: string;
  remotePort: number;
  /** The address and port the client connected to (the pod IP, or 127.0.0.1 for port-forward). */
  localAddress: string;
  localPort: number;
}
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /**
   * A long-running answer (a watch): after `body`, the program writes more as things happen until it calls `end`;
   * the returned function is called when the client goes first. Only the API server's egress (pod-dial) streams;
   * callers that read whole answers see `body` alone.
   */
  stream?: (out: { write(chunk: string | Buffer): void; end(): void }) => () => void;
}
export type HttpHandler = (req: HttpRequest) => Promise<HttpResponse>;

/** A socket a program inside the container listens on. */
export interface Listener {
  port: number;
  protocol: 'TCP' | 'UDP';
  /** Answers HTTP; absent for servers that only accept connections (redis, `nc -l`). */
  handler?: HttpHandler;
  /**
   * The serving certificate and key (PEM) of a program that speaks HTTPS on this port (a webhook server): connections
   * the API server tunnels here are TLS, checked against the caller's CA bundle.
   */
  tls?: { cert: string; key: string };
  /** The program listening, for `netstat` and events (`nginx`, `powershell.exe`). */
  program: string;
  /** Answers DNS messages (a DNS server's port 53): the query off the wire in, the reply out, undefined = no reply. */
  dns?: (query: Buffer, transport: 'udp' | 'tcp') => Promise<Buffer | undefined>;
}

/** What a container is: its OS, programs, identity, files, network and clock. */
export interface ContainerEnv {
  os: 'linux' | 'windows';
  toolset: Toolset;
  hostname: string;
  user: ContainerUser;
  /** The process environment as the runtime passes it (image ENV + pod env); OS defaults are filled in by runCommand. */
  env: Record<string, string>;
  workingDir: string;
  fs: VirtualFs;
  system: SystemInfo;
  network: NetworkView;
  processes(): { pid: number; name: string; memKB: number; sessionName?: string; user?: string }[];
  /** The credential spec's DomainJoinConfig, for `nltest /PARENTDOMAIN`. */
  gmsa?: { domain: string; netbiosName?: string };
  clock: ShellClock;
  /**
   * Registers a listening socket; returns a handle to close it, or 'in-use' when the port is taken in the pod's
   * network namespace. Without it, servers still run but nothing can reach them.
   */
  listen?(l: Listener): { close(): void } | 'in-use';
  /** Aborts when the container stops: background jobs and daemons (`cmd &`, `httpd` without -f) live until then. */
  lifetime?: AbortSignal;
  /** Identifies the container in runtime error texts (hcsshim names it); defaults to the hostname. */
  containerId?: string;
  /** The image reference it runs (`docker.io/sigwindowstools/kube-proxy:v1.31.4-flannel-hostprocess`): programs whose
   *  image build fetched the release its tag names report that release. */
  image?: string;
  /** Windows: the container's event log channels and ETW sessions (services and programs write, LogMonitor reads). */
  eventLog?: WindowsEventLog;
  /** Windows HostProcess containers: the host's service control manager (kubelet, kube-proxy, containerd). */
  hostServices?: HostServices;
  /** Windows HostProcess containers: the host's compute systems (HCS), as Get-ComputeProcess lists them. */
  hostCompute?: () => ComputeSystem[];
  /** Windows HostProcess containers: the host's HNS networks and pod IPAM (Get-HnsNetwork, host-local.exe). */
  hostNetwork?: HostNetworkView;
}

/** The host's networking as a HostProcess container sees it (src/network: the node's HnsState and host-local IPAM). */
export interface HostNetworkView {
  hnsNetworks(): { id: string; name: string; type: string; managementIP: string; subnets: { addressPrefix: string; gatewayAddress: string }[] }[];
  /** host-local ADD on the node's pod subnet: the owner's address (the same one on every call). */
  ipamAdd(owner: string): { ip: string; prefixLength: number; gateway: string } | { error: string };
  /** The HNS load balancers the node's kube-proxy programmed, by what it made them for (`ns/name:port (kind)`). */
  hnsLoadBalancers?(): { id: string; description: string }[];
}

/** One HCS compute system on a Windows node: a process-isolated container, or a Hyper-V utility VM. */
export interface ComputeSystem {
  /** The container ID, or a GUID for a utility VM. */
  id: string;
  type: 'Container' | 'VirtualMachine';
  /** The process that created it: `containerd-shim-runhcs-v1.exe` under containerd, `docker` under Docker. */
  owner: string;
}

/** A Windows service as the service control manager reports it (SERVICE_STATUS + its config). */
export interface HostServiceStatus {
  name: string;
  displayName: string;
  state: 'Running' | 'Stopped' | 'StartPending' | 'StopPending';
  /** SERVICE_WIN32_OWN_PROCESS (0x10) for the node's services. */
  type: number;
  startType: 'Automatic' | 'Manual' | 'Disabled';
  /** Win32 exit code of the last stop (0, or 1067 when the process ended unexpectedly). */
  win32ExitCode: number;
  pid: number;
  binaryPath: string;
  dependsOn: string[];
  acceptsStop: boolean;
}

/** Error codes the SCM returns (winerror.h), which sc.exe and the PowerShell service cmdlets word. */
export type ServiceControlError = 'not-found' | 'not-active' | 'already-running' | 'dependent-running' | 'access-denied';

/** The host's service control manager, as a HostProcess container sees it. */
export interface HostServices {
  list(): HostServiceStatus[];
  query(name: string): HostServiceStatus | undefined;
  start(name: string): ServiceControlError | undefined;
  stop(name: string): ServiceControlError | undefined;
  /** The service's process ends without being asked (Stop-Process -Force, taskkill /f): the SCM's recovery applies. */
  kill(name: string): ServiceControlError | undefined;
}

export interface ShellClock {
  now(): number;
  /** Resolves after ms of the container's clock; rejects (or resolves early) when signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface ShellIO {
  /** undefined = no stdin (EOF at once). */
  stdin?: AsyncIterable<Buffer | string>;
  stdout(chunk: string | Buffer): void;
  stderr(chunk: string | Buffer): void;
  tty?: boolean;
  /** Aborted = the container is being stopped or the exec session closed. reason 'SIGKILL' kills; anything else terminates. */
  signal?: AbortSignal;
}

export type RunResult =
  | {
    kind: 'exited';
    exitCode: number;
    /** Set when the process ended because io.signal aborted. */
    signal?: 'SIGTERM' | 'SIGKILL';
  }
  | {
    kind: 'not-found';
    /** The runtime's text for an exec (`kubectl exec`, exec probes, hooks). */
    message: string;
    /** The runtime's text when this is the container's own command (StartError / RunContainerError message). */
    startMessage: string;
  };
