// The controller manager: an explicit registry of controllers, the enabled set chosen like kube-controller-manager's
// `--controllers` flag (`*`, `name`, `-name`), one shared informer factory, start and stop.

import { InformerFactory } from '../client/informer.js';
import type { Client } from '../client/interfaces.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import * as daemonset from './daemonset/controller.js';
import * as statefulset from './statefulset/controller.js';
import * as deployment from './deployment/controller.js';
import * as cronjob from './cronjob/controller.js';
import * as job from './job/controller.js';
import * as ttlafterfinished from './ttlafterfinished/controller.js';
import * as disruption from './disruption/controller.js';
import * as endpoints from './endpoints/controller.js';
import * as endpointslice from './endpointslice/controller.js';
import * as gc from './garbagecollector/controller.js';
import * as namespace from './namespace/controller.js';
import * as podgc from './podgc/controller.js';
import * as replicaset from './replicaset/controller.js';
import * as replication from './replicationcontroller/controller.js';
import * as podautoscaler from './podautoscaler/controller.js';
import * as resourcequota from './resourcequota/controller.js';
import * as serviceaccount from './serviceaccount/controller.js';
import * as rootca from './rootcacertpublisher/controller.js';
import * as tokens from './serviceaccount/tokens-controller.js';
import type { TokenSigner } from '../apiserver/authn/service-account-token.js';
import * as clusterroleaggregation from './clusterroleaggregation/controller.js';
import * as bootstrapsigner from './bootstrapsigner/controller.js';
import * as csrapprover from './certificates/approver.js';
import * as csrsigner from './certificates/signer.js';
import * as servicelb from './servicelb/controller.js';
import * as nodelifecycle from './nodelifecycle/controller.js';
import * as pvbinder from './volume/binder.js';
import * as localpath from './volume/local-path.js';
import * as attachdetach from './volume/attach-detach.js';
import * as csiattacher from './volume/csi-attacher.js';
import * as csiprovisioner from './volume/csi-provisioner.js';
import * as csiresizer from './volume/csi-resizer.js';
import * as protection from './volume/protection.js';
import type { NodeLifecycleConfig } from './nodelifecycle/config.js';
import * as tainteviction from './nodelifecycle/taint-eviction.js';
import type { Controller } from './util/base.js';
import { createEventRecorder } from '../client/event-recorder.js';
import type { EventRecorder } from './util/events.js';

export interface ControllerContext {
  client: Client;
  informers: InformerFactory;
  clock: Clock;
  logger: Logger;
  /** An event recorder whose events name `component` as their source. */
  recorder(component: string): EventRecorder;
  /** The cluster CA certificate (--root-ca-file); the root CA publisher needs it. */
  rootCA?: string;
  /** --cluster-signing-cert-file / --cluster-signing-key-file: the CSR signer issues with this CA. */
  clusterSigning?: { cert: string; key: string };
  /** --service-account-private-key-file: signs the tokens of legacy token Secrets. */
  serviceAccountTokenSigner?: TokenSigner;
  /** --node-monitor-grace-period and the node lifecycle controller's other settings. */
  nodeLifecycle?: Partial<NodeLifecycleConfig>;
  /** --horizontal-pod-autoscaler-sync-period and the HPA controller's other settings. */
  podAutoscaler?: Partial<podautoscaler.PodAutoscalerConfig>;
  /** How long the ReplicaSet controllers gather pod events into one sync (0: none). */
  podEventBatchMs?: number;
}

export interface ControllerDescriptor {
  name: string;
  /** Older names kube-controller-manager still accepts in --controllers (e.g. `deployment`). */
  aliases: string[];
  /** Only started when named explicitly. */
  disabledByDefault?: boolean;
  create(ctx: ControllerContext): Controller;
}

export class ControllerRegistry {
  private readonly list: ControllerDescriptor[] = [];

  register(d: ControllerDescriptor): this {
    const taken = new Set(this.list.flatMap((x) => [x.name, ...x.aliases]));
    for (const n of [d.name, ...d.aliases]) if (taken.has(n)) throw new Error(`a controller named ${n} is already registered`);
    this.list.push(d);
    return this;
  }

  get all(): readonly ControllerDescriptor[] {
    return this.list;
  }

  /**
   * The controllers enabled by a `--controllers` list: a name enables, `-name` disables, `*` enables the rest of the
   * defaults (cmd/kube-controller-manager/app/options IsControllerEnabled). Unknown names are an error.
   */
  enabled(flags: string[] = ['*']): ControllerDescriptor[] {
    const known = new Map<string, ControllerDescriptor>();
    for (const d of this.list) for (const n of [d.name, ...d.aliases]) known.set(n, d);
    for (const f of flags) {
      const n = f.startsWith('-') ? f.slice(1) : f;
      if (n !== '*' && !known.has(n)) throw new Error(`"${n}" is not in the list of known controllers`);
    }
    return this.list.filter((d) => {
      const names = [d.name, ...d.aliases];
      let star = false;
      for (const f of flags) {
        if (names.includes(f)) return true;
        if (f.startsWith('-') && names.includes(f.slice(1))) return false;
        if (f === '*') star = true;
      }
      return star && !d.disabledByDefault;
    });
  }
}

