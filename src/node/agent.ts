// NodeAgent: hosts many kubelets in one process. One shared pod informer, indexed by spec.nodeName, feeds every
// kubelet; registration runs with bounded concurrency; no per-node watches or polling loops.

import type { ObjectReference, PersistentVolume, PersistentVolumeClaim, PersistentVolumeSpec, Pod, Service } from 'kubernetes-types/core/v1.js';
import { canExpandOnline, expandedStatus, needsNodeExpansion, resizeSuccessfulMessage } from './volumes/online-expansion.js';
import { configureVolumeStore, persistentVolumeDeleted } from '../csi/backend.js';
import type { KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { Informer, InformerFactory } from '../client/informer.js';
import { R } from '../client/resources.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { KubeletEventRecorder, type EventRecorder } from './events.js';
import type { NodeProfile } from './profile.js';
import { ACTIONS } from './stages/actions.js';
import { StageEngine } from './stages/engine.js';
import { POD_STAGES } from './stages/pod-stages.js';
import type { Stage, StageTimings } from './stages/types.js';
import { StatusWriter } from './status-writer.js';
import type { ConfigSource } from './process/env-vars.js';
import { ServiceAccountTokenManager } from './volumes/token-manager.js';
import { ClusterZone, DEFAULT_CLUSTER_DNS } from '../network/dns/zone.js';
import { FlannelPeers } from '../network/cni/flannel-peers.js';
import { SlicedRunner } from '../util/sliced-runner.js';
import { ClusterNetwork, type ClusterNetworkOptions } from '../network/model/cluster-network.js';
import { commonPrefix6 } from '../network/ipam/cidr6.js';
import { formatHnsView } from '../network/hns/format.js';
import type { SliceLike } from '../network/proxy/service-ports.js';
import { defaultNetworkProfile } from '../network/profile.js';
import { feedPolicies } from '../network/policy/feed.js';
import { warnWhenPoliciesUnreadable } from '../network/policy/access-warning.js';
import type { NetworkInspection } from './server/network-endpoints.js';
import { Kubelet, type KubeletOptions } from './kubelet.js';
import { leaseOf } from '../network/cni/flannel-setup.js';
import type { Node } from 'kubernetes-types/core/v1.js';
import { KubeletServer, type KubeletServerTls } from './server/kubelet-server.js';
import { serveStream } from './server/stream-handlers.js';

export const NODE_NAME_INDEX = 'spec.nodeName';

export interface NodeAgentOptions {
  /**
   * The agent's own client: its shared informers (one cluster-wide watch per resource for all its kubelets) and the
   * labels kubelets may not set themselves. A real kubelet has neither; see docs/cli.md (component identities).
   */
  client: Client;
  /** The client a kubelet acts through (system:node:<name>, for the Node authorizer); `client` when absent. */
  clientFor?: (node: string) => Client;
  clock: Clock;
  logger: Logger;
  profiles: NodeProfile[];
  /** Shared informers of the process; the agent makes its own when absent. */
  informers?: InformerFactory;
  /** Event sink per node; defaults to core/v1 Events written through the client. */
  events?: (node: string) => EventRecorder;
  stages?: readonly Stage[];
  /** Run due pod stages a slice of time at a time, yielding to I/O between slices (winkube up; tests run them inline). */
  slicedStages?: boolean;
  timings?: StageTimings;
  /** Nodes registered at once during start(). */
  registerConcurrency?: number;
  /** TLS of the kubelet server (logs, exec, attach, port-forward, node proxy); no server when absent. */
  serverTls?: KubeletServerTls;
  /** The Service CIDR (kube-apiserver --service-cluster-ip-range); default 10.96.0.0/12. */
  serviceCIDR?: string;
  /** Dual stack: the IPv6 Service CIDR (the range's second entry). */
  serviceCIDRv6?: string;
  /** kube-apiserver as pods reach it: its advertised address and port, and the real server on loopback. */
  apiServer?: KubeletOptions['apiServer'];
  /** Where network volume data lives (src/csi/backend.ts); this process's memory when absent. */
  volumeDir?: string;
}

export class NodeAgent {
  private readonly kubelets = new Map<string, Kubelet>();
  /** Each kubelet's event recorder, for the volume work the agent does on a kubelet's behalf (online expansion). */
  private readonly recorders = new Map<string, { event(ref: ObjectReference, type: 'Normal' | 'Warning', reason: string, message: string): void }>();
  /** The flannel leases of all Nodes, as every node's flanneld follows them (one table for the agent's nodes). */
  private readonly flannelPeers = new FlannelPeers();
  private readonly informers: InformerFactory;
  private readonly ownsInformers: boolean;
  private readonly podInformer: Informer<KubeObject>;
  /** Pod-bound ServiceAccount tokens for projected volumes (one token manager for the agent's kubelets). */
  private readonly tokens: ServiceAccountTokenManager;
  private readonly configMaps: Informer<KubeObject>;
  private readonly secrets: Informer<KubeObject>;
  private readonly runtimeClasses: Informer<KubeObject>;
  /** Informers the kubelets read from (started and synced before pods are handled). */
  private readonly lookups: Informer<KubeObject>[] = [];
  private readonly statusWriter: StatusWriter;
  private readonly server?: KubeletServer;
  /** The cluster's data plane as this agent models it (its nodes' HNS and kube-proxies, its pods). */
  readonly network: ClusterNetwork;
  /** NetworkPolicies and Namespaces: started with the others but not waited for (a joined node may not list them). */
  private readonly policyInformers: Informer<KubeObject>[];

  constructor(private readonly o: NodeAgentOptions) {
    const names = new Set<string>();
    for (const p of o.profiles) {
      if (names.has(p.name)) throw new Error(`duplicate node name ${p.name}`);
      names.add(p.name);
    }
    const logger = o.logger.child('node-agent');
    if (o.volumeDir) configureVolumeStore(o.volumeDir);
    this.ownsInformers = !o.informers;
    this.informers = o.informers ?? new InformerFactory({ client: o.client, clock: o.clock, logger });
    // Only pods bound to a node, as each kubelet watches spec.nodeName=<itself>: the agent's one watch for all its
    // nodes leaves out pods the scheduler has yet to place (a pod becomes ADDED when it is bound), which at thousands of
    // pending pods was a parse per create for nothing.
    this.podInformer = new Informer<KubeObject>({ client: o.client, clock: o.clock, logger, resource: R.pods, fieldSelector: 'spec.nodeName!=' });
    this.configMaps = this.informers.for(R.configmaps);
    this.secrets = this.informers.for(R.secrets);
    this.runtimeClasses = this.informers.for(R.runtimeclasses);
    const services = this.informers.for(R.services);
    // persistentVolumeClaim volumes: the kubelet reads claims and volumes (pkg/kubelet/volumemanager populator).
    const claims = this.informers.for(R.persistentvolumeclaims);
    const volumes = this.informers.for(R.persistentvolumes);
    // DeleteVolume of a reclaimed (Delete) CSI volume takes its data off the emulated storage system (src/csi/backend.ts).
    // local-path's directories go through its teardown helper pod, which this agent runs like any pod.
    volumes.addHandler({ delete: (pv) => { persistentVolumeDeleted(pv as unknown as PersistentVolume); } });
    const csiDrivers = this.informers.for(R.csidrivers);
    const attachments = this.informers.for(R.volumeattachments);
    this.tokens = new ServiceAccountTokenManager({
      clock: o.clock,
      // The pod's kubelet asks, so the Node authorizer and NodeRestriction see the node the pod is bound to.
      request: (ns, sa, body, node) => this.clientOf(node).createSubresource(R.serviceaccounts, ns, sa, 'token', body) as Promise<{ status?: { token?: string; expirationTimestamp?: string } }>,
      refreshed: (pod) => this.route(pod)?.tokenRefreshed(pod),
    });
    const config: ConfigSource = {
      ...configSource(this.configMaps, this.secrets, this.runtimeClasses),
      serviceAccountToken: (pod, src) => this.tokens.get(pod, src),
      services: (ns) => [...services.list(ns), ...(ns === 'default' ? [] : services.list('default'))] as unknown as Service[],
      persistentVolumeClaim: (ns, name) => {
        const c = claims.get(`${ns}/${name}`) as { spec?: { volumeName?: string }; status?: { phase?: string } } | undefined;
        return c && { phase: c.status?.phase, volumeName: c.spec?.volumeName };
      },
      persistentVolume: (name) => {
        const pv = volumes.get(name) as { spec?: PersistentVolumeSpec } | undefined;
        return pv && { name, spec: pv.spec };
      },
      // CSI: the kubelet reads CSIDrivers (attachRequired) and waits for VolumeAttachments (pkg/volume/csi/csi_attacher.go).
      attachRequired: (driver) => (csiDrivers.get(driver) as { spec?: { attachRequired?: boolean } } | undefined)?.spec?.attachRequired,
      volumeAttached: (pv, node) => (attachments.list() as { spec?: { nodeName?: string; source?: { persistentVolumeName?: string } }; status?: { attached?: boolean } }[])
        .some((va) => va.spec?.nodeName === node && va.spec?.source?.persistentVolumeName === pv && va.status?.attached === true),
      attachmentAttached: (name) => (attachments.get(name) as { status?: { attached?: boolean } } | undefined)?.status?.attached === true,
    };
    // The data plane: every node's HNS or iptables programmed by its kube-proxy from Services and EndpointSlices,
    // pods by IP from the kubelets; the DNS zone coredns pods answer from, kept from the same informers.
    const endpointSlices = this.informers.for(R.endpointslices);
    // Not waited for: a node joined to another cluster may not list namespaces (the DNS zone then assumes they exist).
    const namespaces = this.informers.for(R.namespaces);
    const dnsZone = new ClusterZone({ dnsIP: DEFAULT_CLUSTER_DNS });
    dnsZone.attach({ namespaces, services, endpointSlices });
    this.network = new ClusterNetwork(addressingOf(o));
    const serviceChanged = (namespace: string, name: string) => {
      const svc = services.get(`${namespace}/${name}`) as unknown as Service | undefined;
      const slices = (endpointSlices.list(namespace) as unknown as SliceLike[]).filter((sl) => sl.metadata?.labels?.['kubernetes.io/service-name'] === name);
      this.network.serviceChanged(namespace, name, svc, slices);
    };
    const onService = (o: KubeObject) => serviceChanged(o.metadata.namespace ?? 'default', o.metadata.name ?? '');
    const onSlice = (o: KubeObject) => {
      const svc = o.metadata.labels?.['kubernetes.io/service-name'];
      if (svc) serviceChanged(o.metadata.namespace ?? 'default', svc);
    };
    services.addHandler({ add: onService, update: (_old, o) => onService(o), delete: onService });
    // NetworkPolicies and namespace labels, for the nodes whose CNI enforces policy (src/network/policy).
    this.policyInformers = [this.informers.for(R.networkpolicies), namespaces];
    feedPolicies(this.network, this.policyInformers[0], namespaces);
    // Credentials that may not read NetworkPolicies: say so once; the informer keeps retrying until RBAC allows.
    warnWhenPoliciesUnreadable(this.policyInformers[0], logger);
    endpointSlices.addHandler({ add: onSlice, update: (_old, o) => onSlice(o), delete: onSlice });
    this.lookups.push(services, endpointSlices, claims, volumes, csiDrivers, attachments);
    // A claim the resizer left FileSystemResizePending is finished by the kubelet of a node that mounts it.
    claims.addHandler({ add: (c) => this.expandOnline(c, volumes), update: (_o, c) => this.expandOnline(c, volumes), delete: () => undefined });
    this.statusWriter = new StatusWriter({ client: o.client, clock: o.clock, logger });
    const engine = new StageEngine(o.stages ?? POD_STAGES, ACTIONS);
    if (o.serverTls) {
      const serverLogger = logger.child('kubelet-server');
      this.server = new KubeletServer({
        tls: o.serverTls, logger: serverLogger, kubelet: (n) => this.kubelets.get(n), now: () => o.clock.now(),
        upgrade: (kubelet, route, url, req, socket, head) => serveStream(kubelet, route, url, req, socket, head, serverLogger),
        network: this.inspection(),
      });
    }
    const serverEndpoint = () => this.serverEndpoint;
    const runner = o.slicedStages ? new SlicedRunner(5, (err) => logger.error('pod stage failed', { err: String(err) })) : undefined;
    for (const profile of o.profiles) {
      const events = o.events?.(profile.name) ?? new KubeletEventRecorder(this.clientOf(profile.name), o.clock, profile.name, logger);
      this.recorders.set(profile.name, events);
      this.kubelets.set(profile.name, new Kubelet({
        profile, client: this.clientOf(profile.name), labeller: o.client, clock: o.clock, logger, engine, statusWriter: this.statusWriter, events, timings: o.timings, serverEndpoint, config, clusterNetwork: this.network, flannelPeers: this.flannelPeers, runner, dnsZone, apiServer: o.apiServer,
      }));
    }
  }

  /** The client of the kubelet of `node` (its own identity when the agent has one per node). */
  private clientOf(node: string | undefined): Client {
    return node && this.o.clientFor ? this.o.clientFor(node) : this.o.client;
  }

  /** NodeExpandVolume for a claim one of this agent's nodes mounts (src/node/volumes/online-expansion.ts). */
  private expandOnline(obj: KubeObject, volumes: Informer<KubeObject>): void {
    const claim = obj as unknown as PersistentVolumeClaim;
    if (!needsNodeExpansion(claim) || !claim.spec?.volumeName) return;
    const pv = volumes.get(claim.spec.volumeName) as unknown as PersistentVolume | undefined;
    if (!pv?.spec?.capacity?.storage) return;
    const ns = claim.metadata?.namespace ?? 'default';
    const pod = (this.podInformer.list(ns) as unknown as Pod[]).find((p) => p.status?.phase === 'Running' && p.spec?.nodeName && this.kubelets.has(p.spec.nodeName)
      && (p.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim.metadata?.name));
    const kubelet = pod && this.kubelets.get(pod.spec!.nodeName!);
    if (!pod || !kubelet || !canExpandOnline(pv, kubelet.profile)) return;
    const status = expandedStatus(claim, pv);
    void this.clientOf(kubelet.name).patch(R.persistentvolumeclaims, ns, claim.metadata!.name!, 'merge', { status }, { subresource: 'status' })
      .then(() => this.recorders.get(kubelet.name)?.event({ kind: 'Pod', apiVersion: 'v1', namespace: ns, name: pod.metadata?.name, uid: pod.metadata?.uid }, 'Normal', 'FileSystemResizeSuccessful', resizeSuccessfulMessage(pv.metadata!.name!, kubelet.name)))
      .catch(() => { /* the next claim update retries */ });
  }

  /** What `winkube net` and `winkube hns` read through the kubelet server. */
  private inspection(): NetworkInspection {
    return {
      net: this.network,
      hnsText: (node, view) => {
        const hns = this.kubelets.get(node)?.nodeNetwork.hnsState;
        return hns ? formatHnsView(hns, view) : undefined;
      },
      resolveFromPod: (pod, name) => this.kubelets.get(pod.node)?.resolveFromPod(pod.ip, name) ?? Promise.resolve(undefined),
    };
  }

  /** Registers every node (Ready), then starts heartbeats and pod handling. Resolves when all nodes are Ready. */
  async start(): Promise<void> {
    await this.server?.listen();
    const all = [...this.kubelets.values()];
    // Each registration is a few requests in a row; with the agent in a worker thread every one crosses to the API
    // server's thread and back, so more run at once (64 stays within the system level's seats under APF).
    const width = this.o.registerConcurrency ?? 64;
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(width, all.length) }, async () => {
      while (next < all.length) await all[next++].register();
    }));
    for (const k of all) k.start();
    // Containers read ConfigMaps and Secrets at create: have them before the first pod is handled.
    // flanneld's kube subnet manager on every node follows the other nodes' leases (RemoteSubnetRoutes, host routes).
    const nodes = this.informers.for(R.nodes);
    // One lease table for all of this agent's nodes; only a changed lease (not a heartbeat) costs work, and only on the
    // nodes that program something per peer (vxlan Windows nodes' RemoteSubnetRoutes).
    const followers = [...this.kubelets.values()].map((k) => k.nodeNetwork).filter((nn) => nn.followsPeers);
    const peer = (o: KubeObject, gone = false) => {
      const n = o as unknown as Node;
      const name = n.metadata?.name;
      if (!name || !this.flannelPeers.set(name, gone ? undefined : leaseOf(n))) return;
      for (const nn of followers) if (nn.profile.name !== name) nn.syncPeers();
    };
    nodes.addHandler({ add: (o) => peer(o), update: (_old, o) => peer(o), delete: (o) => peer(o, true) });
    const lookups = [this.configMaps, this.secrets, this.runtimeClasses, nodes, ...this.lookups];
    for (const inf of [...lookups, ...this.policyInformers]) inf.start();
    await Promise.all(lookups.map((inf) => inf.waitForSync()));
    this.podInformer.addIndexer(NODE_NAME_INDEX, (o) => {
      const node = asPod(o).spec?.nodeName;
      return node ? [node] : [];
    });
    // Tokens are asked for as soon as a pod reaches its node, so its volumes rarely wait for one.
    this.podInformer.addHandler({
      add: (o) => this.prefetchTokens(asPod(o)),
      update: (_old, o) => this.prefetchTokens(asPod(o)),
      delete: (o) => this.tokens.forget(o.metadata.uid ?? ''),
    });
    this.podInformer.addHandler({
      add: (o) => this.route(asPod(o))?.podChanged(asPod(o)),
      update: (_old, o) => this.route(asPod(o))?.podChanged(asPod(o)),
      delete: (o) => this.route(asPod(o))?.podDeleted(asPod(o)),
    });
    if (this.ownsInformers) this.informers.start();
    this.podInformer.start();
  }

  stop(): void {
    this.tokens.stop();
    for (const k of this.kubelets.values()) k.stop();
    this.podInformer.stop();
    if (this.ownsInformers) this.informers.stop();
    void this.server?.close();
  }

  /** host:port of the kubelet server, once listening. */
  get serverEndpoint(): string | undefined {
    return this.server?.port ? `127.0.0.1:${this.server.port}` : undefined;
  }

  kubelet(name: string): Kubelet | undefined {
    return this.kubelets.get(name);
  }

  /** Pods bound to one of our nodes, from the shared index. */
  podsOn(node: string): Pod[] {
    return this.podInformer.byIndex(NODE_NAME_INDEX, node).map(asPod);
  }

  private prefetchTokens(pod: Pod): void {
    const phase = pod.status?.phase;
    if (!this.route(pod) || phase === 'Succeeded' || phase === 'Failed') return;
    for (const v of pod.spec?.volumes ?? []) {
      for (const s of v.projected?.sources ?? []) if (s.serviceAccountToken) this.tokens.get(pod, s.serviceAccountToken);
    }
  }

  private route(p: Pod): Kubelet | undefined {
    const node = p.spec?.nodeName;
    return node ? this.kubelets.get(node) : undefined;
  }
}

