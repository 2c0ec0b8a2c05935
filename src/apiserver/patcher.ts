// The Patcher the API server uses: JSON patch, merge patch, strategic merge patch and server-side apply, with merge
// keys taken from the OpenAPI schema of the resource's kind.

import { getComponentSchemas } from '../api/openapi/index.js';
import type { ResourceDecl } from '../api/interfaces.js';
import type { KubeObject } from '../api/types.js';
import type { Clock } from '../util/clock.js';
import { rfc3339 } from '../util/clock.js';
import type { Patcher } from './interfaces.js';
import { applyServerSidePatch } from './patch/apply-patch.js';
import { applyJsonPatch } from './patch/json-patch.js';
import { applyMergePatch } from './patch/merge-patch.js';
import { DEFAULT_PATCH_META, patchMetaFromSchemas, type PatchMeta } from './patch/patch-meta.js';
import { applyStrategicMergePatch } from './patch/strategic-merge-patch.js';
import { updateManagedFields } from './patch/update-managed-fields.js';

export function createPatcher(clock: Clock): Patcher {
  const metas = new Map<string, PatchMeta>();
  const metaOf = (decl: ResourceDecl): PatchMeta => {
    const def = decl.definition;
    if (!def) return DEFAULT_PATCH_META;
    let m = metas.get(def);
    if (!m) metas.set(def, (m = patchMetaFromSchemas(getComponentSchemas(), def)));
    return m;
  };
  return {
    apply(type, current, patch, decl) {
      switch (type) {
        case 'json': return applyJsonPatch(current, patch) as KubeObject;
        case 'merge': return applyMergePatch(current, patch) as KubeObject;
        case 'strategic': return applyStrategicMergePatch(current, patch, metaOf(decl)) as KubeObject;
      }
    },
    trackUpdate(prev, next, decl, manager, subresource) {
      return updateManagedFields(prev, next, metaOf(decl), manager, {
        time: rfc3339(clock.now()), apiVersion: decl.group ? `${decl.group}/${decl.version}` : decl.version, subresource: subresource || undefined,
      });
    },
    serverSideApply(live, applied, decl, manager, force, subresource) {
      return applyServerSidePatch(live, applied as unknown as Record<string, unknown>, metaOf(decl), manager, {
        force, time: rfc3339(clock.now()), apiVersion: decl.group ? `${decl.group}/${decl.version}` : decl.version, subresource: subresource || undefined,
      });
    },
  };
}
