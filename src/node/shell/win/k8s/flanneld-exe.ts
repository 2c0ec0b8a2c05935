// flanneld.exe in a HostProcess container (sigwindowstools/flannel images, flannel v0.21.5): its start-up lines with
// --kube-subnet-mgr on the vxlan backend, the subnet file it writes, then it runs until stopped. It creates no HNS
// network: the node's flanneld service (src/node/os/windows/services.ts, src/network/cni) already made the one this
// node uses, and a second flanneld leasing the same node's subnet would only find it again, so this process reports
// the network it finds.

import { untilAborted, type Ctx } from '../../core/ctx.js';
import { goFlags, klog } from './klog.js';

const PID = 4680;
const BOOLEANS = new Set(['kube-subnet-mgr', 'ip-masq', 'version', 'iptables-forward-rules', 'set-node-network-unavailable', 'use-multi-cluster-cidr']);
export const FLANNEL_VERSION = 'v0.21.5';

interface NetConf { Network?: string; Backend?: { Type?: string; VNI?: number; Port?: number; MacPrefix?: string } }

const envVar = (ctx: Ctx, name: string) => Object.entries(ctx.vars).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? '';
/** Go paths like /etc/x are on the current drive on Windows. */
const onDrive = (p: string) => (/^[a-z]:/i.test(p) ? p : `C:${p.replace(/\//g, '\\')}`);

