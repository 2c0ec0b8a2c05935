// One emulated kubelet: registers its Node, keeps the Lease and node status fresh, and runs the pods bound to it
// through the stage engine with one timer per pod on the injected clock (no polling loops).

import { kubeletMaySet } from '../api/kubelet-labels.js';
import type { Writable } from 'node:stream';
import type { NodeStatus, ObjectReference, Pod } from 'kubernetes-types/core/v1.js';
import { isAlreadyExists, isNotFound } from '../api/errors.js';
import { objectKey, type KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { HostLocalAllocator } from '../network/ipam/host-local.js';
import type { SlicedRunner } from '../util/sliced-runner.js';
import type { FlannelPeers } from '../network/cni/flannel-peers.js';
import { NodeNetwork } from '../network/cni/node-network.js';
import { admitPod } from './admission.js';
import { sandboxJoinsHostNetwork } from './os/windows/host-network.js';
import type { EventRecorder } from './events.js';
import { lookupImage } from './images/catalogue.js';
import { bootIdFor, initialNode, nodeConditions, nodeLabels, steadyNodeStatus, withConditions, type SteadyNodeStatus } from './node-object.js';
import { KUBELET_SERVER_ANNOTATION } from '../api/well-known.js';
import { nodeRef, previousBoot, rebootedMessage } from './boot.js';
import { buildPodStatus } from './pod-status.js';
import { newPodRuntime } from './pod-runtime.js';
import { computeAllocatable, type NodeProfile } from './profile.js';
import { nextHeartbeatMs, renewLease } from './lease.js';
import { WindowsServiceManager } from './os/windows/services.js';
import { ranBefore, restorePodRuntime } from './restore.js';
import { containerSpec, type PodRuntime } from './runtime-state.js';
import { ProbeManager } from './probes/probe-manager.js';
import { ProcessHost } from './process/process-host.js';
import { CLUSTER_DOMAIN, DEFAULT_CLUSTER_DNS } from '../network/dns/zone.js';
import { ClusterNetwork } from '../network/model/cluster-network.js';
import type { ClusterZone } from '../network/dns/zone.js';
import { KubeletNodeNet, type NodeNetOptions } from './node-net.js';
import { hostNetworkView } from './os/windows/host-network-view.js';
import { computeSystems } from './os/windows/compute-systems.js';
import { podDns, type DnsSettings } from './process/pod-dns.js';
import { resolveHost } from './shell/net/resolver.js';
import { runCommand } from './shell/run-command.js';
import type { Listener, RunResult, ShellIO } from './shell/interfaces.js';
import { podListener } from './process/pod-servers.js';
import { failStart, hookFailed } from './stages/actions.js';
import type { StageEngine } from './stages/engine.js';
import { DEFAULT_TIMINGS, type StageContext, type StageTimings } from './stages/types.js';
import { illegalTransition, keepTerminalPhase } from './status-rules.js';
import { ContainerLog } from './logs/container-log.js';
import { containerLogTarget } from './logs/log-status.js';
import type { ConfigSource } from './process/env-vars.js';
import type { StatusWriter } from './status-writer.js';
import type { StatsSource } from './stats/interfaces.js';
import { registerCsiPlugins } from './volumes/csi-registration.js';
import { volumesInUse } from './volumes/csi-node.js';

/** The node network's gateway (.1), the resolver dnsPolicy Default copies from the node. */
function hostGateway(nodeIP: string): string {
  return nodeIP.replace(/\.\d+$/, '.1');
}

const NO_CONFIG: ConfigSource = { configMap: () => undefined, secret: () => undefined };

/** nodeStatusUpdateFrequency (checked for changes) and nodeStatusReportFrequency (written regardless). */
export const NODE_STATUS_CHECK_MS = 10_000;
export const NODE_STATUS_REPORT_MS = 5 * 60_000;

export interface KubeletOptions {
  profile: NodeProfile;
  /** Where due pod stages run, a slice at a time (the agent's, shared by its kubelets); inline when absent (tests). */
  runner?: SlicedRunner;
  /** The kubelet's own client (system:node:<name> where the agent gives each kubelet its identity). */
  client: Client;
  /**
   * Sets the Node labels a kubelet may not (node-role.kubernetes.io/*, a fleet's restricted labels), as kubeadm labels
   * a node after it joins; the kubelet's own client when absent.
   */
  labeller?: Client;
  clock: Clock;
  logger: Logger;
  engine: StageEngine;
  statusWriter: StatusWriter;
  events: EventRecorder;
  timings?: StageTimings;
  /** The cluster's network model this node joins (the agent's); a model of this node alone when absent (tests). */
  clusterNetwork?: ClusterNetwork;
  /** The flannel lease table of the agent's nodes (each node keeps its own when absent). */
  flannelPeers?: FlannelPeers;
  /** The cluster DNS zone, which DNS server programs (coredns) in this node's pods answer from. */
  dnsZone?: ClusterZone;
  /** kube-apiserver's address on the node network and the real server behind it (the `kubernetes` Service's endpoint). */
  apiServer?: NodeNetOptions['apiServer'];
  /** ConfigMaps and Secrets for env and volumes; none when absent (tests). */
  config?: ConfigSource;
  /** host:port of the agent's kubelet server, announced on the Node for the API server. */
  serverEndpoint?: () => string | undefined;
}

export class Kubelet {
  readonly name: string;
  readonly profile: NodeProfile;
  private readonly images = new Set<string>();
  private readonly ipam: HostLocalAllocator;
  /** CNI plugin, HNS store (Windows) and flannel state of this node; kube-proxy and the flow model read it. */
  readonly nodeNetwork: NodeNetwork;
  /** The kubelet's --cluster-dns / --cluster-domain and the node's resolver, from which each pod's DNS is made. */
  private readonly dnsSettings: DnsSettings;
  private readonly pods = new Map<string, PodRuntime>();
  private readonly timers = new Map<string, { at: number; timer: Timer }>();
  private readonly ctx: StageContext;
  private readonly allocatable: Record<string, string>;
  private readonly labels: Record<string, string>;
  private nodeUid?: string;
  private leaseExists = false;
  private readyAt = 0;
  /** 1 on a new node; one more each time the agent starts again on an existing one (a reboot). */
  private bootCount = 1;
  private lastReported = 0;
  private lastStatusJson = '';
  /** The steady part of the node's status (steadyNodeStatus), for the images and boot it was built for. */
  private steady?: { key: string; status: SteadyNodeStatus; json: string };
  private heartbeat?: Timer;
  private stopped = false;
  /** The kubelet's Windows service is stopped (or its process died): no heartbeat, no pod syncs; containers run on. */
  private suspended = false;
  /** Pods that changed while suspended, picked up when the kubelet starts again (undefined: deleted). */
  private readonly missed = new Map<string, { pod: Pod; deleted: boolean }>();
  /** A Windows node's service control manager, which HostProcess containers see. */
  readonly services?: WindowsServiceManager;
  private readonly probes: ProbeManager;
  private readonly processes: ProcessHost;
  /** This node in the cluster's network model: its kube-proxy, its pods by IP, its containers' network calls. */
  readonly net: KubeletNodeNet;

  constructor(private readonly o: KubeletOptions) {
    this.dnsSettings = { clusterDNS: DEFAULT_CLUSTER_DNS, clusterDomain: CLUSTER_DOMAIN, hostNameservers: [hostGateway(o.profile.internalIP)] };
    this.profile = o.profile;
    this.name = o.profile.name;
    this.ipam = new HostLocalAllocator(o.profile.podCIDR);
    this.nodeNetwork = new NodeNetwork({ profile: o.profile, ipam: this.ipam, peers: o.flannelPeers });
    this.allocatable = computeAllocatable(o.profile);
    this.labels = nodeLabels(o.profile);
    for (const img of o.profile.preloadedImages) this.images.add(lookupImage(img)?.name ?? img);
    this.ctx = {
      clock: o.clock,
      profile: o.profile,
      images: this.images,
      ipam: this.ipam,
      network: this.nodeNetwork,
      podDns: (pod) => {
        const d = podDns(pod, o.profile.os, this.dnsSettings);
        return { servers: d.nameservers, searches: d.search };
      },
      timings: o.timings ?? DEFAULT_TIMINGS,
      config: o.config ?? NO_CONFIG,
      allocatable: this.allocatable,
      events: { podEvent: (rec, c, type, reason, message) => o.events.event(this.podRef(rec, c?.name, c?.init), type, reason, message) },
      admit: (rec) => admitPod(rec.pod, this.profile, this.labels, this.allocatable, this.admittedPods(rec)),
      finalize: (rec) => void this.finalize(rec),
      processes: {
        start: (rec, c) => this.processes.start(rec, c),
        stop: (_rec, c, reason) => this.processes.stop(c, reason),
        preStop: (rec, c) => this.processes.preStop(rec, c),
      },
    };
    this.net = new KubeletNodeNet({
      profile: o.profile, nodeNetwork: this.nodeNetwork, now: () => o.clock.now(), dnsZone: o.dnsZone, apiServer: o.apiServer,
      model: o.clusterNetwork ?? new ClusterNetwork({ serviceCIDR: '10.96.0.0/12', clusterCIDR: '10.244.0.0/16', nodeNetwork: '172.18.0.0/16' }),
      listeners: (c) => this.processes.listeners(c),
      hostNetworkPods: () => [...this.pods.values()].filter((r) => sandboxJoinsHostNetwork(this.profile, r.pod) && r.state === 'active'),
    });
    if (o.profile.os === 'windows') {
      this.services = new WindowsServiceManager({
        profile: o.profile, clock: o.clock,
        hooks: {
          kubelet: { stop: () => this.suspend(), start: () => this.resume() },
          // A relaunched flanneld finishes a hung start; kube-proxy then finds the network on its next sync.
          flanneld: { stop: () => {}, start: () => { if (this.nodeNetwork.relaunchFlanneld()) this.net.resyncProxy(); } },
        },
      });
    }
    this.processes = new ProcessHost({
      hostServices: this.services,
      hostCompute: o.profile.os === 'windows' ? () => computeSystems(this.pods.values(), o.profile) : undefined,
      hostNetwork: o.profile.os === 'windows' ? hostNetworkView(this.nodeNetwork, this.ipam) : undefined,
      profile: o.profile, clock: o.clock, run: runCommand, networkCalls: (rec, nameservers) => this.net.callsFor(rec, nameservers), cni: (sandboxID) => this.nodeNetwork.resultFor(sandboxID),
      dns: this.dnsSettings,
      bootTimeMs: () => this.readyAt,
      volumeContext: { os: o.profile.os, hostIP: o.profile.internalIP, allocatable: this.allocatable, config: o.config ?? NO_CONFIG, node: o.profile },
      exited: (rec, c, code, reason) => this.resync(rec, () => (c.processExit = { code, at: o.clock.now(), ...(reason ? { reason } : {}) })),
      startFailed: (rec, c, message) => {
        if (c.state === 'running') this.resync(rec, () => failStart(this.ctx, rec, c, message));
      },
      hookFailed: (rec, c, hook, message) => this.resync(rec, () => hookFailed(this.ctx, rec, c, hook, message)),
      changed: (rec) => this.resync(rec),
    });
    this.probes = new ProbeManager({
      clock: o.clock,
      target: (rec, c) => this.processes.target(rec, c),
      event: (rec, c, type, reason, message) => o.events.event(this.podRef(rec, c.name, c.init), type, reason, message),
      changed: (rec) => this.resync(rec),
    });
  }

  /**
   * Something outside the stages changed a pod's runtime state (a process ended, a probe or hook result): apply it
   * and sync — unless the pod has gone from this node meanwhile.
   */
  private resync(rec: PodRuntime, change?: () => void): void {
    if (this.pods.get(rec.key) !== rec) return;
    change?.();
    this.sync(rec, true);
  }

  /** Registers the Node (or adopts an existing one), writes its status and the first Lease. */
  async register(): Promise<void> {
    const { client, clock } = this.o;
    let node: KubeObject;
    let previousBootID: string | undefined;
    // NodeRestriction refuses a kubelet other labels (node-role.kubernetes.io/*): the labeller sets those after.
    const own = Object.fromEntries(Object.entries(this.labels).filter(([k]) => kubeletMaySet(k)));
    const restricted = Object.fromEntries(Object.entries(this.labels).filter(([k]) => !kubeletMaySet(k)));
    try {
      const fresh = initialNode(this.profile, this.o.serverEndpoint?.()) as unknown as KubeObject;
      fresh.metadata = { ...fresh.metadata, labels: { ...own, ...Object.fromEntries(Object.entries(fresh.metadata?.labels ?? {}).filter(([k]) => kubeletMaySet(k))) } };
      // flannel's kube subnet manager publishes the lease on the Node (backend type and data, public IP).
      const netAnnotations = this.nodeNetwork.annotations();
      if (Object.keys(netAnnotations).length) fresh.metadata = { ...fresh.metadata, annotations: { ...fresh.metadata?.annotations, ...netAnnotations } };
      node = await client.create(R.nodes, undefined, fresh);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // kubelet_node_status.go tryRegisterWithAPIServer: reconcile labels on the existing node.
      const endpoint = this.o.serverEndpoint?.();
      const annotations = { ...this.nodeNetwork.annotations(), ...(endpoint ? { [KUBELET_SERVER_ANNOTATION]: endpoint } : {}) };
      const metadata = { labels: own, ...(Object.keys(annotations).length ? { annotations } : {}) };
      node = await client.patch(R.nodes, undefined, this.name, 'merge', { metadata });
      // A restart is a reboot: the image store is on disk and survives it, so what the Node reported is still here.
      const before = node.status as NodeStatus | undefined;
      for (const img of before?.images ?? []) {
        for (const n of img.names ?? []) if (!n.includes('@')) this.images.add(n);
      }
      previousBootID = before?.nodeInfo?.bootID;
      this.bootCount = previousBoot(this.profile, previousBootID) + 1;
    }
    if (Object.entries(restricted).some(([k, v]) => node.metadata.labels?.[k] !== v)) {
      node = await (this.o.labeller ?? client).patch(R.nodes, undefined, this.name, 'merge', { metadata: { labels: restricted } });
    }
    this.nodeUid = node.metadata?.uid;
    this.readyAt = clock.now();
    await this.reportStatus(true);
    // The emulated CSI drivers' node plugins announce themselves once the kubelet is up (src/node/volumes/csi-registration.ts).
    await registerCsiPlugins(client, this.profile, this.nodeUid, this.o.logger).catch((err) => this.o.logger.warn('CSI driver registration failed', { node: this.name, err: String(err) }));
    const bootID = bootIdFor(this.profile, this.bootCount);
    if (previousBootID && previousBootID !== bootID) {
      this.o.events.event(nodeRef(this.name), 'Warning', 'Rebooted', rebootedMessage(this.name, bootID));
    }
    await this.renew();
  }

  start(): void {
    this.stopped = false;
    this.tick();
  }

  stop(): void {
    this.stopped = true;
    this.services?.dispose();
    this.heartbeat?.cancel();
    // The node is going down: probes stop, and so do the containers' processes.
    for (const rec of this.pods.values()) {
      this.probes.forget(rec);
      this.processes.forget(rec);
    }
    for (const t of this.timers.values()) t.timer.cancel();
    this.timers.clear();
  }

  /**
   * The kubelet process stops (Stop-Service kubelet, or a crash before the SCM restarts it): it no longer renews its
   * Lease or posts status, so the node lifecycle controller marks the node NotReady; probes stop with it, while the
   * runtime keeps the containers running (seed 000 "Node-level troubleshooting" Q2).
   */
  suspend(): void {
    if (this.suspended) return;
    this.suspended = true;
    this.heartbeat?.cancel();
    for (const rec of this.pods.values()) this.probes.forget(rec);
  }

  /** The kubelet process starts again: status and Lease at once, then every pod is synced, with what it missed. */
  resume(): void {
    if (!this.suspended || this.stopped) return;
    this.suspended = false;
    void this.reportStatus(true).catch(() => { /* logged; the next heartbeat retries */ });
    void this.renew();
    this.tick();
    const missed = [...this.missed.values()];
    this.missed.clear();
    for (const m of missed) if (m.deleted) this.podDeleted(m.pod); else this.podChanged(m.pod);
    for (const rec of [...this.pods.values()]) {
      this.o.statusWriter.invalidate(rec.key);
      this.sync(rec, true);
    }
  }

  /** One heartbeat: renew the lease and write node status if it changed or is due (10 s cadence). */
  private tick(): void {
    if (this.stopped || this.suspended) return;
    this.heartbeat = this.o.clock.setTimeout(() => {
      void Promise.allSettled([this.renew(), this.reportStatus(false)]).finally(() => this.tick());
    }, nextHeartbeatMs());
  }

  private async renew(): Promise<void> {
    try {
      await renewLease(this.o.client, this.name, this.nodeUid, this.o.clock.now(), this.leaseExists);
      this.leaseExists = true;
    } catch (err) {
      this.o.logger.warn('lease renewal failed', { node: this.name, err: String(err) });
    }
  }

  private async reportStatus(force: boolean): Promise<void> {
    const now = this.o.clock.now();
    const inUse = volumesInUse(this.pods.values(), this.o.config ?? NO_CONFIG, this.profile.kubeletVersion);
    // Images and boots change rarely: the steady parts are built (and turned into text) once per change, not per
    // heartbeat, which at thousands of nodes was most of the node agent's status work.
    const steadyKey = `${this.bootCount}\n${[...this.images].join('\n')}`;
    if (this.steady?.key !== steadyKey) {
      const status = steadyNodeStatus(this.profile, this.images, this.bootCount);
      this.steady = { key: steadyKey, status, json: JSON.stringify(status) };
    }
    const conditions = nodeConditions(now, this.readyAt);
    // null removes the field through the merge patch when nothing is mounted, as kube omits an empty list.
    const status = { ...withConditions(this.steady.status, conditions), volumesInUse: inUse.length ? inUse : null };
    // Compare without heartbeat times: a change is written at once, an unchanged status every 5 minutes.
    const shape = `${this.steady.json}${JSON.stringify(inUse)}${conditions.map((c) => `${c.type}=${c.status}@${c.lastTransitionTime}`).join()}`;
    if (!force && shape === this.lastStatusJson && now - this.lastReported < NODE_STATUS_REPORT_MS) return;
    try {
      await this.o.client.patch(R.nodes, undefined, this.name, 'merge', { status }, { subresource: 'status' });
      this.lastStatusJson = shape;
      this.lastReported = now;
    } catch (err) {
      this.o.logger.warn('node status update failed', { node: this.name, err: String(err) });
      if (force) throw err;
    }
  }

  // ---- pods ----

  /** A pod bound to this node was added or changed. */
  podChanged(pod: Pod): void {
    if (this.stopped) return;
    const key = objectKey(pod as { metadata: { name?: string; namespace?: string } });
    if (this.suspended) {
      this.missed.set(key, { pod, deleted: false });
      return;
    }
    let rec = this.pods.get(key);
    if (rec && rec.uid !== pod.metadata?.uid) {
      this.cleanup(rec);
      rec = undefined;
    }
    if (!rec) {
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') {
        // Already finished (e.g. before an agent restart): only its deletion needs us.
        if (pod.metadata?.deletionTimestamp) void this.deletePod(key, pod.metadata.uid ?? '');
        return;
      }
      // A pod with container statuses was started by an earlier run of this node: after a restart the runtime has
      // none of its containers, and the kubelet picks up from the API status instead of starting afresh.
      rec = ranBefore(pod) ? restorePodRuntime(pod, this.o.clock.now()) : newPodRuntime(pod, this.o.clock.now());
      this.pods.set(key, rec);
    } else {
      rec.pod = pod;
    }
    this.sync(rec);
  }

  podDeleted(pod: Pod): void {
    const key = objectKey(pod as { metadata: { name?: string; namespace?: string } });
    if (this.suspended) {
      this.missed.set(key, { pod, deleted: true });
      return;
    }
    const rec = this.pods.get(key);
    if (rec && rec.uid === pod.metadata?.uid) this.cleanup(rec);
  }

  /**
   * The token manager has a (new) ServiceAccount token for the pod: a sandbox waiting for it is made now, and running
   * containers see the renewed token in their projected volumes.
   */
  tokenRefreshed(pod: Pod): void {
    const rec = this.pods.get(objectKey(pod as { metadata: { name?: string; namespace?: string } }));
    if (!rec || rec.uid !== pod.metadata?.uid || this.stopped || this.suspended) return;
    rec.sandboxRetryAt = undefined;
    this.processes.refreshTokenVolumes(rec);
    this.sync(rec);
  }

  /** The log `kubectl logs` reads for a container of a pod on this node, or the kubelet's reason there is none. */
  containerLog(namespace: string, name: string, container: string, previous: boolean): { log?: ContainerLog; error?: string; status: number } {
    const rec = this.pods.get(`${namespace}/${name}`);
    if (!rec) return { status: 404, error: `pod "${name}" does not exist` };
    const target = containerLogTarget(name, rec.reported ?? rec.pod.status, container, previous);
    if ('error' in target) return { status: 400, error: target.error };
    const c = rec.containers.find((x) => x.name === container);
    const log = [c?.log, c?.previousLog].find((l) => l && l.containerID === target.containerID);
    // A log from before an agent restart is not kept: it reads as empty.
    return { status: 200, log: log ?? new ContainerLog(target.containerID, () => this.o.clock.now()) };
  }

  /** The pods the kubelet runs, as its /pods endpoint lists them. */
  runningPods(): Pod[] {
    return [...this.pods.values()].map((r) => ({ ...r.pod, status: r.reported ?? r.pod.status }));
  }

  /** What the stats endpoints read (src/node/stats): the runtime's pods and images, and when the node booted. */
  statsSource(): StatsSource {
    return { profile: this.profile, bootTime: this.readyAt, images: this.images, pods: [...this.pods.values()] };
  }

  get podCount(): number {
    return this.pods.size;
  }

  /** Runs the pod's due stages, brings its probes in line, writes its status and sets its next timer. */
  private sync(rec: PodRuntime, changed = false): void {
    if (this.suspended) return;
    const ran = this.o.engine.runDue(this.ctx, rec);
    if (this.pods.get(rec.key) !== rec) return;
    this.probes.reconcile(rec);
    this.announce(rec);
    if (changed || ran > 0 || rec.state !== 'admit') this.writeStatus(rec);
    this.schedule(rec);
  }

  private writeStatus(rec: PodRuntime): void {
    const times = { ...rec.conditionTimes };
    const status = keepTerminalPhase(rec.pod.status?.phase, buildPodStatus(rec, this.profile, this.o.clock.now(), rec.pod.status));
    const illegal = illegalTransition(rec.reported ?? rec.pod.status, status, rec.pod.spec?.restartPolicy);
    if (illegal) {
      // Dropped whole, as the status manager does: condition transitions date from the status that is recorded.
      rec.conditionTimes = times;
      this.o.logger.debug('Status update on pod aborted', { pod: rec.key, err: illegal });
      return;
    }
    rec.reported = status;
    this.o.statusWriter.set(rec.key, rec.uid, status, this.o.client);
  }

  /** Keeps exactly one timer per pod, at the next stage's due time. */
  private schedule(rec: PodRuntime): void {
    const due = this.o.engine.nextDue(this.ctx, rec);
    const cur = this.timers.get(rec.key);
    if (cur && due && cur.at === due.at) return;
    cur?.timer.cancel();
    this.timers.delete(rec.key);
    if (!due || this.stopped) return;
    const delay = Math.max(0, due.at - this.o.clock.now());
    const timer = this.o.clock.setTimeout(() => {
      this.timers.delete(rec.key);
      const run = () => { if (this.pods.get(rec.key) === rec) this.sync(rec); };
      if (this.o.runner) this.o.runner.run(run);
      else run();
    }, delay);
    this.timers.set(rec.key, { at: due.at, timer });
  }

  private async finalize(rec: PodRuntime): Promise<void> {
    this.writeStatus(rec);
    await this.o.statusWriter.flush(rec.key);
    await this.deletePod(rec.key, rec.uid);
    if (this.pods.get(rec.key) === rec) this.cleanup(rec);
  }

  /** The kubelet removes the object once its containers are gone (status_manager.go canBeDeleted → Delete, grace 0). */
  private async deletePod(key: string, uid: string): Promise<void> {
    const [namespace, name] = key.split('/');
    try {
      await this.o.client.delete(R.pods, namespace, name, { gracePeriodSeconds: 0, preconditions: { uid } });
    } catch (err) {
      if (!isNotFound(err)) this.o.logger.warn('pod delete failed', { pod: key, err: String(err) });
    }
  }

  /** Puts the pod's IP in the network model once its sandbox has one, so flows can reach it. */
  private announce(rec: PodRuntime): void {
    this.net.podUp(rec);
  }

  /**
   * The running container an exec or attach session talks to, or the kubelet's error (server.go getExec: the pod must
   * exist; the runtime finds the container by name).
   */
  streamTarget(namespace: string, pod: string, container: string): { log?: ContainerLog; stdin?: Writable; stdinOnce?: boolean } | { status: number; error: string } {
    const rec = this.pods.get(`${namespace}/${pod}`);
    if (!rec) return { status: 404, error: 'pod does not exist' };
    const c = rec.containers.find((x) => x.name === container);
    if (!c || c.state !== 'running') return { status: 404, error: `container not found (${JSON.stringify(container)})` };
    return { log: c.log, stdin: this.processes.process(c)?.stdin, stdinOnce: containerSpec(rec.pod, c)?.stdinOnce };
  }

  /** The pod a port-forward reaches: what listens on each port of its network namespace. */
  portForwardTarget(namespace: string, pod: string): { os: 'linux' | 'windows'; sandboxID: string; uid: string; listener(port: number): Listener | undefined } | { status: number; error: string } {
    const rec = this.pods.get(`${namespace}/${pod}`);
    if (!rec || !rec.sandboxID) return { status: 404, error: 'pod does not exist' };
    return {
      os: this.profile.os, sandboxID: rec.sandboxID, uid: rec.uid,
      listener: (port) => podListener(rec, port, 'TCP', (c) => this.processes.listeners(c)),
    };
  }

  /** Resolves a name as the pod at this address would: its first running container's resolver (OS search rules). */
  async resolveFromPod(ip: string, name: string): Promise<string | undefined> {
    for (const rec of this.pods.values()) {
      if (rec.podIP !== ip) continue;
      for (const c of rec.containers) {
        const p = c.state === 'running' ? this.processes.process(c) : undefined;
        if (!p) continue;
        const r = await resolveHost(p.env, name);
        return 'ip' in r ? r.ip : undefined;
      }
    }
    return undefined;
  }

  /** Runs a command in a running container (kubectl exec); undefined when the container is not running. */
  exec(namespace: string, pod: string, container: string, argv: string[], io: ShellIO): Promise<RunResult> | undefined {
    const rec = this.pods.get(`${namespace}/${pod}`);
    const c = rec?.containers.find((x) => x.name === container);
    return c && c.state === 'running' ? this.processes.exec(c, argv, io) : undefined;
  }

  private cleanup(rec: PodRuntime): void {
    this.probes.forget(rec);
    this.processes.forget(rec);
    this.net.podDown(rec);
    this.timers.get(rec.key)?.timer.cancel();
    this.timers.delete(rec.key);
    // CNI DEL: the plugin releases the address and deletes the HNS endpoint.
    if (rec.sandboxID) this.nodeNetwork.teardownSandbox(rec.sandboxID);
    this.ipam.release(rec.uid);
    this.o.statusWriter.forget(rec.key);
    this.pods.delete(rec.key);
  }

  /** Pods that hold node resources for admission: admitted and not finished. */
  private admittedPods(except: PodRuntime): Pod[] {
    const out: Pod[] = [];
    for (const r of this.pods.values()) {
      if (r !== except && (r.state === 'sandbox' || r.state === 'active' || r.state === 'terminating')) out.push(r.pod);
    }
    return out;
  }

  private podRef(rec: PodRuntime, container?: string, init?: boolean): ObjectReference {
    const ref: ObjectReference = {
      apiVersion: 'v1', kind: 'Pod', namespace: rec.pod.metadata?.namespace, name: rec.pod.metadata?.name, uid: rec.uid,
      resourceVersion: rec.pod.metadata?.resourceVersion,
    };
    if (container) ref.fieldPath = `spec.${init ? 'initContainers' : 'containers'}{${container}}`;
    return ref;
  }
}
