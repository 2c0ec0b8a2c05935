// The horizontal pod autoscaler (pkg/controller/podautoscaler/horizontal.go): every sync period, each HPA's
// target scale is read through /scale, resource metrics come from the Metrics API for the pods its selector
// picks, the replica count is computed, stabilized and limited (behavior), the target rescaled, and status,
// conditions and events say why.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { formatLabelSelector, parseSelector } from '../../api/labels.js';
import { formatQuantity, milliValue, parseQuantity, quantityFromMilli } from '../../api/quantity.js';
import { scaleDownRules, scaleUpRules } from '../../api/strategies/autoscaling.js';
import type { KubeObject } from '../../api/types.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339Seconds } from '../../util/clock.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { clone, type PodObj } from '../util/types.js';
import { canonicalJson } from '../util/json.js';
import {
  limitWithBehavior, limitWithoutBehavior, stabilizeWithBehavior, stabilizeWithoutBehavior,
  type Behavior, type Recommendation, type ScaleEvent,
} from './behavior.js';
import { ApiResourceMetrics, type ResourceMetricsSource } from './metrics.js';
import { ApiCustomMetrics, type CustomMetricsSource } from './custom-metrics.js';
import { goLabelSelectorString } from './go-selector.js';
import { HpaSelectors } from './hpa-selectors.js';
import { perPodReplicas, valueReplicas } from './plain-replicas.js';
import { DEFAULT_CALCULATOR_CONFIG, plainMetricReplicas, rawResourceReplicas, resourceReplicas, type CalculatorConfig, type PodMetricsInfo } from './replica-calculator.js';

export const NAME = 'horizontal-pod-autoscaler-controller';
/** The event source kube-controller-manager uses for this controller. */
export const COMPONENT = 'horizontal-pod-autoscaler';

export interface PodAutoscalerConfig extends CalculatorConfig {
  /** --horizontal-pod-autoscaler-sync-period. */
  syncPeriodMs: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization. */
  downscaleStabilizationMs: number;
}

export const DEFAULT_CONFIG: PodAutoscalerConfig = {
  ...DEFAULT_CALCULATOR_CONFIG, syncPeriodMs: 15_000, downscaleStabilizationMs: 5 * 60_000,
};

export interface PodAutoscalerOptions extends RecordingControllerOptions {
  config?: Partial<PodAutoscalerConfig>;
  /** Where resource metrics come from; the Metrics API through the client by default. */
  metrics?: ResourceMetricsSource;
  /** Where Pods, Object and External metrics come from; custom.metrics.k8s.io / external.metrics.k8s.io by default. */
  customMetrics?: CustomMetricsSource;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Condition { type: string; status: string; lastTransitionTime?: string; reason: string; message: string }

/** Targets with a /scale subresource, by apiVersion group and kind. */
const SCALE_TARGETS: Record<string, ResourceType> = {
  'apps/Deployment': R.deployments,
  'apps/ReplicaSet': R.replicasets,
  'apps/StatefulSet': { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true },
  '/ReplicationController': R.replicationcontrollers,
};

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const isConflict = (err: unknown) => (err as { code?: number } | undefined)?.code === 409;
/** retry.DefaultRetry: the scale update is tried up to five times while it conflicts. */
const SCALE_UPDATE_ATTEMPTS = 5;

interface CrdShape {
  spec?: { group?: string; scope?: string; names?: { plural?: string; kind?: string }; versions?: { name: string; served?: boolean; storage?: boolean }[] };
  status?: { conditions?: { type: string; status: string }[] };
}

export class HorizontalPodAutoscalerController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly hpaInformer: Informer<KubeObject>;
  private readonly podInformer: Informer<PodObj>;
  private readonly metrics: ResourceMetricsSource;
  private readonly customMetrics: CustomMetricsSource;
  readonly config: PodAutoscalerConfig;
  private readonly recommendations = new Map<string, Recommendation[]>();
  private readonly upEvents = new Map<string, ScaleEvent[]>();
  private readonly downEvents = new Map<string, ScaleEvent[]>();
  private readonly selectors = new HpaSelectors();

