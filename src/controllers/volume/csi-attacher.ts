// The emulated drivers' external-attacher (kubernetes-csi/external-attacher): it takes the VolumeAttachments naming
// one of winkube's emulated drivers, adds its finalizer `external-attacher/<driver with non-alphanumerics as ->`,
// "calls" ControllerPublishVolume and marks them attached; on deletion it detaches and lets them go.

import { isNotFound } from '../../api/errors.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { emulatedDriver } from '../../csi/drivers.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { clone, type NodeObj } from '../util/types.js';
import type { VolumeAttachmentObj } from './attach-detach.js';

export const NAME = 'csi-attacher';

/** external-attacher GetFinalizerName: the driver name sanitised to `[a-zA-Z0-9-]`. */
export function attacherFinalizer(driver: string): string {
  return `external-attacher/${driver.replace(/[^a-zA-Z0-9-]/g, '-')}`;
}

export class CsiAttacher extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly attachments: Informer<VolumeAttachmentObj>;
  private readonly nodes: Informer<NodeObj>;

  constructor(opts: ControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 2);
    this.client = opts.client;
    this.attachments = opts.informers.for<VolumeAttachmentObj>(R.volumeattachments);
    this.nodes = opts.informers.for<NodeObj>(R.nodes);
    const add = (va: VolumeAttachmentObj) => { if (emulatedDriver(va.spec?.attacher)) this.queue.add(va.metadata.name!); };
    this.attachments.addHandler({ add, update: (_o, va) => add(va), delete: () => undefined });
  }

  protected informersToSync() {
    return [this.attachments, this.nodes];
  }

  async reconcile(name: string): Promise<void> {
    const cached = this.attachments.get(name);
    if (!cached) return;
    const va = clone(cached);
    const fin = attacherFinalizer(va.spec.attacher);
    const finalizers = va.metadata.finalizers ?? [];
    if (va.metadata.deletionTimestamp) {
      // ControllerUnpublishVolume succeeded: the finalizer goes and the object with it.
      if (!finalizers.includes(fin)) return;
      va.metadata.finalizers = finalizers.filter((f) => f !== fin);
      try {
        await this.client.update(R.volumeattachments, undefined, va);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      return;
    }
    if (!finalizers.includes(fin)) {
      va.metadata.finalizers = [...finalizers, fin];
      await this.client.update(R.volumeattachments, undefined, va);
      return; // the update comes back through the informer
    }
    if (va.status?.attached) return;
    // csi-node IDs: the emulated drivers report the node name (src/node/volumes/csi-node.ts).
    const node = this.nodes.get(va.spec.nodeName);
    const status = node
      ? { attached: true, attachmentMetadata: { devicePath: `/dev/disk/by-id/winkube-${va.spec.source.persistentVolumeName ?? ''}` } }
      : { attached: false, attachError: { time: new Date(this.clock.now()).toISOString(), message: `rpc error: code = NotFound desc = node ${JSON.stringify(va.spec.nodeName)} not found` } };
    await this.client.update(R.volumeattachments, undefined, { ...va, status } as VolumeAttachmentObj, { subresource: 'status' });
  }
}
