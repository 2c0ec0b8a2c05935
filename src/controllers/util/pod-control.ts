// Creating and deleting a controller's pods as controller_utils does it (pkg/controller/controller_utils.go):
// creations in doubling batches (slowStartBatch) so that a failing create (quota, admission) stops early, deletions
// all at once, the events kube records for each, and the expectations kept in step with what the informer will see.

import { isNotFound } from '../../api/errors.js';
import { objectKey, type KubeObject } from '../../api/types.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { EventRecorder } from './events.js';
import type { Expectations } from './expectations.js';
import type { PodObj } from './types.js';

export interface PodControl {
  client: Client;
  recorder: EventRecorder;
  expectations: Expectations;
}

const errMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Creates one pod per item in batches of 1, 2, 4 …; the first failure stops the batches after the current one. */
export async function createPodsInBatches<T>(pc: PodControl, owner: KubeObject, key: string, namespace: string, items: readonly T[], podFor: (item: T) => PodObj): Promise<void> {
  if (!items.length) return;
  pc.expectations.expectCreations(key, items.length);
  let index = 0;
  let batch = 1;
  let firstErr: unknown;
  while (batch > 0 && !firstErr) {
    const slice = items.slice(index, index + batch);
    index += slice.length;
    const results = await Promise.allSettled(slice.map(async (item) => {
      const created = await pc.client.create(R.pods, namespace, podFor(item));
      pc.recorder.event(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    }));
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      // The informer will never see this pod, so stop waiting for it.
      pc.expectations.creationObserved(key);
      firstErr ??= r.reason;
      pc.recorder.event(owner, 'Warning', 'FailedCreate', `Error creating: ${errMessage(r.reason)}`);
    }
    batch = Math.min(2 * batch, items.length - index);
  }
  // Creations never tried will never be observed either.
  for (let i = index; i < items.length; i++) pc.expectations.creationObserved(key);
  if (firstErr) throw firstErr;
}

/** Deletes these pods at once; a pod already gone counts as deleted. */
export async function deletePods(pc: PodControl, owner: KubeObject, key: string, pods: readonly PodObj[]): Promise<void> {
  if (!pods.length) return;
  pc.expectations.expectDeletions(key, pods.map(objectKey));
  let firstErr: unknown;
  await Promise.all(pods.map(async (pod) => {
    try {
      await pc.client.delete(R.pods, pod.metadata.namespace, pod.metadata.name!);
      pc.recorder.event(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    } catch (err) {
      pc.expectations.deletionObserved(key, objectKey(pod));
      if (isNotFound(err)) return;
      firstErr ??= err;
      pc.recorder.event(owner, 'Warning', 'FailedDelete', `Error deleting: ${errMessage(err)}`);
    }
  }));
  if (firstErr) throw firstErr;
}
