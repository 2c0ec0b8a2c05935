// DefaultBinder: writes the decision as a Binding to pods/binding (plugins/defaultbinder/default_binder.go).

import type { CycleState } from '../../framework/cycle-state.js';
import { Status } from '../../framework/status.js';
import type { BindPlugin, Handle } from '../../interfaces.js';
import { R } from '../../../client/resources.js';
import type { Pod } from '../../types.js';

export const NAME = 'DefaultBinder';

export class DefaultBinder implements BindPlugin {
  readonly name = NAME;
  constructor(private readonly handle: Pick<Handle, 'client'>) {}

  async bind(_s: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    const { name, namespace, uid } = pod.metadata;
    await this.handle.client.createSubresource(R.pods, namespace, name!, 'binding', {
      apiVersion: 'v1', kind: 'Binding',
      metadata: { name, namespace, uid },
      target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
    });
    return Status.SUCCESS;
  }
}

export const create = (_args: unknown, handle: Handle): DefaultBinder => new DefaultBinder(handle);
