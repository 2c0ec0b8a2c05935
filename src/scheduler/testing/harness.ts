// Small helpers to run one plugin against NodeInfos built from test objects.

import { createEventRecorder } from '../../client/event-recorder.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { Cache } from '../cache/cache.js';
import { CycleState } from '../framework/cycle-state.js';
import type { NodeInfo } from '../framework/node-info.js';
import { Status } from '../framework/status.js';
import type { Handle } from '../interfaces.js';
import type { Node, Pod } from '../types.js';
import { parseKubeVersion } from '../util/version.js';
import { FakeClient } from './fake-client.js';

/** A cache holding `nodes` with `pods` (which must name their node) placed on them. */
export function cacheWith(nodes: Node[], pods: Pod[] = []): Cache {
  const c = new Cache();
  for (const n of nodes) c.addOrUpdateNode(n);
  for (const p of pods) c.addPod(p);
  return c;
}

export function nodeInfo(node: Node, pods: Pod[] = []): NodeInfo {
  return cacheWith([node], pods).get(node.metadata.name!)!;
}

export function testHandle(version = 'v1.33.1', cache = new Cache()): Handle {
  const client = new FakeClient();
  const clock = new FakeClock();
  return {
    client, clock, logger: silentLogger, nodeInfos: cache, kubernetesVersion: parseKubeVersion(version),
    recorder: createEventRecorder({ client, clock, logger: silentLogger, component: 'default-scheduler' }),
    runFilterPlugins: () => Status.SUCCESS,
    runFilterPluginsWithNominatedPods: () => Status.SUCCESS,
  };
}

export const newState = (): CycleState => new CycleState();