  constructor(opts: PodAutoscalerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 5);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.config = { ...DEFAULT_CONFIG, ...(opts.config ?? {}) };
    this.metrics = opts.metrics ?? new ApiResourceMetrics(opts.client);
    this.customMetrics = opts.customMetrics ?? new ApiCustomMetrics(opts.client);
    this.hpaInformer = opts.informers.for<KubeObject>(R.horizontalpodautoscalers);
    this.podInformer = opts.informers.for<PodObj>(R.pods);
    this.hpaInformer.addHandler({
      add: (h) => this.enqueue(h),
      update: (_old, h) => this.enqueue(h),
      // deleteHPA: only the selector goes; the key still waiting in the queue finds the HPA gone (reconcileKey).
      delete: (h) => this.selectors.delete(objectKey(h)),
    });
  }

  /**
   * enqueueHPA: AddRateLimited on the queue's fixed-interval limiter (NewDefaultHPARateLimiter(resyncPeriod)), so a
   * new HPA, like any update (a status write, a spec change), is looked at one sync period later, and a key already
   * waiting keeps its earlier time. The HPA is registered for the AmbiguousSelector check, selecting nothing yet.
   */
  private enqueue(h: KubeObject): void {
    const key = objectKey(h);
    this.queue.addAfter(key, this.config.syncPeriodMs);
    this.selectors.register(key);
  }

  protected informersToSync() {
    return [this.hpaInformer, this.podInformer];
  }

  async reconcile(key: string): Promise<void> {
    const cached = this.hpaInformer.get(key);
    if (!cached) {
      // reconcileKey of a deleted HPA: its history goes and it is not queued again.
      this.recommendations.delete(key);
      this.upEvents.delete(key);
      this.downEvents.delete(key);
      return;
    }
    try {
      await this.reconcileAutoscaler(key, clone(cached));
    } finally {
      // Every HPA is looked at again one sync period later, whatever happened (the HPA queue's fixed interval).
      if (this.hpaInformer.get(key)) this.queue.addAfter(key, this.config.syncPeriodMs);
    }
  }

  private setCondition(hpa: Json, type: string, status: 'True' | 'False', reason: string, message: string): void {
    const status_ = (hpa.status ??= {});
    const list: Condition[] = (status_.conditions ??= []);
    const now = rfc3339Seconds(this.clock.now());
    const existing = list.find((c) => c.type === type);
    if (existing) {
      if (existing.status !== status) existing.lastTransitionTime = now;
      existing.status = status;
      existing.reason = reason;
      existing.message = message;
    } else {
      list.push({ type, status, lastTransitionTime: now, reason, message });
    }
  }

  private async updateStatusIfNeeded(old: Json | undefined, hpa: Json): Promise<void> {
    if (canonicalJson(old ?? {}) === canonicalJson(hpa.status ?? {})) return;
    await this.client.update(R.horizontalpodautoscalers, hpa.metadata.namespace, hpa as KubeObject, { subresource: 'status' });
  }

  private setStatus(hpa: Json, current: number, desired: number, metrics: Json[], rescaled: boolean): void {
    const st = (hpa.status ??= {});
    st.currentReplicas = current;
    st.desiredReplicas = desired;
    if (metrics.length) st.currentMetrics = metrics;
    else delete st.currentMetrics;
    if (rescaled) st.lastScaleTime = rfc3339Seconds(this.clock.now());
    st.observedGeneration = hpa.metadata.generation;
  }

  private async reconcileAutoscaler(key: string, hpa: Json): Promise<void> {
    const oldStatus = clone(hpa.status);
    const spec = hpa.spec ?? {};
    const ref = spec.scaleTargetRef ?? {};
    const ns = hpa.metadata.namespace as string;
    const reference = `${ref.kind}/${ns}/${ref.name}`;
    const group = String(ref.apiVersion ?? '').includes('/') ? String(ref.apiVersion).split('/')[0] : '';
    const unableToGetScale = async (err: unknown, wrap: string) => {
      this.recorder.event(hpa as KubeObject, 'Warning', 'FailedGetScale', errText(err));
      this.setCondition(hpa, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${errText(err)}`);
      await this.updateStatusIfNeeded(oldStatus, hpa);
      return new Error(`${wrap}: ${errText(err)}`);
    };
    // The RESTMapper's answer: a built-in with /scale, or an Established custom resource of that group and kind.
    const rt = SCALE_TARGETS[`${group}/${ref.kind}`] ?? await this.customScaleTarget(group, ref.kind);
    if (!rt) throw await unableToGetScale(new Error(`no matches for kind "${ref.kind}" in group "${group}"`), 'unable to determine resource for scale target reference');
    let scale: Json;
    try {
      scale = await this.client.get(rt, ns, ref.name, 'scale');
    } catch (err) {
      throw await unableToGetScale(err, `failed to query scale subresource for ${reference}`);
    }
    this.setCondition(hpa, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
    const current: number = scale.spec?.replicas ?? 0;
    // recordInitialRecommendation: the current size is the first recommendation, so a restarted controller does not
    // scale down before a stabilization window of its own has passed.
    if (!this.recommendations.has(key)) this.recommendations.set(key, [{ replicas: current, timestamp: this.clock.now() }]);
    const min: number = spec.minReplicas ?? 1;
    const max: number = spec.maxReplicas;
    let desired = 0, rescaleReason = '', rescale = true;
    let statuses: Json[] = [];
    let retErr: Error | undefined;
    if (current === 0 && min !== 0) {
      desired = 0;
      rescale = false;
      this.setCondition(hpa, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
    } else if (current > max) {
      rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      desired = max;
    } else if (current < min) {
      rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      desired = min;
    } else {
      const r = await this.computeReplicasForMetrics(key, hpa, scale, current);
      statuses = r.statuses;
      if (r.replicas === -1) {
        this.setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, statuses, false);
        await this.updateStatusIfNeeded(oldStatus, hpa);
        this.recorder.event(hpa as KubeObject, 'Warning', 'FailedComputeMetricsReplicas', errText(r.error));
        throw new Error(`failed to compute desired number of replicas based on listed metrics for ${reference}: ${errText(r.error)}`);
      }
      retErr = r.error;
      let rescaleMetric = '';
      if (r.replicas > desired) {
        desired = r.replicas;
        rescaleMetric = r.metricName;
      }
      if (desired > current) rescaleReason = `${rescaleMetric} above target`;
      if (desired < current) rescaleReason = 'All metrics below target';
      desired = spec.behavior ? this.normalizeWithBehavior(key, hpa, current, desired, min, max) : this.normalize(key, hpa, current, desired, min, max);
      rescale = desired !== current;
    }
    if (rescale) {
      try {
        await this.updateScale(rt, ns, ref.name, scale, desired);
      } catch (err) {
        this.recorder.event(hpa as KubeObject, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${rescaleReason}; error: ${errText(err)}`);
        this.setCondition(hpa, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${errText(err)}`);
        this.setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, statuses, false);
        await this.updateStatusIfNeeded(oldStatus, hpa);
        throw new Error(`failed to rescale ${reference}: ${errText(err)}`);
      }
      this.setCondition(hpa, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`);
      this.recorder.event(hpa as KubeObject, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${rescaleReason}`);
      this.storeScaleEvent(key, spec.behavior, current, desired);
    } else {
      desired = current;
    }
    this.setStatus(hpa, current, desired, statuses, rescale);
    await this.updateStatusIfNeeded(oldStatus, hpa);
    if (retErr) throw retErr;
  }

  /**
   * The Scale update, retried on conflict with a fresh Scale (reconcileAutoscaler's retry.RetryOnConflict with
   * retry.DefaultRetry).
   */
  private async updateScale(rt: ResourceType, ns: string, name: string, scale: Json, desired: number): Promise<void> {
    let current = scale;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.update(rt, ns, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { ...current.metadata }, spec: { replicas: desired } } as KubeObject, { subresource: 'scale' });
        return;
      } catch (err) {
        if (!isConflict(err) || attempt >= SCALE_UPDATE_ATTEMPTS) throw err;
        try {
          current = await this.client.get(rt, ns, name, 'scale');
        } catch (getErr) {
          this.logger.error(`error getting latest scale for ${ns}/${name} during conflict retry: ${errText(getErr)}`);
        }
      }
    }
  }

  /** A custom resource's type from its Established CRD (the RESTMapper over discovery); undefined when none serves it. */
  private async customScaleTarget(group: string, kind: string): Promise<ResourceType | undefined> {
    if (!group) return undefined;
    let crds: KubeObject[];
    try {
      crds = (await this.client.list(R.customresourcedefinitions, undefined)).items;
    } catch {
      return undefined;
    }
    for (const crd of crds as (KubeObject & CrdShape)[]) {
      const spec = crd.spec;
      if (spec?.group !== group || spec.names?.kind !== kind || !spec.names.plural) continue;
      if (!crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) continue;
      const served = (spec.versions ?? []).filter((v) => v.served !== false);
      const version = (served.find((v) => v.storage) ?? served[0])?.name;
      if (!version) continue;
      return { group, version, resource: spec.names.plural, kind, namespaced: spec.scope !== 'Cluster' };
    }
    return undefined;
  }

  /** computeReplicasForMetrics: the largest proposal of the valid metrics; -1 when none (or a scale-down with some invalid). */
  private async computeReplicasForMetrics(key: string, hpa: Json, scale: Json, current: number): Promise<{ replicas: number; metricName: string; statuses: Json[]; error?: Error }> {
    const specs: Json[] = hpa.spec?.metrics ?? [];
    const selectorText: string = scale.status?.selector ?? '';
    const pods = this.validateAndParseSelector(key, hpa, selectorText);
    if (pods instanceof Error) return { replicas: -1, metricName: '', statuses: [], error: pods };
    const statuses: Json[] = specs.map(() => ({ type: '' }));
    let replicas = 0, metricName = '', invalid = 0;
    let firstErr: Error | undefined;
    let firstCondition: [string, string] | undefined;
    for (let i = 0; i < specs.length; i++) {
      const r = await this.computeReplicasForMetric(hpa, specs[i], selectorText, pods, current, scale.status?.replicas ?? 0);
      if ('error' in r) {
        invalid++;
        // computeReplicasForMetric wraps the error it returns; the condition keeps the calculator's own message.
        firstErr ??= new Error(`${metricErrorPrefix(specs[i])}${(r.returned ?? r.error).message}`);
        firstCondition ??= [r.reason, `the HPA was unable to compute the replica count: ${r.error.message}`];
        continue;
      }
      statuses[i] = r.status;
      if (replicas === 0 || r.replicas > replicas) {
        replicas = r.replicas;
        metricName = r.name;
      }
    }
    if (specs.length === 0 || invalid >= specs.length || (invalid > 0 && replicas < current)) {
      if (firstCondition) this.setCondition(hpa, 'ScalingActive', 'False', firstCondition[0], firstCondition[1]);
      return {
        replicas: -1, metricName: '', statuses,
        error: new Error(`invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstErr?.message ?? 'no metrics'}`),
      };
    }
    this.setCondition(hpa, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metricName}`);
    return { replicas, metricName, statuses, error: invalid > 0 ? firstErr : undefined };
  }

  /**
   * validateAndParseSelector: the target's selector must be there, parse, and pick pods no other HPA picks (the
   * selector index of ./hpa-selectors.ts). The pods it selects, or the error (the condition and event already set).
   */
  private validateAndParseSelector(key: string, hpa: Json, selectorText: string): Pod[] | Error {
    // The event and the returned error carry one text; the condition may say it otherwise.
    const invalid = (eventReason: string, message: string, reason = eventReason, conditionMessage = message) => {
      this.recorder.event(hpa as KubeObject, 'Warning', eventReason, message);
      this.setCondition(hpa, 'ScalingActive', 'False', reason, conditionMessage);
      return new Error(message);
    };
    if (!selectorText) return invalid('SelectorRequired', 'selector is required', 'InvalidSelector', "the HPA target's scale is missing a selector");
    let selector: ReturnType<typeof parseSelector>;
    try {
      selector = parseSelector(selectorText);
    } catch (err) {
      return invalid('InvalidSelector', `couldn't convert selector into a corresponding internal selector object: ${errText(err)}`);
    }
    this.selectors.update(key, selector);
    const ns = hpa.metadata.namespace as string;
    const pods = this.podInformer.list(ns).filter((p) => selector.matches(p.metadata.labels));
    const selecting = this.selectors.controlling(ns, pods);
    // Go prints the []selectors.Key with %v: `[ns/a ns/b]`.
    if (selecting.length > 1) return invalid('AmbiguousSelector', `pods by selector ${selectorText} are controlled by multiple HPAs: [${selecting.join(' ')}]`);
    return pods;
  }

  private async computeReplicasForMetric(
    hpa: Json, spec: Json, selector: string, pods: Pod[], current: number, statusReplicas: number,
  ): Promise<MetricProposal | MetricFailure> {
    const fail = (reason: string, error: Error) => {
      this.recorder.event(hpa as KubeObject, 'Warning', reason, error.message);
      return { error, reason };
    };
    const ns = hpa.metadata.namespace as string;
    if (spec.type === 'Pods' || spec.type === 'Object' || spec.type === 'External') return this.plainMetricReplicas(hpa, spec, selector, pods, current, statusReplicas, fail);
    const container = spec.type === 'ContainerResource' ? spec.containerResource?.container : undefined;
    const src = spec.type === 'Resource' ? spec.resource : spec.containerResource;
    const resource: string = src?.name ?? '';
    const target = src?.target ?? {};
    const reason = spec.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
    const statusKey = spec.type === 'Resource' ? 'resource' : 'containerResource';
    const now = this.clock.now();
    if (target.averageValue != null) {
      try {
        const metrics = await this.fetch(ns, selector, resource, container);
        const targetMilli = milli(target.averageValue);
        const r = rawResourceReplicas(current, targetMilli, resource, pods, metrics, now, this.config);
        return {
          replicas: r.replicas, name: `${resource} resource`,
          status: { type: spec.type, [statusKey]: { name: resource, ...(container ? { container } : {}), current: { averageValue: milliQuantity(r.rawAverage) } } },
        };
      } catch (err) {
        return fail(reason, new Error(`failed to get ${resource} usage: ${errText(err)}`));
      }
    }
    if (target.averageUtilization != null) {
      try {
        const metrics = await this.fetch(ns, selector, resource, container);
        const r = resourceReplicas(current, target.averageUtilization, resource, pods, metrics, now, this.config, container);
        return {
          replicas: r.replicas, name: `${resource} resource utilization (percentage of request)`,
          status: { type: spec.type, [statusKey]: { name: resource, ...(container ? { container } : {}), current: { averageUtilization: r.utilization, averageValue: milliQuantity(r.rawAverage) } } },
        };
      } catch (err) {
        return fail(reason, new Error(`failed to get ${resource} utilization: ${errText(err)}`));
      }
    }
    return fail(reason, new Error('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set'));
  }

  /**
   * computeStatusForPodsMetric, computeStatusForObjectMetric and computeStatusForExternalMetric. A failed fetch is
   * wrapped with the metric's name (the Object one keeps kube's argument order: "Kind on ns name/error"); the
   * calculation's own errors (no pods, no ready metrics) come as the replica calculator gives them. The event and
   * condition show that error; the one passed up is wrapped again for AverageValue Object metrics
   * (`failed to get X object metric: …`) and for External ones (`failed to get X external metric: …` /
   * `failed to get external metric X: …` for a Value target).
   */
  private async plainMetricReplicas(
    hpa: Json, spec: Json, selector: string, pods: Pod[], current: number, statusReplicas: number,
    fail: (reason: string, error: Error) => MetricFailure,
  ): Promise<MetricProposal | MetricFailure> {
    const ns = hpa.metadata.namespace as string;
    const tol = this.config.tolerance;
    if (spec.type === 'Pods') {
      const m = spec.pods?.metric ?? {};
      let metrics: PodMetricsInfo;
      try {
        const values = await this.customMetrics.podMetrics(ns, selector, m.name, selectorText(m.selector));
        // The custom metrics client gives each value the default one-minute window.
        metrics = new Map(values.map((v) => [v.name, { value: v.milli, timestamp: v.timestamp, windowMs: 60_000 }]));
      } catch (err) {
        return fail('FailedGetPodsMetric', new Error(`unable to get metric ${m.name}: ${errText(err)}`));
      }
      try {
        const r = plainMetricReplicas(current, milli(spec.pods?.target?.averageValue), '', pods, metrics, this.clock.now(), this.config);
        return { replicas: r.replicas, name: `pods metric ${m.name}`, status: { type: 'Pods', pods: { metric: m, current: { averageValue: milliQuantity(r.rawAverage) } } } };
      } catch (err) {
        return fail('FailedGetPodsMetric', err as Error);
      }
    }
    if (spec.type === 'Object') {
      const o = spec.object ?? {};
      const ref = o.describedObject ?? {};
      const mname = o.metric?.name;
      const byValue = o.target?.type === 'Value' && o.target?.value != null;
      const perPod = !byValue && o.target?.type === 'AverageValue' && o.target?.averageValue != null;
      if (!byValue && !perPod) return fail('FailedGetObjectMetric', new Error('invalid object metric source: neither a value target nor an average value target was set'));
      // GetObjectPerPodMetricReplicas' error is wrapped once more before computeReplicasForMetric wraps it.
      const failed = (err: unknown) => {
        const r = fail('FailedGetObjectMetric', err as Error);
        return perPod ? { ...r, returned: new Error(`failed to get ${mname} object metric: ${errText(err)}`) } : r;
      };
      let usage: number;
      try {
        usage = (await this.customMetrics.objectMetric(ns, ref, mname, selectorText(o.metric?.selector))).milli;
      } catch (err) {
        return failed(new Error(`unable to get metric ${mname}: ${ref.kind} on ${ns} ${ref.name}/${errText(err)}`));
      }
      try {
        if (perPod) {
          // kube names an AverageValue Object metric like an External one and leaves describedObject empty in the status.
          const r = perPodReplicas(statusReplicas, milli(o.target.averageValue), usage, tol);
          return {
            replicas: r.replicas, name: `external metric ${mname}(${goLabelSelectorString(o.metric?.selector)})`,
            status: { type: 'Object', object: { metric: o.metric, current: { averageValue: milliQuantity(r.usage) }, describedObject: { kind: '', name: '' } } },
          };
        }
        const r = valueReplicas(current, pods, milli(o.target.value), usage, tol);
        return { replicas: r.replicas, name: `${ref.kind} metric ${mname}`, status: { type: 'Object', object: { metric: o.metric, current: { value: milliQuantity(r.usage) }, describedObject: ref } } };
      } catch (err) {
        return failed(err);
      }
    }
    const e = spec.external ?? {};
    const name = e.metric?.name;
    // The AverageValue target is looked at first, whatever target.type says.
    const perPod = e.target?.averageValue != null;
    if (!perPod && e.target?.value == null) return fail('FailedGetExternalMetric', new Error('invalid external metric source: neither a value target nor an average value target was set'));
    const failed = (err: unknown) => ({
      ...fail('FailedGetExternalMetric', err as Error),
      returned: new Error(perPod ? `failed to get ${name} external metric: ${errText(err)}` : `failed to get external metric ${name}: ${errText(err)}`),
    });
    let usage: number;
    try {
      const values = await this.customMetrics.externalMetric(ns, name, selectorText(e.metric?.selector));
      usage = values.reduce((a, v) => a + v.milli, 0);
    } catch (err) {
      return failed(new Error(`unable to get external metric ${ns}/${name}/${goLabelSelectorString(e.metric?.selector)}: ${errText(err)}`));
    }
    try {
      const r = perPod ? perPodReplicas(statusReplicas, milli(e.target.averageValue), usage, tol) : valueReplicas(current, pods, milli(e.target.value), usage, tol);
      const cur = perPod ? { averageValue: milliQuantity(r.usage) } : { value: milliQuantity(r.usage) };
      return { replicas: r.replicas, name: `external metric ${name}(${goLabelSelectorString(e.metric?.selector)})`, status: { type: 'External', external: { metric: e.metric, current: cur } } };
    } catch (err) {
      return failed(err);
    }
  }

  private async fetch(namespace: string, selector: string, resource: string, container?: string) {
    try {
      return await this.metrics.podMetrics(namespace, selector, resource, container);
    } catch (err) {
      throw new Error(`unable to get metrics for resource ${resource}: ${errText(err)}`);
    }
  }

  /** normalizeDesiredReplicas: the downscale stabilization window, then the min/max and the doubling limit. */
  private normalize(key: string, hpa: Json, current: number, desired: number, min: number, max: number): number {
    const s = stabilizeWithoutBehavior(this.recommendations.get(key) ?? [], desired, this.clock.now(), this.config.downscaleStabilizationMs);
    this.recommendations.set(key, s.recs);
    if (s.replicas !== desired) {
      this.setCondition(hpa, 'AbleToScale', 'True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation');
    } else {
      this.setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
    }
    const l = limitWithoutBehavior(current, s.replicas, min, max);
    this.setCondition(hpa, 'ScalingLimited', l.replicas === s.replicas ? 'False' : 'True', l.reason, l.message);
    return l.replicas;
  }

  /** normalizeDesiredReplicasWithBehaviors. */
  private normalizeWithBehavior(key: string, hpa: Json, current: number, desired: number, min: number, max: number): number {
    const b = this.behaviorOf(hpa.spec.behavior);
    const now = this.clock.now();
    const s = stabilizeWithBehavior(this.recommendations.get(key) ?? [], current, desired, b, now);
    this.recommendations.set(key, s.recs);
    if (s.replicas !== desired) this.setCondition(hpa, 'AbleToScale', 'True', s.reason, s.message);
    else this.setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
    const l = limitWithBehavior(current, s.replicas, min, max, b, this.upEvents.get(key) ?? [], this.downEvents.get(key) ?? [], now);
    this.setCondition(hpa, 'ScalingLimited', l.replicas === s.replicas ? 'False' : 'True', l.reason, l.message);
    return l.replicas;
  }

  /** The behavior with kube's defaults, the scale-down window from --horizontal-pod-autoscaler-downscale-stabilization. */
  private behaviorOf(b: Json | undefined): Required<Behavior> {
    const up = scaleUpRules(b?.scaleUp) as Behavior['scaleUp'] & object;
    const down = scaleDownRules(b?.scaleDown) as Behavior['scaleDown'] & object;
    down.stabilizationWindowSeconds ??= Math.round(this.config.downscaleStabilizationMs / 1000);
    return { scaleUp: up, scaleDown: down };
  }

  /** storeScaleEvent: only HPAs with behavior keep their scale history; events older than the longest period go. */
  private storeScaleEvent(key: string, behavior: Json | undefined, prev: number, next: number): void {
    if (!behavior) return;
    const b = this.behaviorOf(behavior);
    const now = this.clock.now();
    const keep = (events: ScaleEvent[], rules: { policies?: { periodSeconds: number }[] }) => {
      const longest = Math.max(0, ...(rules.policies ?? []).map((p) => p.periodSeconds));
      return events.filter((e) => e.timestamp > now - longest * 1000);
    };
    if (next > prev) this.upEvents.set(key, [...keep(this.upEvents.get(key) ?? [], b.scaleUp), { change: next - prev, timestamp: now }]);
    else if (next < prev) this.downEvents.set(key, [...keep(this.downEvents.get(key) ?? [], b.scaleDown), { change: prev - next, timestamp: now }]);
  }
}

