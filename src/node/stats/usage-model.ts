// The usage model: what a process's demand becomes under its limits (the OS caps it), and how steady usage with a
// small deterministic wave integrates over time. Pure functions of time and declared usage, never random.

import { createHash } from 'node:crypto';
import type { NodeOS } from '../profile.js';
import type { DeclaredUsage } from './declared.js';

/** The CPU wave dips usage by up to this fraction below its level, over this period. */
export const CPU_WAVE = { depth: 0.04, periodMs: 60_000 };
/** Memory breathes less, and slower. */
export const MEMORY_WAVE = { depth: 0.02, periodMs: 180_000 };
/**
 * usageNanoCores is the average over the last interval between two samples of the cumulative counter; the kubelet
 * samples every 10 s (the eviction manager's period, pkg/kubelet/stats/cri_stats_provider.go).
 */
export const RATE_WINDOW_MS = 10_000;

/** Resource limits of a container in base units: nano cores and bytes. */
export interface Limits {
  cpuMilli?: number;
  memoryBytes?: number;
}

/**
 * Windows turns a CPU limit into a CPU maximum (in 1/10000 of the whole machine), truncated and clamped to 1..10000
 * (pkg/kubelet/kuberuntime/kuberuntime_container_windows.go calculateCPUMaximum; windows-facts §3.3).
 */
export function windowsCpuMaximum(limitMilli: number, nodeCores: number): number {
  return Math.min(10_000, Math.max(1, Math.trunc((10 * limitMilli) / nodeCores)));
}

/**
 * The most CPU a container can get, in nano cores: the node's cores, and under a limit the CFS quota on Linux
 * (limit × period) or the job object's CPU maximum on Windows, which may be a little below the limit.
 */
export function cpuCeiling(limits: Limits, os: NodeOS, nodeCores: number): number {
  const host = nodeCores * 1e9;
  if (limits.cpuMilli === undefined) return host;
  if (os === 'windows') return Math.min(host, (windowsCpuMaximum(limits.cpuMilli, nodeCores) * nodeCores * 1e9) / 10_000);
  return Math.min(host, limits.cpuMilli * 1e6);
}

/** What shows of a declared working set under a memory limit. */
export interface MemoryOutcome {
  workingSetBytes: number;
  /** Windows: what did not fit stays committed but paged out. */
  pagedBytes: number;
  /** Linux: the cgroup's OOM killer ends the process; the kill itself is the runtime's. */
  overLimit: boolean;
}

/**
 * Windows has no OOM killer for containers: a job object over its limit pages (working set capped at the limit);
 * Linux kills a cgroup that exceeds memory.max, so usage above the limit never shows (windows-facts §3.3).
 */
export function memoryOutcome(declaredBytes: number, limits: Limits, os: NodeOS): MemoryOutcome {
  const limit = limits.memoryBytes;
  if (limit === undefined || declaredBytes <= limit) return { workingSetBytes: declaredBytes, pagedBytes: 0, overLimit: false };
  return { workingSetBytes: limit, pagedBytes: os === 'windows' ? declaredBytes - limit : 0, overLimit: os === 'linux' };
}

/** The level a container's usage runs at: its demand under its ceilings. */
export function usageLevel(declared: DeclaredUsage, limits: Limits, os: NodeOS, nodeCores: number): { cpuNanoCores: number; memory: MemoryOutcome } {
  return { cpuNanoCores: Math.min(declared.cpuNanoCores, cpuCeiling(limits, os, nodeCores)), memory: memoryOutcome(declared.memoryBytes, limits, os) };
}

/** A phase in [0, 2π) from an id, so containers do not breathe in lockstep. */
export function phaseOf(id: string): number {
  return (createHash('sha256').update(id).digest().readUInt32BE(0) / 0x1_0000_0000) * 2 * Math.PI;
}

/**
 * Rate at `elapsedMs` after start: level × (1 − depth × (1 + sin(ωt + φ)) / 2), so it never exceeds the level
 * (and so never the limit) and never drops below level × (1 − depth).
 */
export function waveRate(level: number, elapsedMs: number, phase: number, wave = CPU_WAVE): number {
  const omega = (2 * Math.PI) / wave.periodMs;
  return level * (1 - (wave.depth * (1 + Math.sin(omega * Math.max(0, elapsedMs) + phase))) / 2);
}

/** ∫ waveRate from start to `elapsedMs`, in level × seconds (nano cores → core nanoseconds). */
export function waveIntegral(level: number, elapsedMs: number, phase: number, wave = CPU_WAVE): number {
  if (elapsedMs <= 0) return 0;
  const omega = (2 * Math.PI) / wave.periodMs;
  const flat = (1 - wave.depth / 2) * elapsedMs;
  const swing = ((wave.depth / 2) * (Math.cos(phase) - Math.cos(omega * elapsedMs + phase))) / omega;
  return (level * (flat - swing)) / 1000;
}

/** Cumulative CPU of a process that ran from `startMs` to `endMs` (or still runs), at time `nowMs`, in core-ns. */
export function cpuCumulative(levelNanoCores: number, startMs: number, nowMs: number, phase: number, endMs = Infinity): number {
  return Math.floor(waveIntegral(levelNanoCores, Math.min(nowMs, endMs) - startMs, phase));
}

/** usageNanoCores as the kubelet computes it: the counter's increase over the last window (shorter when younger). */
export function cpuUsageNanoCores(levelNanoCores: number, startMs: number, nowMs: number, phase: number): number {
  const elapsed = nowMs - startMs;
  const window = Math.min(RATE_WINDOW_MS, elapsed);
  if (window < 1) return Math.floor(waveRate(levelNanoCores, elapsed, phase));
  const delta = waveIntegral(levelNanoCores, elapsed, phase) - waveIntegral(levelNanoCores, elapsed - window, phase);
  return Math.floor((delta * 1000) / window);
}

/** Memory is resident in whole pages (4 KiB on both OSes). */
const PAGE = 4096;

/** Working set at `nowMs`: the level with a slow shallow wave, never above it, in whole pages. */
export function workingSetAt(levelBytes: number, startMs: number, nowMs: number, phase: number): number {
  return Math.floor(waveRate(levelBytes, nowMs - startMs, phase, MEMORY_WAVE) / PAGE) * PAGE;
}
