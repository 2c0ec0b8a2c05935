// Deployment and Event views: replica counts with the condition that explains a shortfall, and compact events.

import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Event } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../api/types.js';
import { OS_LABEL } from './pod-view.js';
import type { DeploymentView, EventView } from './view-types.js';

export type DeploymentObject = Deployment & KubeObject;
export type EventObject = Event & KubeObject;

export function deploymentView(d: DeploymentObject): DeploymentView {
  const st = d.status ?? {};
  const view: DeploymentView = {
    namespace: d.metadata.namespace ?? '',
    name: d.metadata.name ?? '',
    // spec.replicas defaults to 1 (pkg/apis/apps/v1/defaults.go SetDefaults_Deployment).
    desired: d.spec?.replicas ?? 1,
    ready: st.readyReplicas ?? 0,
    updated: st.updatedReplicas ?? 0,
    available: st.availableReplicas ?? 0,
  };
  const os = d.spec?.template?.spec?.nodeSelector?.[OS_LABEL];
  if (os) view.os = os;
  // pkg/controller/deployment/util/deployment_util.go: ReplicaFailure True, or Progressing False
  // (ProgressDeadlineExceeded), are the conditions that say why a rollout is stuck.
  const conds = st.conditions ?? [];
  const bad = conds.find((c) => c.type === 'ReplicaFailure' && c.status === 'True')
    ?? conds.find((c) => c.type === 'Progressing' && c.status === 'False')
    ?? conds.find((c) => c.type === 'Available' && c.status === 'False');
  if (bad) view.problem = `${bad.reason ?? bad.type}: ${bad.message ?? ''}`.replace(/: $/, '');
  return view;
}

/** When the event last happened: the fields kubectl get events sorts and prints by (printers.go printEvent). */
export function eventTime(e: EventObject): string | undefined {
  return e.series?.lastObservedTime || e.lastTimestamp || e.eventTime || e.firstTimestamp || e.metadata.creationTimestamp || undefined;
}

export function eventView(e: EventObject): EventView {
  const obj = e.involvedObject ?? {};
  const view: EventView = {
    type: e.type || 'Normal',
    reason: e.reason ?? '',
    message: e.message ?? '',
    object: `${obj.kind ?? ''}/${obj.name ?? ''}`,
    namespace: obj.namespace ?? e.metadata.namespace ?? '',
    count: e.series?.count ?? e.count ?? 1,
    source: e.source?.component || e.reportingComponent || '',
  };
  const last = eventTime(e);
  if (last) view.last = last;
  return view;
}

const ms = (t: string | undefined) => (t ? Date.parse(t) || 0 : 0);

/**
 * Up to `limit` events, Warnings first and newest first within each type: a burst of routine Normal events (a crash
 * loop logs four per restart) must not push the one FailedScheduling warning off the page.
 */
export function recentEvents(events: readonly EventObject[], limit: number): EventView[] {
  const warn = (v: EventView) => (v.type === 'Warning' ? 0 : 1);
  return events.map(eventView).sort((a, b) => warn(a) - warn(b) || ms(b.last) - ms(a.last)).slice(0, limit);
}
