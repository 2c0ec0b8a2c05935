// kube-apiserver's default ServiceCIDR controller as of 1.33 (pkg/controlplane/controller/defaultservicecidr/
// default_servicecidr_controller.go): the `kubernetes` ServiceCIDR is created from --service-cluster-ip-range and
// created again on the next 10 s sync once a deletion of it has completed; it is widened from single- to dual-stack
// when the flags add a family and never changed otherwise; Ready=True is applied (field manager
// kubernetes-service-cidr-controller, forced) only while it has no Ready condition and matches the flags.

import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { EventRecorder } from '../../client/event-recorder.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { rfc3339Seconds, type Clock, type Timer } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';

/** controllerName: the field manager of its status apply and its events' source. */
export const DEFAULT_SERVICE_CIDR_CONTROLLER = 'kubernetes-service-cidr-controller';
export const DEFAULT_SERVICE_CIDR_NAME = 'kubernetes';
/** interval: DefaultEndpointReconcilerInterval. */
export const DEFAULT_SERVICE_CIDR_SYNC_MS = 10_000;
/** Start's first sync is retried at this period until it succeeds (it holds up the API server's start). */
const FIRST_SYNC_RETRY_MS = 100;
export const DEFAULT_READY_MESSAGE = 'Kubernetes default Service CIDR is ready';
/** kube-apiserver's own writes carry its loopback client's User-Agent, whose product names the manager. */
const APISERVER_MANAGER = 'kube-apiserver';

const SERVICE_CIDRS: ResourceType = { group: 'networking.k8s.io', version: 'v1', resource: 'servicecidrs', kind: 'ServiceCIDR', namespaced: false };

interface Condition { type?: string; status?: string; reason?: string; message?: string }

/** Go's %v (and %s) of a []string: `[a b]`. */
const goList = (xs: readonly string[]) => `[${xs.join(' ')}]`;
const cidrsOf = (o: KubeObject) => (o.spec as { cidrs?: string[] } | undefined)?.cidrs ?? [];
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export interface DefaultServiceCIDRConfig {
  client: Client;
  clock: Clock;
  logger: Logger;
  recorder: EventRecorder;
  /** The --service-cluster-ip-range CIDRs, primary first (the order is the object's). */
  cidrs: readonly string[];
}

export class DefaultServiceCIDRController {
  private readonly cidrs: string[];
  private timer?: Timer;
  private stopped = false;
  private reportedMismatchedCIDRs = false;
  private reportedNotReadyCondition = false;

  constructor(private readonly cfg: DefaultServiceCIDRConfig) {
    this.cidrs = [...cfg.cidrs];
  }

  /** Start: returns once a sync has succeeded, then syncs every 10 s until stopped. */
  async start(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      try {
        await this.sync();
        break;
      } catch (err) {
        this.cfg.logger.info(`error initializing the default ServiceCIDR: ${String(err)}`);
        await this.cfg.clock.sleep(FIRST_SYNC_RETRY_MS);
      }
    }
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.cfg.clock.setTimeout(() => {
      this.sync().catch((err: unknown) => this.cfg.logger.info(`error trying to sync the default ServiceCIDR: ${String(err)}`))
        .finally(() => this.schedule());
    }, DEFAULT_SERVICE_CIDR_SYNC_MS);
  }

  /** sync: create when missing, widen a single-stack object the flags made dual-stack, otherwise syncStatus. */
  async sync(): Promise<void> {
    let cur: KubeObject | undefined;
    try {
      cur = await this.cfg.client.get(SERVICE_CIDRS, undefined, DEFAULT_SERVICE_CIDR_NAME);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    if (cur) {
      const spec = cidrsOf(cur);
      if (this.cidrs.length === 2 && spec.length === 1 && this.cidrs[0] === spec[0]) {
        try {
          await this.cfg.client.update(SERVICE_CIDRS, undefined, { ...cur, spec: { ...(cur.spec as object), cidrs: this.cidrs } }, { fieldManager: APISERVER_MANAGER });
        } catch {
          this.cfg.recorder.event(cur, 'Warning', 'KubernetesDefaultServiceCIDRError', `The default ServiceCIDR can not be upgraded from ${this.cidrs[0]} to dual stack ${goList(this.cidrs)}`);
        }
        return;
      }
      await this.syncStatus(cur);
      return;
    }
    const obj = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: DEFAULT_SERVICE_CIDR_NAME }, spec: { cidrs: this.cidrs } } as KubeObject;
    let created: KubeObject;
    try {
      created = await this.cfg.client.create(SERVICE_CIDRS, undefined, obj, { fieldManager: APISERVER_MANAGER });
    } catch (err) {
      // Another API server sharing the store created it first: the next sync looks at its status.
      if (isAlreadyExists(err)) return;
      this.cfg.recorder.event(obj, 'Warning', 'KubernetesDefaultServiceCIDRError', 'The default ServiceCIDR can not be created');
      throw err;
    }
    await this.syncStatus(created);
  }

  /**
   * syncStatus: nothing while it is being deleted (the controller-manager's servicecidrs controller owns that);
   * a Ready=True one matching the flags is left alone; any other Ready condition is reported once as a Warning with
   * the condition's own reason and message; with no Ready condition, one matching the flags is marked Ready and a
   * mismatch is reported once.
   */
  private async syncStatus(obj: KubeObject): Promise<void> {
    if (obj.metadata.deletionTimestamp) return;
    const sameConfig = sameList(this.cidrs, cidrsOf(obj));
    const ready = ((obj.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready');
    if (ready) {
      if (ready.status === 'True') {
        if (sameConfig) return;
      } else {
        if (!this.reportedNotReadyCondition) {
          this.cfg.recorder.event(obj, 'Warning', ready.reason ?? '', ready.message ?? '');
          this.reportedNotReadyCondition = true;
        }
        return;
      }
    }
    if (!sameConfig) {
      if (!this.reportedMismatchedCIDRs) {
        this.cfg.logger.info(`inconsistent ServiceCIDR status, global configuration: ${goList(cidrsOf(obj))} local configuration: ${goList(this.cidrs)}, configure the flags to match current ServiceCIDR or manually delete the default ServiceCIDR`);
        this.cfg.recorder.event(obj, 'Warning', 'KubernetesDefaultServiceCIDRInconsistent', `The default ServiceCIDR ${goList(cidrsOf(obj))} does not match the flag configurations ${goList(this.cidrs)}`);
        this.reportedMismatchedCIDRs = true;
      }
      return;
    }
    try {
      await applyServiceCIDRStatus(this.cfg.client, DEFAULT_SERVICE_CIDR_NAME, DEFAULT_SERVICE_CIDR_CONTROLLER, {
        type: 'Ready', status: 'True', message: DEFAULT_READY_MESSAGE, lastTransitionTime: rfc3339Seconds(this.cfg.clock.now()),
      });
    } catch {
      this.cfg.recorder.event(obj, 'Warning', 'KubernetesDefaultServiceCIDRError', 'The default ServiceCIDR Status can not be set to Ready=True');
    }
  }
}

/**
 * ApplyStatus with Force of one condition (the controllers' networkingapiv1apply.ServiceCIDRStatus().WithConditions):
 * only the fields given are applied, so a condition without a reason leaves `reason` to the server's "".
 */
export async function applyServiceCIDRStatus(client: Client, name: string, manager: string, condition: Record<string, string>): Promise<void> {
  const body = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name }, status: { conditions: [condition] } };
  await client.patch(SERVICE_CIDRS, undefined, name, 'apply', body, { subresource: 'status', fieldManager: manager, force: true });
}
