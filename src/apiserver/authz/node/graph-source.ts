// Keeps the NodeGraph in step with the API (plugin/pkg/auth/authorizer/node/graph_populator.go): informers on pods,
// PersistentVolumes and VolumeAttachments through the API server's loopback client.

import type { PersistentVolume, Pod } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../../api/types.js';
import { InformerFactory, type Informer } from '../../../client/informer.js';
import type { Client } from '../../../client/interfaces.js';
import { R } from '../../../client/resources.js';
import type { Clock } from '../../../util/clock.js';
import type { Logger } from '../../../util/log.js';
import type { NodeGraph } from './graph.js';

export interface NodeGraphSourceOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  graph: NodeGraph;
}

export class NodeGraphSource {
  private readonly informers: InformerFactory;
  private readonly all: Informer[];

  constructor(o: NodeGraphSourceOptions) {
    this.informers = new InformerFactory({ client: o.client, clock: o.clock, logger: o.logger });
    const g = o.graph;
    const pods = this.informers.for(R.pods);
    const setPod = (p: KubeObject) => g.setPod(p as unknown as Pod);
    pods.addHandler({ add: setPod, update: (_o, p) => setPod(p), delete: (p) => g.deletePod(p.metadata.namespace ?? '', p.metadata.name ?? '') });
    const pvs = this.informers.for(R.persistentvolumes);
    const setPV = (p: KubeObject) => g.setPV(p as unknown as PersistentVolume);
    pvs.addHandler({ add: setPV, update: (_o, p) => setPV(p), delete: (p) => g.deletePV(p.metadata.name ?? '') });
    const vas = this.informers.for(R.volumeattachments);
    const setVA = (v: KubeObject) => g.setVolumeAttachment(v.metadata.name ?? '', (v as { spec?: { nodeName?: string } }).spec?.nodeName);
    vas.addHandler({ add: setVA, update: (_o, v) => setVA(v), delete: (v) => g.deleteVolumeAttachment(v.metadata.name ?? '') });
    this.all = [pods, pvs, vas];
  }

  async start(): Promise<void> {
    this.informers.start();
    await Promise.all(this.all.map((i) => i.waitForSync()));
  }

  stop(): void {
    this.informers.stop();
  }
}
