// Turns labelSelector/fieldSelector query parameters into one object predicate, using the resource's own
// selectable fields (kube's GetAttrs + field label conversion).

import { StatusError } from '../api/errors.js';
import type { ResourceDecl } from '../api/interfaces.js';
import { fieldSelector, unsupportedFieldMessage } from '../api/field-selectors.js';
import { parseSelector, SelectorError } from '../api/labels.js';
import type { KubeObject } from '../api/types.js';

export function listFilter(decl: ResourceDecl, labelSel?: string, fieldSel?: string): ((obj: KubeObject) => boolean) | undefined {
  try {
    const labels = labelSel ? parseSelector(labelSel) : undefined;
    const fields = fieldSel ? fieldSelector(fieldSel) : undefined;
    const extra = decl.strategy.fieldSelectors ?? {};
    if (fields) {
      for (const r of fields.requirements) {
        const supported = decl.strategy.fieldLabelSupported;
        if (supported ? !supported(r.field) : r.field !== 'metadata.name' && r.field !== 'metadata.namespace' && !(r.field in extra)) {
          throw StatusError.badRequest(unsupportedFieldMessage(r.field));
        }
      }
    }
    if ((!labels || labels.empty()) && !fields?.requirements.length) return undefined;
    return (obj) => {
      if (labels && !labels.matches(obj.metadata.labels)) return false;
      if (fields) {
        return fields.matches((f) => {
          if (f === 'metadata.name') return obj.metadata.name;
          if (f === 'metadata.namespace') return obj.metadata.namespace ?? '';
          return extra[f]?.(obj);
        });
      }
      return true;
    };
  } catch (err) {
    if (err instanceof SelectorError) throw StatusError.badRequest(err.message);
    throw err;
  }
}
