// flowcontrol.apiserver.k8s.io/v1 validation essentials (pkg/apis/flowcontrol/validation/validation.go):
// FlowSchema precedence, distinguisher and priority-level reference; PriorityLevelConfiguration type and limits.

import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import type { ObjectMeta } from '../types.js';
import { nameIsPathSegment } from './names.js';
import { validateNonnegative, validateObjectMeta } from './object-meta.js';

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;
const DISTINGUISHERS = ['ByNamespace', 'ByUser'];
const PL_TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSES = ['Queue', 'Reject'];

export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const errs = validateObjectMeta(meta(fs), nameIsPathSegment);
  const s = fs.spec;
  const prec = s?.matchingPrecedence ?? 0;
  if (prec <= 0) errs.push(fieldErr.invalid('spec.matchingPrecedence', prec, 'must be a positive value'));
  else if (prec > 10000) errs.push(fieldErr.invalid('spec.matchingPrecedence', prec, 'must not be greater than 10000'));
  const d = s?.distinguisherMethod?.type;
  if (d != null && !DISTINGUISHERS.includes(d)) errs.push(fieldErr.notSupported('spec.distinguisherMethod.type', d, DISTINGUISHERS));
  if (!s?.priorityLevelConfiguration?.name) errs.push(fieldErr.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  return errs;
}

export function validatePriorityLevelConfiguration(pl: PriorityLevelConfiguration): FieldError[] {
  const errs = validateObjectMeta(meta(pl), nameIsPathSegment);
  const s = pl.spec;
  const type = s?.type ?? '';
  if (!PL_TYPES.includes(type)) errs.push(fieldErr.notSupported('spec.type', type, PL_TYPES));
  if (type === 'Exempt' && s?.limited) errs.push(fieldErr.forbidden('spec.limited', 'must be nil if the type is not Limited'));
  if (type === 'Limited') {
    if (s?.exempt) errs.push(fieldErr.forbidden('spec.exempt', 'must be nil if the type is Limited'));
    const lim = s?.limited;
    if (!lim) errs.push(fieldErr.required('spec.limited', 'must not be empty when type is Limited'));
    else {
      errs.push(...validateNonnegative(lim.nominalConcurrencyShares ?? undefined, 'spec.limited.nominalConcurrencyShares'));
      const lp = lim.lendablePercent ?? 0;
      if (lp < 0 || lp > 100) errs.push(fieldErr.invalid('spec.limited.lendablePercent', lp, 'must be between 0 and 100, inclusive'));
      const rt = lim.limitResponse?.type ?? '';
      if (!LIMIT_RESPONSES.includes(rt)) errs.push(fieldErr.notSupported('spec.limited.limitResponse.type', rt, LIMIT_RESPONSES));
      const q = lim.limitResponse?.queuing;
      if (rt === 'Queue' && q) {
        if ((q.queues ?? 0) <= 0) errs.push(fieldErr.invalid('spec.limited.limitResponse.queuing.queues', q.queues ?? 0, 'must be positive'));
        if ((q.handSize ?? 0) <= 0) errs.push(fieldErr.invalid('spec.limited.limitResponse.queuing.handSize', q.handSize ?? 0, 'must be positive'));
        if ((q.handSize ?? 0) > (q.queues ?? 0)) errs.push(fieldErr.invalid('spec.limited.limitResponse.queuing.handSize', q.handSize, `should not be greater than queues (${q.queues})`));
        if ((q.queueLengthLimit ?? 0) <= 0) errs.push(fieldErr.invalid('spec.limited.limitResponse.queuing.queueLengthLimit', q.queueLengthLimit ?? 0, 'must be positive'));
      }
      if (rt === 'Reject' && q) errs.push(fieldErr.forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
    }
  }
  return errs;
}
