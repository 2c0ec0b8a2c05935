// A subset of the kubelet's /metrics/cadvisor: cAdvisor's per-container CPU and memory series with its labels
// (container, id, image, name, namespace, pod), and the machine's size.

import { isRunning, nodeCores } from './container-usage.js';
import type { StatsSource, Summary } from './interfaces.js';
import type { Family, Sample } from './prometheus.js';
import { ms } from './resource-metrics.js';

/**
 * A subset of /metrics/cadvisor: per-container CPU, memory and start time with cAdvisor's labels (id, image, name),
 * plus the machine's size. Windows has no cAdvisor: only the machine and the root container are there.
 */
export function cadvisorMetrics(src: StatsSource, summary: Summary): Family[] {
  const p = src.profile;
  const windows = p.os === 'windows';
  const cpu: Sample[] = [];
  const ws: Sample[] = [];
  const usage: Sample[] = [];
  const rss: Sample[] = [];
  const limit: Sample[] = [];
  const start: Sample[] = [];
  const root = { container: '', id: '/', image: '', name: '', namespace: '', pod: '' };
  const n = summary.node;
  if (n.cpu?.usageCoreNanoSeconds !== undefined) cpu.push({ labels: { ...root, cpu: 'total' }, value: n.cpu.usageCoreNanoSeconds / 1e9, timestampMs: ms(n.cpu.time) });
  if (n.memory?.workingSetBytes !== undefined) ws.push({ labels: root, value: n.memory.workingSetBytes, timestampMs: ms(n.memory.time) });
  if (n.memory?.usageBytes !== undefined) usage.push({ labels: root, value: n.memory.usageBytes, timestampMs: ms(n.memory.time) });
  if (!windows) {
    const byKey = new Map(summary.pods.map((s) => [`${s.podRef.namespace}/${s.podRef.name}`, s]));
    for (const rec of src.pods) {
      const stats = byKey.get(rec.key);
      if (!stats) continue;
      const qos = (rec.pod.status?.qosClass ?? 'BestEffort').toLowerCase();
      const podCgroup = `/kubepods${qos === 'guaranteed' ? '' : `/${qos}`}/pod${rec.uid}`;
      const podLabels = { namespace: stats.podRef.namespace, pod: stats.podRef.name };
      for (const c of rec.containers) {
        const cs = stats.containers.find((x) => x.name === c.name);
        if (!cs || !isRunning(c)) continue;
        const id = (c.containerID ?? '').replace(/^\w+:\/\//, '');
        const labels = { ...podLabels, container: c.name, id: `${podCgroup}/${id}`, image: c.imageName ?? c.image, name: id };
        const ts = ms(cs.cpu?.time);
        cpu.push({ labels: { ...labels, cpu: 'total' }, value: (cs.cpu?.usageCoreNanoSeconds ?? 0) / 1e9, timestampMs: ts });
        ws.push({ labels, value: cs.memory?.workingSetBytes ?? 0, timestampMs: ts });
        usage.push({ labels, value: cs.memory?.usageBytes ?? 0, timestampMs: ts });
        rss.push({ labels, value: cs.memory?.rssBytes ?? 0, timestampMs: ts });
        const spec = rec.pod.spec?.containers?.find((x) => x.name === c.name) ?? rec.pod.spec?.initContainers?.find((x) => x.name === c.name);
        const mem = cs.memory?.availableBytes !== undefined ? (cs.memory.availableBytes + (cs.memory.workingSetBytes ?? 0)) : 0;
        limit.push({ labels, value: spec?.resources?.limits?.memory ? mem : 0, timestampMs: ts });
        start.push({ labels, value: Date.parse(cs.startTime) / 1000, timestampMs: ts });
      }
    }
  }
  const cores = nodeCores(p);
  const memBytes = n.memory?.availableBytes !== undefined && n.memory.workingSetBytes !== undefined ? n.memory.availableBytes + n.memory.workingSetBytes : 0;
  return [
    { name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed in seconds.', type: 'counter', samples: cpu },
    { name: 'container_memory_working_set_bytes', help: 'Current working set in bytes.', type: 'gauge', samples: ws },
    { name: 'container_memory_usage_bytes', help: 'Current memory usage in bytes, including all memory regardless of when it was accessed', type: 'gauge', samples: usage },
    { name: 'container_memory_rss', help: 'Size of RSS in bytes.', type: 'gauge', samples: rss },
    { name: 'container_spec_memory_limit_bytes', help: 'Memory limit for the container.', type: 'gauge', samples: limit },
    { name: 'container_start_time_seconds', help: 'Start time of the container since unix epoch in seconds.', type: 'gauge', samples: start },
    { name: 'machine_cpu_cores', help: 'Number of logical CPU cores.', type: 'gauge', samples: [{ value: cores }] },
    { name: 'machine_memory_bytes', help: 'Amount of memory installed on the machine.', type: 'gauge', samples: memBytes ? [{ value: memBytes }] : [] },
  ];
}