/** The built-in controllers, in kube-controller-manager's names. */
export function defaultRegistry(): ControllerRegistry {
  return new ControllerRegistry()
    .register({ name: deployment.NAME, aliases: ['deployment'], create: (c) => new deployment.DeploymentController({ ...c, recorder: c.recorder(deployment.COMPONENT) }) })
    .register({ name: replicaset.NAME, aliases: ['replicaset'], create: (c) => new replicaset.ReplicaSetController({ ...c, recorder: c.recorder(replicaset.COMPONENT) }) })
    .register({ name: replication.NAME, aliases: ['replicationcontroller'], create: (c) => new replication.ReplicationControllerController({ ...c, recorder: c.recorder(replication.COMPONENT) }) })
    .register({ name: podautoscaler.NAME, aliases: ['horizontalpodautoscaling'], create: (c) => new podautoscaler.HorizontalPodAutoscalerController({ ...c, recorder: c.recorder(podautoscaler.COMPONENT), config: c.podAutoscaler }) })
    .register({ name: daemonset.NAME, aliases: ['daemonset'], create: (c) => new daemonset.DaemonSetController({ ...c, recorder: c.recorder(daemonset.COMPONENT) }) })
    .register({ name: statefulset.NAME, aliases: ['statefulset'], create: (c) => new statefulset.StatefulSetController({ ...c, recorder: c.recorder(statefulset.COMPONENT) }) })
    .register({ name: job.NAME, aliases: ['job'], create: (c) => new job.JobController({ ...c, recorder: c.recorder(job.COMPONENT) }) })
    .register({ name: cronjob.NAME, aliases: ['cronjob'], create: (c) => new cronjob.CronJobController({ ...c, recorder: c.recorder(cronjob.COMPONENT) }) })
    .register({ name: ttlafterfinished.NAME, aliases: ['ttl-after-finished'], create: (c) => new ttlafterfinished.TTLAfterFinishedController(c) })
    .register({ name: endpoints.NAME, aliases: ['endpoint'], create: (c) => new endpoints.EndpointsController(c) })
    .register({ name: endpointslice.NAME, aliases: ['endpointslice'], create: (c) => new endpointslice.EndpointSliceController(c) })
    .register({ name: serviceaccount.NAME, aliases: ['serviceaccount'], create: (c) => new serviceaccount.ServiceAccountController(c) })
    .register({ name: namespace.NAME, aliases: ['namespace'], create: (c) => new namespace.NamespaceController(c) })
    .register({ name: gc.NAME, aliases: ['garbagecollector'], create: (c) => new gc.GarbageCollector(c) })
    .register({ name: resourcequota.NAME, aliases: ['resourcequota'], create: (c) => new resourcequota.ResourceQuotaController(c) })
    .register({ name: podgc.NAME, aliases: ['podgc'], create: (c) => new podgc.PodGCController(c) })
    .register({ name: rootca.NAME, aliases: ['root-ca-cert-publisher'], create: (c) => new rootca.RootCaPublisher({ ...c, rootCA: c.rootCA ?? '' }) })
    .register({ name: tokens.NAME, aliases: ['serviceaccount-token'], create: (c) => new tokens.TokensController({ ...c, signer: c.serviceAccountTokenSigner, rootCA: c.rootCA }) })
    .register({ name: clusterroleaggregation.NAME, aliases: ['clusterrole-aggregation'], create: (c) => new clusterroleaggregation.ClusterRoleAggregationController(c) })
    // kube leaves the bootstrap signer off by default and kubeadm turns it on (--controllers=*,bootstrapsigner); on here.
    .register({ name: bootstrapsigner.NAME, aliases: ['bootstrapsigner'], create: (c) => new bootstrapsigner.BootstrapSigner(c) })
    .register({ name: 'certificatesigningrequest-approving-controller', aliases: [csrapprover.NAME], create: (c) => new csrapprover.CsrApprover(c) })
    .register({ name: 'certificatesigningrequest-signing-controller', aliases: [csrsigner.NAME], create: (c) => new csrsigner.CsrSigner({ ...c, ca: c.clusterSigning! }) })
    .register({ name: disruption.NAME, aliases: ['disruption'], create: (c) => new disruption.DisruptionController({ ...c, recorder: c.recorder(disruption.COMPONENT) }) })
    .register({ name: nodelifecycle.NAME, aliases: ['nodelifecycle'], create: (c) => new nodelifecycle.NodeLifecycleController({ ...c, recorder: c.recorder(nodelifecycle.COMPONENT), config: c.nodeLifecycle }) })
    .register({ name: pvbinder.NAME, aliases: ['persistentvolume-binder'], create: (c) => new pvbinder.PersistentVolumeBinder({ ...c, recorder: c.recorder(pvbinder.COMPONENT) }) })
    .register({ name: protection.PVC_NAME, aliases: ['pvc-protection'], create: (c) => new protection.PVCProtectionController(c) })
    .register({ name: protection.PV_NAME, aliases: ['pv-protection'], create: (c) => new protection.PVProtectionController(c) })
    // kind's local-path provisioner runs as a pod; winkube runs its emulation beside the controllers.
    .register({ name: localpath.NAME, aliases: [], create: (c) => new localpath.LocalPathProvisioner({ ...c, recorder: c.recorder(localpath.COMPONENT) }) })
    .register({ name: attachdetach.NAME, aliases: ['attachdetach'], create: (c) => new attachdetach.AttachDetachController({ ...c, recorder: c.recorder(attachdetach.COMPONENT) }) })
    // The emulated CSI drivers' sidecars (external-provisioner, -attacher, -resizer), run beside the controllers.
    .register({ name: csiprovisioner.NAME, aliases: [], create: (c) => new csiprovisioner.CsiProvisioner({ ...c, recorder: c.recorder(csiprovisioner.NAME) }) })
    .register({ name: csiattacher.NAME, aliases: [], create: (c) => new csiattacher.CsiAttacher(c) })
    .register({ name: csiresizer.NAME, aliases: [], create: (c) => new csiresizer.CsiResizer({ ...c, recorder: c.recorder('external-resizer') }) })
    .register({ name: tainteviction.NAME, aliases: [], create: (c) => new tainteviction.TaintEvictionController({ ...c, recorder: c.recorder(tainteviction.COMPONENT) }) })
    // The emulated cloud provider's part (cloud-controller-manager's service controller on a real cluster).
    .register({ name: servicelb.NAME, aliases: ['service-lb'], create: (c) => new servicelb.ServiceLbController({ ...c, recorder: c.recorder(servicelb.COMPONENT) }) });
}

