// One kubelet's place in the network model: its node (HNS store, kube-proxy winkernel or iptables), its pods by IP,
// and the network calls of each of its containers, which are flows from the pod (or from the node, for host-network
// and HostProcess containers) through the model.

import { askDns } from '../network/dns/client.js';
import type { ClusterZone } from '../network/dns/zone.js';
import { hnsFeatures } from '../network/hns/features.js';
import type { NodeNetwork } from '../network/cni/node-network.js';
import type { ClusterNetwork } from '../network/model/cluster-network.js';
import { modelNetworkCalls } from '../network/model/pod-view.js';
import type { FlowSource, NodeNet, PodNet } from '../network/model/types.js';
import { defaultNetworkProfile, type KubeProxyProfile } from '../network/profile.js';
import { IptablesProxier } from '../network/proxy/iptables/proxier.js';
import { WinKernelProxier } from '../network/proxy/winkernel/proxier.js';
import type { Listener, NetworkView } from './shell/interfaces.js';
import { apiServerListener, type ApiServerTarget } from './apiserver-listener.js';
import { kubeletMinor } from './kube-version.js';
import type { NodeProfile } from './profile.js';
import type { ContainerRuntime, PodRuntime } from './runtime-state.js';
import { podListener } from './process/pod-servers.js';
import { sandboxJoinsHostNetwork } from './os/windows/host-network.js';

export type NetworkCalls = Pick<NetworkView, 'lookup' | 'connect' | 'http' | 'ping' | 'serveDns'>;

export interface NodeNetOptions {
  profile: NodeProfile;
  nodeNetwork: NodeNetwork;
  model: ClusterNetwork;
  now(): number;
  /** Sockets a container's processes opened. */
  listeners(c: ContainerRuntime): Listener[] | undefined;
  /** The node's running host-network pods (their sockets are the node's). */
  hostNetworkPods(): Iterable<PodRuntime>;
  /** The cluster DNS zone a DNS server program (coredns) answers from. */
  dnsZone?: ClusterZone;
  /** kube-apiserver, which listens on the host network of the node at its advertised address. */
  apiServer?: ApiServerTarget & { address: string; port: number };
}

/** The kube-proxy flags of a node: the profile's, with the network name and source VIP its CNI setup gives. */
function proxyConfig(profile: NodeProfile, nodeNetwork: NodeNetwork): KubeProxyProfile {
  const cfg = { ...(profile.network ?? defaultNetworkProfile(profile.os)).kubeProxy };
  if (profile.os !== 'windows') return cfg;
  cfg.networkName ??= nodeNetwork.podNetworkName;
  const overlay = nodeNetwork.hnsState?.networkByName(cfg.networkName)?.type === 'Overlay';
  // sig-windows-tools' start-up script reserves the source VIP from the node's IPAM (and caches it in
  // C:\k\SourceVip.json); a profile may instead give it, as --source-vip, or leave it out to reproduce the error.
  if (overlay && cfg.sourceVip === undefined) cfg.sourceVip = nodeNetwork.ipam.allocate('source-vip');
  return cfg;
}

export class KubeletNodeNet {
  readonly node: NodeNet;
  /** The pods this kubelet has put in the model, by pod key (each under its address, and its IPv6 one if any). */
  private readonly announced = new Map<string, PodNet>();
  /** The labels each announced pod had when policy renderings last saw it. */
  private readonly labelsSeen = new Map<string, string>();

