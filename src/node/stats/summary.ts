// /stats/summary for one emulated node (pkg/kubelet/server/stats/summary.go Get and GetCPUAndMemoryStats): the
// node's own usage (OS overhead + pods), its system containers, disk and network, and one entry per pod with a
// running container, in the shape each OS's kubelet reports.

import { rfc3339 } from '../../util/clock.js';
import { lookupImage } from '../images/catalogue.js';
import type { NodeProfile } from '../profile.js';
import { CpuLedger } from './cpu-ledger.js';
import { bytesOf, instanceCpu, instanceNanoCores, instanceWorkingSet, nodeCores, podInstances, type ContainerInstance } from './container-usage.js';
import type { ContainerStats, CPUStats, MemoryStats, NetworkStats, PodStats, StatsSource, Summary } from './interfaces.js';
import { BYTES_PER_IMAGE_FILE, nodeDisk, sandboxMemory, systemOverhead } from './node-usage.js';
import { diskInodes, linuxMemory, podStats, WRITABLE_LAYER_BYTES, type Disk, type PodContext } from './pod-stats.js';
import { cpuCumulative, cpuUsageNanoCores, phaseOf, workingSetAt } from './usage-model.js';

export interface SummaryOptions {
  /** `?only_cpu_and_memory=true`: node and pod CPU and memory only (what metrics-server asked for). */
  onlyCpuAndMemory?: boolean;
}

/** One ledger per node, kept across requests so the node's CPU counter only grows. */
const ledgers = new WeakMap<NodeProfile, CpuLedger>();

/** The node's kubelet minor version (33 for v1.33.1). */
export function kubeletMinor(p: NodeProfile): number {
  return Number(/^v?1\.(\d+)/.exec(p.kubeletVersion)?.[1] ?? 33);
}

interface PodUsage {
  stats?: PodStats;
  running: ContainerInstance[];
}