/** One metric's replica proposal, the name rescale reasons use, and its status entry. */
interface MetricProposal { replicas: number; name: string; status: Json }

/**
 * A metric that could not be computed: the error its event and condition show, under the condition's reason, and
 * (when kube wraps it once more on the way out) the error passed up.
 */
interface MetricFailure { error: Error; reason: string; returned?: Error }

/** The wrapping computeReplicasForMetric gives a metric's error, by metric type. */
function metricErrorPrefix(spec: Json): string {
  switch (spec.type) {
    case 'Object': return 'failed to get object metric value: ';
    case 'Pods': return 'failed to get pods metric value: ';
    case 'Resource': return `failed to get ${spec.resource?.name} resource metric value: `;
    case 'ContainerResource': return `failed to get ${spec.containerResource?.container} container metric value: `;
    case 'External': return `failed to get ${spec.external?.metric?.name} external metric value: `;
    default: return '';
  }
}

function milli(v: unknown): number {
  return milliValue(parseQuantity(String(v)));
}

/** resource.NewMilliQuantity(v, DecimalSI).String(). */
function milliQuantity(v: number): string {
  return formatQuantity(quantityFromMilli(v));
}

/** A metric's label selector as a query parameter ("" when none): metav1.LabelSelectorAsSelector(...).String(). */
function selectorText(sel: Json | undefined): string | undefined {
  if (!sel) return undefined;
  const text = formatLabelSelector(sel);
  return text === '<none>' || text === '' ? undefined : text;
}