/** ConfigMaps and Secrets from the agent's informers (the kubelet's watch-based managers). */
function configSource(configMaps: Informer<KubeObject>, secrets: Informer<KubeObject>, runtimeClasses: Informer<KubeObject>): ConfigSource {
  return {
    runtimeClassHandler: (name) => (runtimeClasses.get(name) as { handler?: string } | undefined)?.handler,
    configMap: (ns, name) => {
      const cm = configMaps.get(`${ns}/${name}`) as { data?: Record<string, string>; binaryData?: Record<string, string> } | undefined;
      if (!cm) return undefined;
      const out = { ...(cm.data ?? {}) };
      for (const [k, v] of Object.entries(cm.binaryData ?? {})) out[k] = Buffer.from(v, 'base64').toString('latin1');
      return out;
    },
    secret: (ns, name) => {
      const s = secrets.get(`${ns}/${name}`) as { data?: Record<string, string> } | undefined;
      if (!s) return undefined;
      return Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    },
  };
}

/** Informer objects are untyped KubeObjects; pods from the pods informer are Pods. */
const asPod = (o: KubeObject): Pod => o as unknown as Pod;

/** The cluster's address ranges as the agent's nodes were built with them (the fleet's addressing). */
function addressingOf(o: NodeAgentOptions): ClusterNetworkOptions {
  const first = o.profiles[0];
  const net = first?.network ?? (first ? defaultNetworkProfile(first.os) : undefined);
  const nodeIP = first?.internalIP ?? '172.18.0.2';
  const v6 = o.profiles.map((p) => p.podCIDRv6).filter((c): c is string => !!c);
  const nodeV6 = o.profiles.find((p) => p.internalIPv6)?.internalIPv6;
  return {
    // Dual stack: the IPv6 pod range as the smallest prefix holding every node's IPv6 pod CIDR.
    clusterCIDRv6: v6.length ? commonPrefix6(v6) : undefined,
    nodeNetworkv6: nodeV6 ? `${nodeV6.split(':').slice(0, 4).join(':')}::/64` : undefined,
    serviceCIDRv6: o.serviceCIDRv6,
    serviceCIDR: o.serviceCIDR ?? net?.serviceCIDR ?? '10.96.0.0/12',
    clusterCIDR: net?.clusterCIDR ?? (first?.podCIDR.startsWith('10.244.') === false ? `${first.podCIDR.split('.')[0]}.0.0.0/8` : '10.244.0.0/16'),
    // A /16 around the nodes' addresses, like kind's docker network; its .1 stands for the user's machine.
    nodeNetwork: `${nodeIP.split('.').slice(0, 2).join('.')}.0.0/16`,
  };
}