export interface ControllerManagerOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** `--controllers`; default `['*']`. */
  controllers?: string[];
  /** Shared informers; one is made over `client` if absent. */
  informers?: InformerFactory;
  /** Replaces the default API event recorder (e.g. src/client/event-recorder.ts). */
  recorder?: (component: string) => EventRecorder;
  registry?: ControllerRegistry;
  /** The cluster CA certificate, published in every namespace as kube-root-ca.crt. */
  rootCA?: string;
  /** The CA the CSR signer issues with; no signer without it. */
  clusterSigning?: { cert: string; key: string };
  /** Signs legacy token Secrets' tokens (--service-account-private-key-file); the tokens controller idles without it. */
  serviceAccountTokenSigner?: TokenSigner;
  /** Settings of the node lifecycle controller (e.g. --node-monitor-grace-period). */
  nodeLifecycle?: Partial<NodeLifecycleConfig>;
  /** Settings of the horizontal pod autoscaler (e.g. --horizontal-pod-autoscaler-sync-period). */
  podAutoscaler?: Partial<podautoscaler.PodAutoscalerConfig>;
  /** How long the ReplicaSet controllers gather pod events into one sync (0: none, the default). */
  podEventBatchMs?: number;
}

export class ControllerManager {
  readonly controllers: Controller[];
  private readonly informers: InformerFactory;
  private readonly ownsInformers: boolean;

  constructor(opts: ControllerManagerOptions) {
    const logger = opts.logger.child('controller-manager');
    this.ownsInformers = !opts.informers;
    this.informers = opts.informers ?? new InformerFactory({ client: opts.client, clock: opts.clock, logger });
    const ctx: ControllerContext = {
      client: opts.client, informers: this.informers, clock: opts.clock, logger,
      recorder: opts.recorder ?? ((component) => createEventRecorder({ client: opts.client, clock: opts.clock, logger, component })),
      rootCA: opts.rootCA, clusterSigning: opts.clusterSigning, serviceAccountTokenSigner: opts.serviceAccountTokenSigner, nodeLifecycle: opts.nodeLifecycle, podAutoscaler: opts.podAutoscaler, podEventBatchMs: opts.podEventBatchMs,
    };
    // Without a CA there is nothing to publish (kube-controller-manager skips the publisher without --root-ca-file).
    const enabled = (opts.registry ?? defaultRegistry()).enabled(opts.controllers).filter((d) => d.name !== rootca.NAME || opts.rootCA)
      .filter((d) => d.name !== 'certificatesigningrequest-signing-controller' || opts.clusterSigning);
    this.controllers = enabled.map((d) => d.create(ctx));
  }

  /** Starts informers, waits for their caches, then starts every controller's workers. */
  async start(): Promise<void> {
    this.informers.start();
    await Promise.all(this.controllers.map((c) => c.start()));
  }

  stop(): void {
    for (const c of this.controllers) c.stop();
    if (this.ownsInformers) this.informers.stop();
  }
}
