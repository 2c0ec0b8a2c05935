// kube-proxy.exe in a HostProcess container (sigwindowstools/kube-proxy images): its start-up lines in winkernel
// (kernelspace) mode, then it runs until stopped. It does not program HNS: the node's own kube-proxy service
// (src/node/os/windows/services.ts, src/network/proxy/winkernel) is the one data plane of the emulated node, and two
// proxiers writing the same HNS load balancers would fight, so this process only reports what it finds.

import { sleep, untilAborted, type Ctx } from '../../core/ctx.js';
import { goFlags, klog } from './klog.js';
import { DSR_NOT_SUPPORTED, hnsFeatures, hnsVersionOf } from '../../../../network/hns/features.js';
import { parseGoDuration } from '../../../../util/go-duration.js';
import { goDuration as periodText } from '../../../go-duration.js';

/** The pid a HostProcess kube-proxy.exe shows in its klog headers (any host pid will do; this one is stable). */
const PID = 6216;
/** NewProxier retries the network lookup every second (pkg/proxy/winkernel/proxier.go; windows-facts.md §4). */
const RETRY_MS = 1000;
/**
 * KubeProxyConfiguration defaults for --sync-period and --min-sync-period (pkg/proxy/apis/config/v1alpha1/defaults.go);
 * winkernel hands both to its "sync-runner" BoundedFrequencyRunner, so it resyncs every syncPeriod with nothing changed.
 */
const DEFAULT_SYNC_PERIOD_MS = 30_000;
const DEFAULT_MIN_SYNC_PERIOD_MS = 1_000;
/** winkernel NewProxier's burstSyncs. */
const BURST_SYNCS = 2;
/** The release a kube-proxy.exe outside a versioned image reports (the node profiles' default Kubernetes release). */
export const KUBE_PROXY_VERSION = 'v1.33.1';

/**
 * The release the binary is: sig-windows-tools' images fetch `dl.k8s.io/$k8sVersion/bin/windows/amd64/kube-proxy.exe`
 * and are tagged `$k8sVersion-{flannel,calico}-hostprocess` (hostprocess/*\/kube-proxy/Dockerfile, build.sh), so
 * the tag names the release.
 */
export function kubeProxyVersion(image: string | undefined): string {
  const tag = image && /:([^:/@]+)(?:@|$)/.exec(image)?.[1];
  return (tag && /^v\d+\.\d+\.\d+/.exec(tag)?.[0]) || KUBE_PROXY_VERSION;
}

/** Go's time.Duration.String for a span in milliseconds, as klog prints `elapsed`. */
export function goDuration(ms: number): string {
  if (ms <= 0) return '0s';
  if (ms < 1) return `${+(ms * 1000).toFixed(3)}µs`;
  if (ms < 1000) return `${+ms.toFixed(6)}ms`;
  return `${+(ms / 1000).toFixed(9)}s`;
}

const envVar = (ctx: Ctx, name: string) => Object.entries(ctx.vars).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? '';

