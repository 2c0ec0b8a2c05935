// One pod's entry in /stats/summary with the fields each OS's kubelet fills: Linux from cAdvisor's cgroups (memory
// usage, rss, page faults, pod cgroup incl. the pause container), Windows from CRI container stats (working set only,
// pod memory summed by pkg/kubelet/stats/cri_stats_provider.go addPodCPUMemoryStats, no process stats).

import type { Volume } from 'kubernetes-types/core/v1.js';
import { rfc3339 } from '../../util/clock.js';
import type { NodeProfile } from '../profile.js';
import type { ContainerRuntime, PodRuntime } from '../runtime-state.js';
import { instanceCpu, instanceNanoCores, instanceWorkingSet, type ContainerInstance } from './container-usage.js';
import type { ContainerStats, FsStats, MemoryStats, NetworkStats, PodStats, VolumeStats } from './interfaces.js';
import { BYTES_PER_INODE, sandboxMemory } from './node-usage.js';

/** The node disk every pod's writable layers, logs and emptyDirs live on. */
export interface Disk {
  capacity: number;
  available: number;
  /** Linux only: Windows' filesystem stats have no inodes. */
  inodes?: { total: number; free: number };
}

export interface PodContext {
  profile: NodeProfile;
  now: number;
  disk: Disk;
  onlyCpuAndMemory: boolean;
}

/** CRI's log line prefix (`<RFC3339Nano> stdout F `) on top of each line's bytes. */
const LOG_PREFIX_BYTES = 40;
/** A container's writable layer: a few files on Linux; a Windows container's scratch space starts at megabytes. */
export const WRITABLE_LAYER_BYTES = { linux: 12_288, windows: 8 * 1024 * 1024 };

/** Linux memory of a container or cgroup: cAdvisor's usage (with page cache), rss and fault counters. */
export function linuxMemory(time: string, ws: number, elapsedMs: number, limit?: number): MemoryStats {
  const page = (n: number) => Math.floor(n / 4096) * 4096;
  const usage = page(ws * 1.08);
  return {
    time,
    ...(limit !== undefined ? { availableBytes: Math.max(0, limit - ws) } : {}),
    usageBytes: limit !== undefined ? Math.min(limit, usage) : usage,
    workingSetBytes: ws,
    rssBytes: page(ws * 0.9),
    pageFaults: Math.floor(ws / 4096) + Math.floor(Math.max(0, elapsedMs) / 500),
    majorPageFaults: Math.floor(ws / (4096 * 512)),
  };
}

function fs(ctx: PodContext, time: string, used: number, inodesUsed: number): FsStats {
  const out: FsStats = { time, availableBytes: ctx.disk.available, capacityBytes: ctx.disk.capacity, usedBytes: used };
  if (ctx.disk.inodes) Object.assign(out, { inodesFree: ctx.disk.inodes.free, inodes: ctx.disk.inodes.total, inodesUsed });
  return out;
}

function logBytes(c: ContainerRuntime): number {
  let n = 0;
  for (const e of c.log?.snapshot() ?? []) n += e.data.length + LOG_PREFIX_BYTES;
  return n;
}

function containerStats(ctx: PodContext, c: ContainerRuntime, i: ContainerInstance, time: string): ContainerStats {
  const ws = instanceWorkingSet(i, ctx.now);
  const windows = ctx.profile.os === 'windows';
  const out: ContainerStats = {
    name: i.name,
    startTime: rfc3339(i.startMs),
    cpu: { time, usageNanoCores: instanceNanoCores(i, ctx.now), usageCoreNanoSeconds: instanceCpu(i, ctx.now) },
    memory: windows ? { time, workingSetBytes: ws } : linuxMemory(time, ws, ctx.now - i.startMs, i.limits.memoryBytes),
  };
  if (ctx.onlyCpuAndMemory) return out;
  out.rootfs = fs(ctx, time, WRITABLE_LAYER_BYTES[ctx.profile.os], 3);
  out.logs = fs(ctx, time, logBytes(c), 1);
  return out;
}

/** Bytes a volume's files take; hostPath has no metrics provider and PVCs have no emulated volume yet. */
function volumeBytes(v: Volume): number | undefined {
  if (v.emptyDir) return 4096;
  if (v.configMap || v.secret || v.downwardAPI) return 8192;
  if (v.projected) return 12_288;
  return undefined;
}

