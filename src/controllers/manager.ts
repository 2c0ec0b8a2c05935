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
import * as legacytokens from './serviceaccount/legacy-token-cleaner.js';
import type { TokenSigner } from '../apiserver/authn/service-account-token.js';
import * as clusterroleaggregation from './clusterroleaggregation/controller.js';
import * as vapstatus from './validatingadmissionpolicystatus/controller.js';
import * as bootstrapsigner from './bootstrapsigner/controller.js';
import * as csrapprover from './certificates/approver.js';
import * as csrsigner from './certificates/signer.js';
import * as servicelb from './servicelb/controller.js';
import * as servicecidrs from './servicecidrs/controller.js';
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
import { ensureControllerServiceAccounts, type ControllerClientBuilder } from './identity.js';

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
  /** --legacy-service-account-token-clean-up-period in ms (a year when absent). */
  legacyTokenCleanUpPeriodMs?: number;
}

export interface ControllerDescriptor {
  name: string;
  /** Older names kube-controller-manager still accepts in --controllers (e.g. `deployment`). */
  aliases: string[];
  /** Only started when named explicitly. */
  disabledByDefault?: boolean;
  /**
   * The kube-system ServiceAccount it acts as (the name kube's startXController passes to ClientBuilder.ClientOrDie,
   * bound to system:controller:<name>); absent: the manager's own credentials (kube's rootClientBuilder).
   */
  serviceAccount?: string;
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
    .register({ name: deployment.NAME, serviceAccount: 'deployment-controller', aliases: ['deployment'], create: (c) => new deployment.DeploymentController({ ...c, recorder: c.recorder(deployment.COMPONENT) }) })
    .register({ name: replicaset.NAME, serviceAccount: 'replicaset-controller', aliases: ['replicaset'], create: (c) => new replicaset.ReplicaSetController({ ...c, recorder: c.recorder(replicaset.COMPONENT) }) })
    .register({ name: replication.NAME, serviceAccount: 'replication-controller', aliases: ['replicationcontroller'], create: (c) => new replication.ReplicationControllerController({ ...c, recorder: c.recorder(replication.COMPONENT) }) })
    .register({ name: podautoscaler.NAME, serviceAccount: 'horizontal-pod-autoscaler', aliases: ['horizontalpodautoscaling'], create: (c) => new podautoscaler.HorizontalPodAutoscalerController({ ...c, recorder: c.recorder(podautoscaler.COMPONENT), config: c.podAutoscaler }) })
    .register({ name: daemonset.NAME, serviceAccount: 'daemon-set-controller', aliases: ['daemonset'], create: (c) => new daemonset.DaemonSetController({ ...c, recorder: c.recorder(daemonset.COMPONENT) }) })
    .register({ name: statefulset.NAME, serviceAccount: 'statefulset-controller', aliases: ['statefulset'], create: (c) => new statefulset.StatefulSetController({ ...c, recorder: c.recorder(statefulset.COMPONENT) }) })
    .register({ name: job.NAME, serviceAccount: 'job-controller', aliases: ['job'], create: (c) => new job.JobController({ ...c, recorder: c.recorder(job.COMPONENT) }) })
    .register({ name: cronjob.NAME, serviceAccount: 'cronjob-controller', aliases: ['cronjob'], create: (c) => new cronjob.CronJobController({ ...c, recorder: c.recorder(cronjob.COMPONENT) }) })
    .register({ name: ttlafterfinished.NAME, serviceAccount: 'ttl-after-finished-controller', aliases: ['ttl-after-finished'], create: (c) => new ttlafterfinished.TTLAfterFinishedController(c) })
    .register({ name: endpoints.NAME, serviceAccount: 'endpoint-controller', aliases: ['endpoint'], create: (c) => new endpoints.EndpointsController(c) })
    .register({ name: endpointslice.NAME, serviceAccount: 'endpointslice-controller', aliases: ['endpointslice'], create: (c) => new endpointslice.EndpointSliceController(c) })
    .register({ name: serviceaccount.NAME, serviceAccount: 'service-account-controller', aliases: ['serviceaccount'], create: (c) => new serviceaccount.ServiceAccountController(c) })
    .register({ name: namespace.NAME, serviceAccount: 'namespace-controller', aliases: ['namespace'], create: (c) => new namespace.NamespaceController(c) })
    .register({ name: gc.NAME, serviceAccount: 'generic-garbage-collector', aliases: ['garbagecollector'], create: (c) => new gc.GarbageCollector(c) })
    .register({ name: resourcequota.NAME, serviceAccount: 'resourcequota-controller', aliases: ['resourcequota'], create: (c) => new resourcequota.ResourceQuotaController(c) })
    .register({ name: podgc.NAME, serviceAccount: 'pod-garbage-collector', aliases: ['podgc'], create: (c) => new podgc.PodGCController(c) })
    .register({ name: rootca.NAME, serviceAccount: 'root-ca-cert-publisher', aliases: ['root-ca-cert-publisher'], create: (c) => new rootca.RootCaPublisher({ ...c, rootCA: c.rootCA ?? '' }) })
    .register({ name: tokens.NAME, aliases: ['serviceaccount-token'], create: (c) => new tokens.TokensController({ ...c, signer: c.serviceAccountTokenSigner, rootCA: c.rootCA }) })
    .register({ name: legacytokens.NAME, serviceAccount: 'legacy-service-account-token-cleaner', aliases: ['legacy-service-account-token-cleaner'], create: (c) => new legacytokens.LegacyTokenCleaner({ ...c, cleanUpPeriodMs: c.legacyTokenCleanUpPeriodMs }) })
    .register({ name: clusterroleaggregation.NAME, serviceAccount: 'clusterrole-aggregation-controller', aliases: ['clusterrole-aggregation'], create: (c) => new clusterroleaggregation.ClusterRoleAggregationController(c) })
    .register({ name: vapstatus.NAME, serviceAccount: vapstatus.NAME, aliases: ['validatingadmissionpolicy-status'], create: (c) => new vapstatus.ValidatingAdmissionPolicyStatusController(c) })
    // kube leaves the bootstrap signer off by default and kubeadm turns it on (--controllers=*,bootstrapsigner); on here.
    .register({ name: bootstrapsigner.NAME, serviceAccount: 'bootstrap-signer', aliases: ['bootstrapsigner'], create: (c) => new bootstrapsigner.BootstrapSigner(c) })
    .register({ name: 'certificatesigningrequest-approving-controller', serviceAccount: 'certificate-controller', aliases: [csrapprover.NAME], create: (c) => new csrapprover.CsrApprover(c) })
    .register({ name: 'certificatesigningrequest-signing-controller', serviceAccount: 'certificate-controller', aliases: [csrsigner.NAME], create: (c) => new csrsigner.CsrSigner({ ...c, ca: c.clusterSigning! }) })
    .register({ name: disruption.NAME, serviceAccount: 'disruption-controller', aliases: ['disruption'], create: (c) => new disruption.DisruptionController({ ...c, recorder: c.recorder(disruption.COMPONENT) }) })
    .register({ name: nodelifecycle.NAME, serviceAccount: 'node-controller', aliases: ['nodelifecycle'], create: (c) => new nodelifecycle.NodeLifecycleController({ ...c, recorder: c.recorder(nodelifecycle.COMPONENT), config: c.nodeLifecycle }) })
    .register({ name: pvbinder.NAME, serviceAccount: 'persistent-volume-binder', aliases: ['persistentvolume-binder'], create: (c) => new pvbinder.PersistentVolumeBinder({ ...c, recorder: c.recorder(pvbinder.COMPONENT) }) })
    .register({ name: protection.PVC_NAME, serviceAccount: 'pvc-protection-controller', aliases: ['pvc-protection'], create: (c) => new protection.PVCProtectionController(c) })
    .register({ name: protection.PV_NAME, serviceAccount: 'pv-protection-controller', aliases: ['pv-protection'], create: (c) => new protection.PVProtectionController(c) })
    // kind's local-path provisioner runs as a pod; winkube runs its emulation beside the controllers. It and the CSI
    // sidecars below act as their own ServiceAccounts, with the rights src/cluster/component-rbac.ts gives them.
    .register({ name: localpath.NAME, serviceAccount: 'local-path-provisioner', aliases: [], create: (c) => new localpath.LocalPathProvisioner({ ...c, recorder: c.recorder(localpath.COMPONENT) }) })
    .register({ name: attachdetach.NAME, serviceAccount: 'attachdetach-controller', aliases: ['attachdetach'], create: (c) => new attachdetach.AttachDetachController({ ...c, recorder: c.recorder(attachdetach.COMPONENT) }) })
    // The emulated CSI drivers' sidecars (external-provisioner, -attacher, -resizer), run beside the controllers.
    .register({ name: csiprovisioner.NAME, serviceAccount: 'csi-provisioner', aliases: [], create: (c) => new csiprovisioner.CsiProvisioner({ ...c, recorder: c.recorder(csiprovisioner.NAME) }) })
    .register({ name: csiattacher.NAME, serviceAccount: 'csi-attacher', aliases: [], create: (c) => new csiattacher.CsiAttacher(c) })
    .register({ name: csiresizer.NAME, serviceAccount: 'csi-resizer', aliases: [], create: (c) => new csiresizer.CsiResizer({ ...c, recorder: c.recorder('external-resizer'), recorderFor: c.recorder }) })
    // MultiCIDRServiceAllocator is GA in 1.33: its controller runs by default (cmd/kube-controller-manager/app/networking.go).
    .register({ name: servicecidrs.NAME, serviceAccount: 'service-cidrs-controller', aliases: [], create: (c) => new servicecidrs.ServiceCIDRsController({ ...c, recorder: c.recorder(servicecidrs.COMPONENT) }) })
    .register({ name: tainteviction.NAME, serviceAccount: 'node-controller', aliases: [], create: (c) => new tainteviction.TaintEvictionController({ ...c, recorder: c.recorder(tainteviction.COMPONENT) }) })
    // The emulated cloud provider's part (cloud-controller-manager's service controller on a real cluster).
    .register({ name: servicelb.NAME, serviceAccount: 'service-controller', aliases: ['service-lb'], create: (c) => new servicelb.ServiceLbController({ ...c, recorder: c.recorder(servicelb.COMPONENT) }) });
}