export function buildSummary(src: StatsSource, now: number, opts: SummaryOptions = {}): Summary {
  const p = src.profile;
  const windows = p.os === 'windows';
  const time = rfc3339(now);
  const onlyCpuAndMemory = !!opts.onlyCpuAndMemory;

  const imageBytes = [...src.images].reduce((n, name) => n + (lookupImage(name)?.sizeBytes ?? 0), 0);
  const podRecs = [...src.pods].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const known = new Map<string, number>();
  const usages: PodUsage[] = [];
  let activePods = 0;
  let podDiskBytes = 0;
  const instancesByPod = podRecs.map((rec) => ({ rec, list: podInstances(rec, p) }));
  for (const { rec, list } of instancesByPod) {
    for (const { instance } of list) known.set(instance.id, instanceCpu(instance, now));
    if (rec.state === 'active' || rec.state === 'terminating') activePods++;
    podDiskBytes += list.filter((x) => x.current).length * WRITABLE_LAYER_BYTES[p.os];
  }
  const disk = nodeDisk(p, imageBytes, podDiskBytes);
  const diskView: Disk = { capacity: disk.capacity, available: disk.available, ...(windows ? {} : { inodes: diskInodes(disk.capacity, disk.used, Math.floor(imageBytes / BYTES_PER_IMAGE_FILE)) }) };
  const ctx: PodContext = { profile: p, now, disk: diskView, onlyCpuAndMemory };
  for (const { rec, list } of instancesByPod) {
    const running = list.filter((x) => x.current);
    const alive = (rec.state === 'active' || rec.state === 'terminating') && running.length > 0;
    usages.push({
      running: running.map((r) => r.instance),
      stats: alive ? podStats(rec, running, list.map((x) => x.instance), ctx) : undefined,
    });
  }
  const pods = usages.flatMap((u) => (u.stats ? [u.stats] : []));

  // The OS, kubelet and runtime, from boot.
  const sys = systemOverhead(p);
  const sysPhase = phaseOf(`${p.name}/system`);
  const sysCpu = cpuCumulative(sys.cpuNanoCores, src.bootTime, now, sysPhase);
  const sysRate = cpuUsageNanoCores(sys.cpuNanoCores, src.bootTime, now, sysPhase);
  const sysWs = workingSetAt(sys.memoryBytes, src.bootTime, now, sysPhase);
  let ledger = ledgers.get(p);
  if (!ledger) ledgers.set(p, (ledger = new CpuLedger()));
  const podsCpu = ledger.total(known);
  const runningAll = usages.flatMap((u) => u.running);
  const podsRate = runningAll.reduce((n, i) => n + instanceNanoCores(i, now), 0);
  const containersWs = runningAll.reduce((n, i) => n + instanceWorkingSet(i, now), 0);
  const podsWs = containersWs + (windows ? 0 : activePods * sandboxMemory(p));
  const capacity = bytesOf(p.capacity.memory) ?? 0;
  // The machine holds what it has: demands beyond it are not shared out among pods (no contention model), but the
  // node itself never shows more than its cores or its memory.
  const nodeWs = Math.min(capacity || Infinity, sysWs + podsWs + (windows ? activePods * sandboxMemory(p) : 0));
  const uptime = now - src.bootTime;

  const cpu: CPUStats = { time, usageNanoCores: Math.min(nodeCores(p) * 1e9, sysRate + podsRate), usageCoreNanoSeconds: sysCpu + podsCpu };
  let memory: MemoryStats;
  let systemContainers: ContainerStats[];
  if (windows) {
    const paged = runningAll.reduce((n, i) => n + i.memory.pagedBytes, 0);
    const commitTotal = Math.floor(nodeWs * 1.25) + paged;
    memory = { time, availableBytes: Math.max(0, capacity - nodeWs), usageBytes: commitTotal, workingSetBytes: nodeWs, rssBytes: 0, pageFaults: 0, majorPageFaults: 0 };
    systemContainers = windowsSystemContainers(p, time, pods, commitTotal, capacity);
  } else {
    const cache = Math.min(Math.max(0, capacity - nodeWs), Math.floor(capacity * 0.12));
    memory = {
      ...linuxMemory(time, nodeWs, uptime, capacity || undefined),
      usageBytes: nodeWs + cache,
      rssBytes: Math.floor(sysWs * 0.6) + pods.reduce((n, s) => n + (s.memory?.rssBytes ?? 0), 0),
    };
    systemContainers = linuxSystemContainers(p, src.bootTime, time, { sysCpu, sysRate, sysWs, podsCpu, podsRate, podsWs, uptime });
  }

  const node: Summary['node'] = { nodeName: p.name, systemContainers, startTime: rfc3339(src.bootTime), cpu, memory };
  if (!onlyCpuAndMemory) {
    node.network = nodeNetwork(p, time, uptime, pods);
    node.fs = fsOf(diskView, time, disk.used);
    node.runtime = { imageFs: fsOf(diskView, time, imageBytes, Math.floor(imageBytes / BYTES_PER_IMAGE_FILE)) };
    // pidlimit has no Windows implementation in these releases: no rlimit on Windows (windows-facts §3.6).
    if (!windows) node.rlimit = { time, maxpid: 4_194_304, curproc: 180 + pods.reduce((n, s) => n + (s.process_stats?.process_count ?? 0), 0) };
  }
  return { node, pods };
}

function fsOf(d: Disk, time: string, used: number, inodesUsed?: number) {
  const out: Record<string, unknown> = { time, availableBytes: d.available, capacityBytes: d.capacity, usedBytes: used };
  if (d.inodes) Object.assign(out, { inodesFree: d.inodes.free, inodes: d.inodes.total, inodesUsed: inodesUsed ?? d.inodes.total - d.inodes.free });
  return out as unknown as NonNullable<Summary['node']['fs']>;
}