  constructor(private readonly o: NodeNetOptions) {
    const p = o.profile;
    const minorVersion = kubeletMinor(p.kubeletVersion, 33);
    const api = o.apiServer && o.apiServer.address === p.internalIP ? apiServerListener(o.apiServer.port, o.apiServer) : undefined;
    const node: NodeNet = {
      name: p.name, os: p.os, ip: p.internalIP, ipv6: p.internalIPv6, podCIDR: p.podCIDR, podCIDRv6: p.podCIDRv6, windowsBuild: p.windowsBuild, windowsUBR: p.windowsUBR, minorVersion,
      network: p.network ?? defaultNetworkProfile(p.os), hns: o.nodeNetwork.hnsState,
      listenerAt: (port, protocol) => {
        if (api && port === api.port && protocol === 'TCP') return api;
        for (const rec of o.hostNetworkPods()) {
          const l = podListener(rec, port, protocol, (c) => o.listeners(c));
          if (l) return l;
        }
        return undefined;
      },
    };
    const cfg = proxyConfig(p, o.nodeNetwork);
    if (p.os === 'windows' && node.network.plugin === 'ovn-k8s-cni-overlay') {
      // ovn-kubernetes: only the kubelet runs on the Windows node; OVN load-balances and NATs Services, which are
      // then reachable from the node too (seed 004 "Starting the Cluster", "Known Limitations").
      node.iptables = new IptablesProxier({ name: p.name, nodeIP: p.internalIP }, o.now, 'OVN');
    } else if (p.os === 'windows' && node.hns) {
      node.winkernel = new WinKernelProxier(
        { name: p.name, nodeIP: p.internalIP, computerName: p.name.toUpperCase().slice(0, 15), minorVersion, hns: node.hns, features: hnsFeatures(node.hns.version) },
        cfg, o.now,
      );
    } else if (p.os === 'linux') {
      node.iptables = new IptablesProxier({ name: p.name, nodeIP: p.internalIP }, o.now);
    }
    this.node = node;
    o.model.addNode(node);
  }

  /** kube-proxy's periodic full sync, run now (its node network just appeared). */
  resyncProxy(): void {
    this.o.model.resyncNode(this.node.name);
  }

  /** The pod's sandbox has its address: flows can reach it. */
  podUp(rec: PodRuntime): void {
    const ip = rec.podIP;
    if (!ip || sandboxJoinsHostNetwork(this.o.profile, rec.pod)) return;
    if (this.announced.get(rec.key)?.ip === ip) {
      // A relabel changes which NetworkPolicies select the pod or admit it as a peer: their renderings (HNS ACLs) follow.
      if (this.o.model.policies.index.size) {
        const labels = JSON.stringify(rec.pod.metadata?.labels ?? {});
        if (this.labelsSeen.get(rec.key) !== labels) {
          this.labelsSeen.set(rec.key, labels);
          this.o.model.policies.changed();
        }
      }
      return;
    }
    const pod: PodNet = {
      ip, ipv6: rec.podIPv6, node: this.node.name, namespace: rec.pod.metadata?.namespace ?? 'default', name: rec.pod.metadata?.name ?? '', hostNetwork: false,
      hostPorts: (rec.pod.spec?.containers ?? []).flatMap((c) => (c.ports ?? []).filter((p) => p.hostPort).map((p) => ({ hostPort: p.hostPort!, containerPort: p.containerPort, protocol: p.protocol ?? 'TCP' }))),
      listenerAt: (port, protocol) => podListener(rec, port, protocol, (c) => this.o.listeners(c)),
      // rec.pod follows the pod's updates, so NetworkPolicy sees a relabelled pod at once.
      labels: () => rec.pod.metadata?.labels,
      containerPorts: (rec.pod.spec?.containers ?? []).flatMap((c) => c.ports ?? []),
    };
    this.announced.set(rec.key, pod);
    for (const a of [pod.ip, pod.ipv6]) if (a) this.o.model.setPod(a, pod);
  }

  podDown(rec: PodRuntime): void {
    const pod = this.announced.get(rec.key);
    if (!pod) return;
    this.announced.delete(rec.key);
    this.labelsSeen.delete(rec.key);
    for (const a of [pod.ip, pod.ipv6]) if (a) this.o.model.setPod(a, undefined);
  }

  /** A container's network calls, as flows from its pod (or its node, with the host's network). */
  callsFor(rec: PodRuntime, nameservers: string[]): NetworkCalls {
    const from: FlowSource = sandboxJoinsHostNetwork(this.o.profile, rec.pod) || !rec.podIP ? { kind: 'node', node: this.node.name } : { kind: 'pod', ip: rec.podIP };
    const zone = this.o.dnsZone;
    return {
      ...modelNetworkCalls({
        net: this.o.model, from, nameservers,
        answerDns: (l, fqdn, type) => (l.dns ? askDns(l.dns, fqdn, type, '') : undefined),
      }),
      serveDns: zone ? async (packet, transport) => zone.handle(packet, transport) : undefined,
    };
  }
}
