// Fixtures the Job controller's tests share: a defaulted Job with one `main` container, and a controller synced on it.

import type { Job } from 'kubernetes-types/batch/v1.js';
import { defaultJob } from '../../api/strategies/batch.js';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness, type Harness } from '../testing/harness.js';
import type { PodObj } from '../util/types.js';
import { JobController, type JobObj } from './controller.js';

export function makeJob(name: string, spec: Partial<Job['spec']> = {}): JobObj {
  const job: JobObj = {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: NS, uid: `${name}-uid` },
    spec: {
      selector: { matchLabels: { job: name } },
      template: { metadata: { labels: { job: name } }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } },
      ...spec,
    } as Job['spec'],
  };
  defaultJob(job);
  return job;
}

/** A harness seeded with `job` and a Job controller that has synced it once. */
export async function setup(job: JobObj) {
  const h = newHarness();
  h.client.seed(R.jobs, job);
  const c = new JobController({ ...h, recorder: h.recorder });
  await h.sync();
  await drain([c]);
  return { h, c };
}

/** A finalizer of the tests' own that keeps a deleted pod terminating, as a kubelet's grace period would. */
export const HOLD = 'test.winkube.io/hold';

const podsOf = (h: Harness) => h.client.all<PodObj>(R.pods, NS);

/** Every pod of the namespace gets HOLD, so a delete leaves it terminating until `release`. */
export async function hold(h: Harness): Promise<void> {
  for (const p of podsOf(h)) await h.client.patch(R.pods, NS, p.metadata.name!, 'merge', { metadata: { finalizers: [...(p.metadata.finalizers ?? []), HOLD] } });
}

/** The kubelet is done with the deleted pods: they go. */
export async function release(h: Harness): Promise<void> {
  for (const p of podsOf(h).filter((x) => x.metadata.deletionTimestamp)) {
    await h.client.patch(R.pods, NS, p.metadata.name!, 'merge', { metadata: { finalizers: (p.metadata.finalizers ?? []).filter((f) => f !== HOLD) } });
  }
}
