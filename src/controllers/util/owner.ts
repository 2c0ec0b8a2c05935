// Owner-reference helpers (apimachinery metav1.GetControllerOf / NewControllerRef) and the adopt/release patches
// of pkg/controller/controller_ref_manager.go, written as JSON patches with a uid test so a recreated object is never
// touched by a patch meant for its predecessor.

import type { KubeObject, OwnerReference } from '../../api/types.js';

export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** An owner reference marking `owner` as the managing controller (controller: true, blockOwnerDeletion: true). */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

/** JSON patch that adds `ref` to `obj`'s ownerReferences (adoption). */
export function adoptPatch(obj: KubeObject, ref: OwnerReference): unknown[] {
  const refs = [...(obj.metadata.ownerReferences ?? []), ref];
  return [
    { op: 'test', path: '/metadata/uid', value: obj.metadata.uid },
    { op: 'add', path: '/metadata/ownerReferences', value: refs },
  ];
}

/** JSON patch that removes the owner references with the given uids (release / orphaning). */
export function releasePatch(obj: KubeObject, ownerUids: string[]): unknown[] {
  const refs = (obj.metadata.ownerReferences ?? []).filter((r) => !ownerUids.includes(r.uid));
  return [
    { op: 'test', path: '/metadata/uid', value: obj.metadata.uid },
    refs.length
      ? { op: 'replace', path: '/metadata/ownerReferences', value: refs }
      : { op: 'remove', path: '/metadata/ownerReferences' },
  ];
}
