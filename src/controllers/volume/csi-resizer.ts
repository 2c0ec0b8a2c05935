// The emulated drivers' external-resizer (kubernetes-csi/external-resizer): a bound claim whose storage request grew
// past its capacity has its volume grown (ControllerExpandVolume: the PV's capacity), then either finishes at once
// (no node expansion: status.capacity follows) or waits for the kubelet with FileSystemResizePending
// (src/node/volumes/online-expansion.ts). Events and condition texts as the resizer writes them.

import { compareQuantity, tryParseQuantity } from '../../api/quantity.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { emulatedDriver } from '../../csi/drivers.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { clone } from '../util/types.js';
import type { PVCObj, PVObj } from './binder.js';

export const NAME = 'csi-resizer';
export const FS_RESIZE_PENDING_MESSAGE = 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.';

const bigger = (a: unknown, b: unknown): boolean => {
  const qa = tryParseQuantity(a);
  const qb = tryParseQuantity(b);
  return !!qa && !!qb && compareQuantity(qa, qb) > 0;
};

/** external-resizer's event source: `external-resizer <driver>` (one resizer per driver in a real cluster). */
export const resizerComponent = (driver: string) => `external-resizer ${driver}`;

export class CsiResizer extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly recorders = new Map<string, EventRecorder>();
  private readonly recorderFor?: (component: string) => EventRecorder;
  private readonly pvcs: Informer<PVCObj>;
  private readonly pvs: Informer<PVObj>;

  constructor(opts: RecordingControllerOptions & { recorderFor?: (component: string) => EventRecorder }) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.recorderFor = opts.recorderFor;
    this.pvcs = opts.informers.for<PVCObj>(R.persistentvolumeclaims);
    this.pvs = opts.informers.for<PVObj>(R.persistentvolumes);
    this.pvcs.addHandler({ add: (c) => this.queue.add(objectKey(c)), update: (_o, c) => this.queue.add(objectKey(c)), delete: () => undefined });
  }

  protected informersToSync() {
    return [this.pvcs, this.pvs];
  }

  private driverRecorder(driver: string): EventRecorder {
    if (!this.recorderFor) return this.recorder;
    let r = this.recorders.get(driver);
    if (!r) this.recorders.set(driver, (r = this.recorderFor(resizerComponent(driver))));
    return r;
  }

  async reconcile(key: string): Promise<void> {
    const cached = this.pvcs.get(key);
    if (!cached || cached.status?.phase !== 'Bound' || !cached.spec?.volumeName) return;
    const want = cached.spec.resources?.requests?.storage;
    if (!bigger(want, cached.status?.capacity?.storage)) return;
    const pvCached = this.pvs.get(cached.spec.volumeName);
    const driver = emulatedDriver(pvCached?.spec?.csi?.driver);
    if (!pvCached || !driver) return;
    const claim = clone(cached);
    const pvName = pvCached.metadata.name!;
    const recorder = this.driverRecorder(driver.name);
    if (bigger(want, pvCached.spec?.capacity?.storage)) {
      recorder.event(claim, 'Normal', 'Resizing', `External resizer is resizing volume ${pvName}`);
      const pv = clone(pvCached);
      pv.spec = { ...pv.spec, capacity: { ...(pv.spec?.capacity ?? {}), storage: want! } };
      await this.client.update(R.persistentvolumes, undefined, pv);
    } else if (claim.status?.conditions?.some((c) => c.type === 'FileSystemResizePending')) {
      return; // waiting for the kubelet
    }
    const now = new Date(this.clock.now()).toISOString();
    if (driver.nodeExpansion) {
      const status = {
        ...claim.status,
        conditions: [{ type: 'FileSystemResizePending', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: now, message: FS_RESIZE_PENDING_MESSAGE }],
      };
      await this.client.update(R.persistentvolumeclaims, claim.metadata.namespace, { ...claim, status } as PVCObj, { subresource: 'status' });
      recorder.event(claim, 'Normal', 'FileSystemResizeRequired', 'Require file system resize of volume on node');
      return;
    }
    // No resize condition left: the field goes (kube's omitempty), rather than an empty list.
    const status = { ...claim.status, capacity: { ...(claim.status?.capacity ?? {}), storage: want! } };
    delete status.conditions;
    await this.client.update(R.persistentvolumeclaims, claim.metadata.namespace, { ...claim, status } as PVCObj, { subresource: 'status' });
    recorder.event(claim, 'Normal', 'VolumeResizeSuccessful', 'Resize volume succeeded');
  }
}
