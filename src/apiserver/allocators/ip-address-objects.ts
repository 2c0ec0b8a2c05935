// The IPAddress object (networking.k8s.io/v1) kube-apiserver 1.33's ClusterIP allocator writes for each address it
// hands out and deletes when the Service lets it go (pkg/registry/core/service/ipallocator/ipallocator.go
// createIPAddress, serviceToRef; MultiCIDRServiceAllocator is GA and on in 1.33). The stored bitmaps still decide who
// holds an address; these objects publish it, so `kubectl get ipaddresses` shows each ClusterIP and its Service.

import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import type { Logger } from '../../util/log.js';
import type { IPFamily } from './ip-range.js';

/** networkingv1.LabelIPAddressFamily and LabelManagedBy, and ipallocator.ControllerName (the manager's value). */
export const LABEL_IP_FAMILY = 'ipaddress.kubernetes.io/ip-family';
export const LABEL_MANAGED_BY = 'ipaddress.kubernetes.io/managed-by';
export const IPALLOCATOR_MANAGER = 'ipallocator.k8s.io';

export const IP_ADDRESSES: ResourceType = { group: 'networking.k8s.io', version: 'v1', resource: 'ipaddresses', kind: 'IPAddress', namespaced: false };

interface ParentRef { group: string; resource: string; namespace?: string; name: string }

/** What the allocator needs: one object per allocated ClusterIP, gone with the allocation. */
export interface IPAddressRecorder {
  /** Records `ip` as held by `svc`; an object left over for another holder is replaced (the bitmaps decided). */
  create(ip: string, family: IPFamily, svc: KubeObject): Promise<void>;
  /**
   * Takes `ip` for `svc` by creating its object, where the object is the only record of the address (an extra
   * ServiceCIDR's): false when another holder's object exists (ipallocator.go createIPAddress: ErrAllocated).
   */
  claim(ip: string, family: IPFamily, svc: KubeObject): Promise<boolean>;
  /** Removes the object of `ip` when `svc` (if given) is its parent. Never throws: the repair pass catches up. */
  delete(ip: string, svc?: KubeObject): Promise<void>;
}

/** serviceToRef: the core group is written as "", the resource as `services`. */
export function serviceParentRef(svc: KubeObject): ParentRef {
  return { group: '', resource: 'services', namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' };
}

export function ipAddressObject(ip: string, family: IPFamily, svc: KubeObject): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress',
    metadata: { name: ip, labels: { [LABEL_IP_FAMILY]: family, [LABEL_MANAGED_BY]: IPALLOCATOR_MANAGER } },
    spec: { parentRef: serviceParentRef(svc) },
  };
}

/** Whether the IPAddress names `svc` as its parent. */
export function ownedBy(obj: KubeObject, svc: KubeObject): boolean {
  const ref = (obj.spec as { parentRef?: Partial<ParentRef> } | undefined)?.parentRef;
  const want = serviceParentRef(svc);
  return !!ref && (ref.group ?? '') === '' && ref.resource === want.resource && (ref.namespace ?? '') === want.namespace && ref.name === want.name;
}

export function isManaged(obj: KubeObject): boolean {
  return obj.metadata.labels?.[LABEL_MANAGED_BY] === IPALLOCATOR_MANAGER;
}

/** Writes the objects through the API (kube's allocator uses a loopback client), as system:apiserver. */
export class IPAddressObjects implements IPAddressRecorder {
  constructor(private readonly client: () => Client, private readonly logger?: Logger) {}

  async create(ip: string, family: IPFamily, svc: KubeObject): Promise<void> {
    const obj = ipAddressObject(ip, family, svc);
    try {
      await this.client().create(IP_ADDRESSES, undefined, obj);
      return;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    // Already there: the same Service's (a retried write, a restart) stays; another holder's is stale, since the
    // bitmap just gave this Service the address, and is replaced.
    const existing = await this.client().get(IP_ADDRESSES, undefined, ip);
    if (ownedBy(existing, svc)) return;
    await this.client().delete(IP_ADDRESSES, undefined, ip, { preconditions: { uid: existing.metadata.uid } });
    await this.client().create(IP_ADDRESSES, undefined, obj);
  }

  async claim(ip: string, family: IPFamily, svc: KubeObject): Promise<boolean> {
    try {
      await this.client().create(IP_ADDRESSES, undefined, ipAddressObject(ip, family, svc));
      return true;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    // A retried write of the same Service finds its own object.
    const existing = await this.client().get(IP_ADDRESSES, undefined, ip).catch(() => undefined);
    return !!existing && ownedBy(existing, svc);
  }

  async delete(ip: string, svc?: KubeObject): Promise<void> {
    try {
      if (svc) {
        const existing = await this.client().get(IP_ADDRESSES, undefined, ip);
        if (!ownedBy(existing, svc)) return;
        await this.client().delete(IP_ADDRESSES, undefined, ip, { preconditions: { uid: existing.metadata.uid } });
      } else {
        await this.client().delete(IP_ADDRESSES, undefined, ip);
      }
    } catch (err) {
      if (isNotFound(err)) return;
      this.logger?.warn('could not delete IPAddress; the repair pass will', { ip, err: err instanceof Error ? err.message : String(err) });
    }
  }
}