export async function kubeProxyExe(argv: string[], ctx: Ctx): Promise<number> {
  const flags = goFlags(argv.slice(1), new Set(['cleanup', 'version', 'masquerade-all', 'enable-dsr', 'init-only']));
  const last = (n: string) => flags.get(n)?.at(-1);
  const log = klog(ctx, PID);
  const v = Number(last('v') ?? 0);
  const version = kubeProxyVersion(ctx.env.image);
  // component-base/version/verflag: `--version` prints "Kubernetes <gitVersion>" and exits.
  if (last('version') === 'true') {
    ctx.stdout.write(`Kubernetes ${version}\n`);
    return 0;
  }
  // cmd/kube-proxy/app/server_windows.go: --cleanup and --init-only are not implemented on Windows.
  if (last('cleanup') === 'true') {
    log.s('E', 'run.go:72', 'command failed', { err: '--cleanup-and-exit is not implemented on Windows' });
    return 1;
  }
  // pflag parses durations with time.ParseDuration; cobra reports a bad one as the command's error.
  const periods: number[] = [];
  for (const [flag, dflt] of [['sync-period', DEFAULT_SYNC_PERIOD_MS], ['min-sync-period', DEFAULT_MIN_SYNC_PERIOD_MS]] as const) {
    const text = last(flag);
    try {
      periods.push(text === undefined ? dflt : parseGoDuration(text));
    } catch (e) {
      ctx.stderr.write(`Error: invalid argument ${JSON.stringify(text)} for "--${flag}" flag: ${(e as Error).message}\n`);
      return 1;
    }
  }
  const [syncPeriod, minSyncPeriod] = periods;
  const hostname = (last('hostname-override') ?? ctx.env.system.nodeName).toLowerCase();
  // KUBE_NETWORK is how the DaemonSet names the HNS network when --network-name is absent (winkernel proxier.go).
  const networkName = last('network-name') ?? envVar(ctx, 'KUBE_NETWORK');
  const nodeIP = ctx.env.network.interfaces[0]?.ip ?? '';
  // Message texts: cmd/kube-proxy/app/server.go newProxyServer/Run and pkg/proxy/config/config.go (v1.33); the
  // file:line sites are those a v1.32 kube-proxy prints.
  log.s('I', 'server.go:698', 'Successfully retrieved node IP(s)', { IPs: [nodeIP] });
  log.s('I', 'server.go:254', 'kube-proxy running in single-stack mode', { ipFamily: 'IPv4' });
  if (!networkName) {
    // winkernel.NewProxier: no network name at all is fatal.
    log.s('E', 'run.go:72', 'command failed', { err: 'unable to create proxier: Environment variable KUBE_NETWORK and network-flag not initialized' });
    return 1;
  }
  for (;;) {
    const net = ctx.env.hostNetwork?.hnsNetworks().find((n) => n.name.toLowerCase() === networkName.toLowerCase());
    if (net || !ctx.env.hostNetwork) {
      if (v >= 1 && net) log.s('I', 'proxier.go:710', 'Hns Network loaded', { hnsNetworkInfo: { go: `&{name:${net.name} id:${net.id.toLowerCase()} networkType:${net.type}}` } });
      break;
    }
    log.s('E', 'proxier.go:692', 'Unable to find HNS Network specified, please check network name and CNI deployment', { hnsNetworkName: networkName });
    await sleep(ctx, RETRY_MS);
  }
  // NewProxier after the network lookup: --enable-dsr needs the WinDSR gate, then HNS DSR support (hcn.DSRSupported).
  const dsrError = last('enable-dsr') === 'true' ? enableDsrError(ctx, version, flags.get('feature-gates') ?? []) : undefined;
  if (dsrError) {
    log.s('E', 'run.go:72', 'command failed', { err: `unable to create proxier: ${dsrError}` });
    return 1;
  }
  if (v >= 3) log.s('I', 'proxier.go:750', 'Record sync param', { minSyncPeriod: periodText(minSyncPeriod), syncPeriod: periodText(syncPeriod), burstSyncs: BURST_SYNCS });
  log.s('I', 'server.go:497', 'Version info', { version });
  log.s('I', 'server.go:499', 'Golang settings', { GOGC: '', GOMAXPROCS: '', GOTRACEBACK: '' });
  log.s('I', 'config.go:199', 'Starting service config controller');
  log.f('I', 'shared_informer.go:313', 'Waiting for caches to sync for service config');
  log.s('I', 'config.go:105', 'Starting endpoint slice config controller');
  log.f('I', 'shared_informer.go:313', 'Waiting for caches to sync for endpoint slice config');
  log.s('I', 'config.go:329', 'Starting node config controller');
  log.f('I', 'shared_informer.go:313', 'Waiting for caches to sync for node config');
  await sleep(ctx, 100);
  log.f('I', 'shared_informer.go:320', 'Caches are synced for node config');
  log.f('I', 'shared_informer.go:320', 'Caches are synced for service config');
  log.f('I', 'shared_informer.go:320', 'Caches are synced for endpoint slice config');
  if (v >= 2) log.s('I', 'proxier.go:1187', 'Syncing proxy rules', { hostname });
  // pkg/util/async/bounded_frequency_runner.go Loop, then tryRun after each run of syncProxyRules.
  if (v >= 3) log.f('I', 'bounded_frequency_runner.go:192', 'sync-runner Loop running');
  const applied = new Set<string>();
  for (;;) {
    syncProxyRules(ctx, log, v, applied);
    if (v >= 3) log.f('I', 'bounded_frequency_runner.go:296', `sync-runner: ran, next possible in ${periodText(minSyncPeriod)}, periodic in ${periodText(syncPeriod)}`);
    // Nothing here queues an earlier run (the node's own kube-proxy service programs HNS), so the next one is periodic.
    if (syncPeriod <= 0) return untilAborted(ctx.signal);
    await sleep(ctx, syncPeriod);
  }
}

/**
 * Why winkernel NewProxier refuses --enable-dsr, if it does: the WinDSR gate off (beta, on by default from v1.33;
 * pkg/features/kube_features.go), else "platform does not support feature …" from hcsshim when the host's HNS is
 * outside DSRVersion (the host's build and patch level from its kernel version, as the HostProcess container sees it).
 */
export function enableDsrError(ctx: Ctx, version: string, featureGates: string[]): string | undefined {
  const gates = new Map(featureGates.flatMap((g) => g.split(',')).map((kv) => kv.split('=')).map(([k, val]) => [k.trim(), val?.trim().toLowerCase() === 'true'] as const));
  const minor = Number(/^v\d+\.(\d+)/.exec(version)?.[1] ?? 33);
  if (!(gates.get('WinDSR') ?? minor >= 33)) return 'WinDSR feature gate not enabled';
  const kernel = /^10\.0\.(\d+)\.(\d+)$/.exec(ctx.env.system.kernelVersion);
  const build = kernel ? `10.0.${kernel[1]}` : ctx.env.system.windowsBuild;
  const ubr = kernel ? Number(kernel[2]) : ctx.env.system.windowsUBR;
  return hnsFeatures(hnsVersionOf(build, ubr)).dsr ? undefined : DSR_NOT_SUPPORTED;
}

/**
 * One syncProxyRules, at the verbosity it is logged (pkg/proxy/winkernel/proxier.go): V(3) "Syncing Policies", V(4)
 * "Applying Policy" for a service port not yet programmed and "Policy already applied" for one that is (policyApplied),
 * V(4) "Syncing proxy rules complete" with the elapsed time. The service ports are those the node's HNS load balancers
 * were programmed for. At the default verbosity a sync logs nothing.
 */
function syncProxyRules(ctx: Ctx, log: ReturnType<typeof klog>, v: number, applied: Set<string>): void {
  if (v < 3) return;
  const start = ctx.env.clock.now();
  log.s('I', 'proxier.go:1263', 'Syncing Policies');
  if (v >= 4) {
    const ports = new Set((ctx.env.hostNetwork?.hnsLoadBalancers?.() ?? []).map((lb) => lb.description.replace(/ \(.*\)$/, '')).filter(Boolean));
    for (const p of [...ports].sort()) {
      log.s('I', applied.has(p) ? 'proxier.go:1303' : 'proxier.go:1307', applied.has(p) ? 'Policy already applied' : 'Applying Policy', { serviceInfo: p });
      applied.add(p);
    }
    log.s('I', 'proxier.go:1201', 'Syncing proxy rules complete', { elapsed: goDuration(ctx.env.clock.now() - start) });
  }
}