/** A pod's network: cAdvisor reads the sandbox's eth0 on Linux; Windows reads the HNS endpoint's counters. */
function podNetwork(rec: PodRuntime, ctx: PodContext, time: string): NetworkStats {
  const up = Math.max(0, ctx.now - (rec.sandboxReadyAt ?? rec.startTime ?? ctx.now)) / 1000;
  const rx = Math.floor(up * 1200) + 1024;
  const tx = Math.floor(up * 800) + 512;
  if (ctx.profile.os === 'windows') {
    const name = `${(rec.sandboxID ?? rec.uid).slice(0, 64)}_cbr0`;
    return { time, name, rxBytes: rx, txBytes: tx, interfaces: [{ name, rxBytes: rx, txBytes: tx }] };
  }
  return { time, name: 'eth0', rxBytes: rx, rxErrors: 0, txBytes: tx, txErrors: 0, interfaces: [{ name: 'eth0', rxBytes: rx, rxErrors: 0, txBytes: tx, txErrors: 0 }] };
}

/**
 * The pod's stats from its running instances (`running`) and every instance the runtime knows (`all`, for the Linux
 * pod cgroup's counter, which outlives container restarts).
 */
export function podStats(rec: PodRuntime, running: { container: ContainerRuntime; instance: ContainerInstance }[], all: ContainerInstance[], ctx: PodContext): PodStats {
  const time = rfc3339(ctx.now);
  const windows = ctx.profile.os === 'windows';
  const containers = running.map((r) => containerStats(ctx, r.container, r.instance, time));
  const nanoCores = running.reduce((n, r) => n + instanceNanoCores(r.instance, ctx.now), 0);
  const cumulative = (windows ? running.map((r) => r.instance) : all).reduce((n, i) => n + instanceCpu(i, ctx.now), 0);
  const meta = rec.pod.metadata ?? {};
  const out: PodStats = {
    podRef: { name: meta.name ?? '', namespace: meta.namespace ?? '', uid: rec.uid },
    // The summary's pod start time is the sandbox's creation (cri_stats_provider.go buildPodStats).
    startTime: rfc3339(rec.sandboxReadyAt ?? rec.startTime ?? ctx.now),
    containers,
    cpu: { time, usageNanoCores: nanoCores, usageCoreNanoSeconds: cumulative },
    memory: podMemory(running, ctx, time),
  };
  if (ctx.onlyCpuAndMemory) return out;
  out.network = podNetwork(rec, ctx, time);
  const volumes: VolumeStats[] = [];
  let emptyDirBytes = 0;
  for (const v of rec.pod.spec?.volumes ?? []) {
    const used = volumeBytes(v);
    if (used === undefined) continue;
    if (v.emptyDir && !(v.emptyDir.medium === 'Memory' && !windows)) emptyDirBytes += used;
    volumes.push({ ...fs(ctx, time, used, 2), name: v.name });
  }
  if (volumes.length) out.volume = volumes;
  const used = containers.reduce((n, c) => n + (c.rootfs?.usedBytes ?? 0) + (c.logs?.usedBytes ?? 0), emptyDirBytes);
  out['ephemeral-storage'] = fs(ctx, time, used, containers.length * 4 + 2);
  if (!windows) out.process_stats = { process_count: running.length + 1 };
  return out;
}

function podMemory(running: { instance: ContainerInstance }[], ctx: PodContext, time: string): MemoryStats {
  const ws = running.reduce((n, r) => n + instanceWorkingSet(r.instance, ctx.now), 0);
  if (ctx.profile.os === 'windows') {
    // Summed field by field from container stats that only carry a working set: the rest add up to zero.
    return { time, availableBytes: 0, usageBytes: 0, workingSetBytes: ws, rssBytes: 0, pageFaults: 0, majorPageFaults: 0 };
  }
  // The pod cgroup holds the pause container too; it has a limit only when every container has one.
  const limits = running.map((r) => r.instance.limits.memoryBytes);
  const limit = limits.length && limits.every((l) => l !== undefined) ? limits.reduce((a, b) => a! + b!, 0)! : undefined;
  const oldest = Math.min(...running.map((r) => r.instance.startMs));
  return linuxMemory(time, ws + sandboxMemory(ctx.profile), ctx.now - oldest, limit);
}

/** Inodes of a Linux node disk; none on Windows. */
export function diskInodes(capacity: number, used: number, extraFiles: number): Disk['inodes'] {
  const total = Math.floor(capacity / BYTES_PER_INODE);
  const usedInodes = Math.min(total, Math.floor(used / (BYTES_PER_INODE * 4)) + extraFiles);
  return { total, free: total - usedInodes };
}
