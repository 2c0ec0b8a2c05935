// Table printing for ValidatingAdmissionPolicy (NAME, VALIDATIONS, PARAMKIND, AGE) and its binding (NAME,
// POLICYNAME, PARAMREF, AGE) (pkg/printers/internalversion/printers.go printValidatingAdmissionPolicy,
// printValidatingAdmissionPolicyBinding).

import type { TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import type { BindingSpec, PolicySpec } from '../validation/validating-admission-policy.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';
import { selectorString } from './selector-string.js';

export const VALIDATING_ADMISSION_POLICY_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
    column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    AGE_COLUMN,
  ],
  row: (obj: KubeObject, now: number) => {
    const spec = (obj.spec ?? {}) as PolicySpec;
    const pk = spec.paramKind ? `${spec.paramKind.apiVersion ?? ''}/${spec.paramKind.kind ?? ''}` : '<unset>';
    return [obj.metadata.name ?? '', spec.validations?.length ?? 0, pk, translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};

export const VALIDATING_ADMISSION_POLICY_BINDING_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    AGE_COLUMN,
  ],
  row: (obj: KubeObject, now: number) => {
    const spec = (obj.spec ?? {}) as BindingSpec;
    const pr = spec.paramRef;
    let param = '<unset>';
    if (pr?.name) param = pr.namespace ? `${pr.namespace}/${pr.name}` : `*/${pr.name}`;
    else if (pr?.selector) {
      const sel = selectorString(pr.selector);
      param = sel instanceof Error ? '<error>' : sel;
    }
    return [obj.metadata.name ?? '', spec.policyName ?? '', param, translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