export async function flanneldExe(argv: string[], ctx: Ctx): Promise<number> {
  const flags = goFlags(argv.slice(1), BOOLEANS);
  const last = (n: string, d = '') => flags.get(n)?.at(-1) ?? d;
  if (last('version') === 'true') {
    ctx.stderr.write(`${FLANNEL_VERSION}\n`);
    return 0;
  }
  const log = klog(ctx, PID);
  const b = (n: string, d: boolean) => (flags.has(n) ? /^(1|t|true)$/i.test(last(n)) : d);
  const o = {
    iface: flags.get('iface') ?? [], subnetFile: last('subnet-file', '/run/flannel/subnet.env'), netConfPath: last('net-config-path', '/etc/kube-flannel/net-conf.json'),
  };
  // main.go:211 prints CmdLineOpts with %+v, in struct order.
  log.f('I', 'main.go:211', `CLI flags config: {etcdEndpoints:${last('etcd-endpoints', 'http://127.0.0.1:4001,http://127.0.0.1:2379')} etcdPrefix:${last('etcd-prefix', '/coreos.com/network')} etcdKeyfile: etcdCertfile: etcdCAFile: etcdUsername: etcdPassword: version:false kubeSubnetMgr:${b('kube-subnet-mgr', false)} kubeApiUrl:${last('kube-api-url')} kubeAnnotationPrefix:${last('kube-annotation-prefix', 'flannel.alpha.coreos.com')} kubeConfigFile:${last('kubeconfig-file')} iface:[${o.iface.join(' ')}] ifaceRegex:[] ipMasq:${b('ip-masq', false)} ifaceCanReach: subnetFile:${o.subnetFile} publicIP: publicIPv6: subnetLeaseRenewMargin:60 healthzIP:0.0.0.0 healthzPort:0 iptablesResyncSeconds:5 iptablesForwardRules:true netConfPath:${o.netConfPath} setNodeNetworkUnavailable:true useMultiClusterCidr:false}`);
  if (!b('kube-subnet-mgr', false)) {
    // The etcd subnet manager: nothing answers on the default endpoints.
    log.f('E', 'main.go:590', 'Couldn\'t fetch network config: client: etcd cluster is unavailable or misconfigured; error #0: dial tcp 127.0.0.1:2379: connectex: No connection could be made because the target machine actively refused it.');
    return untilAborted(ctx.signal);
  }
  // client-go falls back to the in-cluster config (the line as flannel-io/flannel#1944's Windows log shows it).
  if (!last('kubeconfig-file') && !last('kube-api-url')) log.f('W', 'client_config.go:618', 'Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.');
  // pkg/subnet/kube/kube.go NewSubnetManager reads the net conf before it starts its node informer.
  const confPath = onDrive(o.netConfPath);
  const raw = ctx.env.fs.stat(confPath)?.kind === 'file' ? ctx.env.fs.readFile(confPath).toString().replace(/^\uFEFF/, '') : undefined;
  if (raw === undefined) {
    log.f('E', 'main.go:228', `Failed to create SubnetManager: failed to read net conf: open ${o.netConfPath}: The system cannot find the path specified.`);
    return 1;
  }
  let conf: NetConf;
  try { conf = JSON.parse(raw) as NetConf; } catch (e) {
    log.f('E', 'main.go:228', `Failed to create SubnetManager: error parsing subnet config: ${(e as Error).message}`);
    return 1;
  }
  const node = envVar(ctx, 'NODE_NAME') || ctx.env.system.nodeName;
  const backend = conf.Backend ?? {};
  const vni = backend.VNI ?? 4096;
  const name = `flannel.${vni}`;
  const hns = ctx.env.hostNetwork?.hnsNetworks().find((n) => n.name.toLowerCase() === name);
  const lease = hns?.subnets[0]?.addressPrefix ?? '';
  log.f('I', 'kube.go:144', 'Waiting 10m0s for node controller to sync');
  log.f('I', 'kube.go:485', 'Starting kube subnet manager');
  if (lease) log.f('I', 'kube.go:506', `Creating the node lease for IPv4. This is the n.Spec.PodCIDRs: [${lease}]`);
  log.f('I', 'kube.go:151', 'Node controller sync successful');
  log.f('I', 'main.go:231', `Created subnet manager: Kubernetes Subnet Manager - ${node}`);
  log.f('I', 'main.go:234', 'Installing signal handlers');
  log.f('I', 'main.go:542', `Found network config - Backend type: ${backend.Type ?? ''}`);
  // pkg/ipmatch/match.go LookupExtIface with --iface <ip>: the host adapter the vSwitch owns.
  const ip = o.iface[0] ?? ctx.env.network.interfaces[0]?.ip ?? '';
  if (o.iface.length) log.f('I', 'match.go:73', `Searching for interface using ${ip}`);
  else log.f('I', 'match.go:206', 'Determining IP address of default interface');
  log.f('I', 'match.go:259', `Using interface with name vEthernet (Ethernet) and address ${ip}`);
  log.f('I', 'match.go:281', `Defaulting external address to interface address (${ip})`);
  if ((backend.Type ?? '').toLowerCase() === 'vxlan') {
    // pkg/backend/vxlan/vxlan_windows.go: VNI >= 4096 and port 4789 only.
    if (vni < 4096) {
      log.f('E', 'main.go:326', `Error fetching backend: invalid VXLAN backend config. VNI [${vni}] must be greater than or equal to 4096 on Windows`);
      return 1;
    }
    log.f('I', 'vxlan_windows.go:125', `VXLAN config: Name=${name} MacPrefix=${backend.MacPrefix ?? '0E-2A'} VNI=${vni} Port=${backend.Port ?? 4789} GBP=false DirectRouting=false`);
  }
  // main.go WriteSubnetFile: the node's lease, first address + 1, and the backend's MTU.
  if (lease && conf.Network) {
    const [base, bits] = lease.split('/');
    const o4 = base.split('.').map(Number);
    const file = onDrive(o.subnetFile);
    ctx.env.fs.mkdir(file.replace(/\\[^\\]+$/, ''), { parents: true });
    ctx.env.fs.writeFile(file, `FLANNEL_NETWORK=${conf.Network}\nFLANNEL_SUBNET=${o4[0]}.${o4[1]}.${o4[2]}.${o4[3] + 1}/${bits}\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=${b('ip-masq', false)}\n`);
    log.f('I', 'main.go:435', `Wrote subnet file to ${o.subnetFile}`);
  }
  log.f('I', 'main.go:439', 'Running backend.');
  log.f('I', 'vxlan_network_windows.go:62', 'Watching for new subnet leases');
  log.f('I', 'main.go:460', 'Waiting for all goroutines to exit');
  return untilAborted(ctx.signal);
}