export interface ControllerManagerOptions {
  /** The manager's own client: shared informers, and the controllers when `clients` is absent. */
  client: Client;
  /**
   * Per-controller identities (--use-service-account-credentials): each controller with a `serviceAccount` gets
   * `clients.forServiceAccount(name)`, whose ServiceAccount is created first. Absent: every controller uses `client`.
   */
  clients?: ControllerClientBuilder;
  clock: Clock;
  logger: Logger;
  /** `--controllers`; default `['*']`. */
  controllers?: string[];
  /** Shared informers; one is made over `client` if absent. */
  informers?: InformerFactory;
  /** Replaces the default API event recorder (e.g. src/client/event-recorder.ts); `client` is the controller's. */
  recorder?: (component: string, client: Client) => EventRecorder;
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
  /** --legacy-service-account-token-clean-up-period in ms (a year when absent). */
  legacyTokenCleanUpPeriodMs?: number;
}

export class ControllerManager {
  readonly controllers: Controller[];
  /** The kube-system ServiceAccounts the enabled controllers act as (created at start). */
  readonly serviceAccounts: string[];
  private readonly informers: InformerFactory;
  private readonly ownsInformers: boolean;
  private readonly client: Client;

  constructor(opts: ControllerManagerOptions) {
    const logger = opts.logger.child('controller-manager');
    this.client = opts.client;
    this.ownsInformers = !opts.informers;
    this.informers = opts.informers ?? new InformerFactory({ client: opts.client, clock: opts.clock, logger });
    const recorder = opts.recorder ?? ((component: string, client: Client) => createEventRecorder({ client, clock: opts.clock, logger, component }));
    const base = {
      informers: this.informers, clock: opts.clock, logger,
      rootCA: opts.rootCA, clusterSigning: opts.clusterSigning, serviceAccountTokenSigner: opts.serviceAccountTokenSigner, nodeLifecycle: opts.nodeLifecycle, podAutoscaler: opts.podAutoscaler, podEventBatchMs: opts.podEventBatchMs, legacyTokenCleanUpPeriodMs: opts.legacyTokenCleanUpPeriodMs,
    };
    // Without a CA there is nothing to publish (kube-controller-manager skips the publisher without --root-ca-file).
    const enabled = (opts.registry ?? defaultRegistry()).enabled(opts.controllers).filter((d) => d.name !== rootca.NAME || opts.rootCA)
      .filter((d) => d.name !== 'certificatesigningrequest-signing-controller' || opts.clusterSigning);
    const clients = opts.clients;
    this.serviceAccounts = clients ? [...new Set(enabled.flatMap((d) => (d.serviceAccount ? [d.serviceAccount] : [])))] : [];
    this.controllers = enabled.map((d) => {
      // Its writes, reads and events all go out as its ServiceAccount; the informers it reads from stay shared.
      const client = clients && d.serviceAccount ? clients.forServiceAccount(d.serviceAccount) : opts.client;
      const ctx: ControllerContext = { ...base, client, recorder: (component) => recorder(component, client) };
      return d.create(ctx);
    });
  }

  /** Starts informers, waits for their caches, then starts every controller's workers. */
  async start(): Promise<void> {
    // Before any controller asks for a token or writes: each ServiceAccount exists (clientbuilder getOrCreateServiceAccount).
    await ensureControllerServiceAccounts(this.client, this.serviceAccounts);
    this.informers.start();
    await Promise.all(this.controllers.map((c) => c.start()));
  }

  stop(): void {
    for (const c of this.controllers) c.stop();
    if (this.ownsInformers) this.informers.stop();
  }
}
