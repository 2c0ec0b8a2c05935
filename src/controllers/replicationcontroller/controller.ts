// The ReplicationController manager (pkg/controller/replication/replication_controller.go): kube runs the ReplicaSet
// controller's code over ReplicationControllers, their equality-based selector read as matchLabels.

import { R } from '../../client/resources.js';
import { ReplicaSetController, type ReplicaSetControllerOptions, type ReplicaSetFlavor } from '../replicaset/controller.js';
import type { ReplicaSetObj } from '../util/types.js';

export const NAME = 'replicationcontroller-controller';
/** The event source kube-controller-manager uses for this controller. */
export const COMPONENT = 'replication-controller';

export const REPLICATION_CONTROLLER_FLAVOR: ReplicaSetFlavor = {
  name: NAME,
  resource: R.replicationcontrollers,
  apiVersion: 'v1',
  kind: 'ReplicationController',
  selector: (rc: ReplicaSetObj) => {
    const sel = (rc.spec as { selector?: Record<string, string> } | undefined)?.selector;
    return { matchLabels: sel ?? {} };
  },
};

export class ReplicationControllerController extends ReplicaSetController {
  constructor(opts: Omit<ReplicaSetControllerOptions, 'flavor'>) {
    super({ ...opts, flavor: REPLICATION_CONTROLLER_FLAVOR });
  }
}