/** The node's uplink: its own traffic plus what its pods send and receive. */
function nodeNetwork(p: NodeProfile, time: string, uptimeMs: number, pods: PodStats[]): NetworkStats {
  const up = Math.max(0, uptimeMs) / 1000;
  const rx = Math.floor(up * 25_000) + pods.reduce((n, s) => n + (s.network?.rxBytes ?? 0), 0);
  const tx = Math.floor(up * 15_000) + pods.reduce((n, s) => n + (s.network?.txBytes ?? 0), 0);
  const name = p.os === 'windows' ? 'Ethernet' : 'eth0';
  const iface = { name, rxBytes: rx, rxErrors: 0, txBytes: tx, txErrors: 0 };
  return { time, ...iface, interfaces: [iface] };
}

interface LinuxNumbers { sysCpu: number; sysRate: number; sysWs: number; podsCpu: number; podsRate: number; podsWs: number; uptime: number }

/** cAdvisor's kubelet, runtime and pods cgroups (pkg/kubelet/server/stats/summary_sys_containers.go). */
function linuxSystemContainers(p: NodeProfile, bootTime: number, time: string, n: LinuxNumbers): ContainerStats[] {
  const start = rfc3339(bootTime);
  const share = (name: string, cpuShare: number, memShare: number): ContainerStats => {
    const ws = Math.floor(n.sysWs * memShare);
    return {
      name, startTime: start,
      cpu: { time, usageNanoCores: Math.floor(n.sysRate * cpuShare), usageCoreNanoSeconds: Math.floor(n.sysCpu * cpuShare) },
      memory: linuxMemory(time, ws, n.uptime),
    };
  };
  // The pods cgroup is limited to capacity minus kube- and system-reserved (node allocatable without eviction).
  const capacity = bytesOf(p.capacity.memory) ?? 0;
  const podsLimit = capacity - (bytesOf(p.kubeReserved.memory) ?? 0) - (bytesOf(p.systemReserved.memory) ?? 0);
  return [
    share('kubelet', 0.35, 0.15),
    share('runtime', 0.2, 0.1),
    {
      name: 'pods', startTime: start,
      cpu: { time, usageNanoCores: n.podsRate, usageCoreNanoSeconds: n.podsCpu },
      memory: linuxMemory(time, n.podsWs, n.uptime, podsLimit > 0 ? podsLimit : undefined),
    },
  ];
}

/**
 * The Windows kubelet's `pods` (summed from pod stats, zero sums left out, start time = now) and, from v1.31,
 * `windows-global-commit-memory` (commit limit − commit total), pkg/kubelet/server/stats/summary_sys_containers_windows.go.
 */
function windowsSystemContainers(p: NodeProfile, time: string, pods: PodStats[], commitTotal: number, capacity: number): ContainerStats[] {
  const cpu: Record<string, unknown> = { time: pods.some((s) => s.cpu) ? time : null };
  const memory: Record<string, unknown> = { time: pods.some((s) => s.memory) ? time : null };
  const usageCoreNanoSeconds = pods.reduce((n, s) => n + (s.cpu?.usageCoreNanoSeconds ?? 0), 0);
  const usageNanoCores = pods.reduce((n, s) => n + (s.cpu?.usageNanoCores ?? 0), 0);
  const workingSetBytes = pods.reduce((n, s) => n + (s.memory?.workingSetBytes ?? 0), 0);
  if (usageNanoCores) cpu.usageNanoCores = usageNanoCores;
  if (usageCoreNanoSeconds) cpu.usageCoreNanoSeconds = usageCoreNanoSeconds;
  if (workingSetBytes) memory.workingSetBytes = workingSetBytes;
  const out: ContainerStats[] = [{ name: 'pods', startTime: time, cpu: cpu as unknown as CPUStats, memory: memory as unknown as MemoryStats }];
  if (kubeletMinor(p) >= 31) {
    // Commit limit: physical memory plus a system-managed page file of half its size.
    const commitLimit = Math.floor(capacity * 1.5);
    out.push({ name: 'windows-global-commit-memory', startTime: time, memory: { time, availableBytes: Math.max(0, commitLimit - commitTotal), usageBytes: commitTotal } });
  }
  return out;
}
