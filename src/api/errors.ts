// StatusError: the one error type that becomes a Kubernetes `Status`, with kube-apiserver's reasons and messages
// (after k8s.io/apimachinery/pkg/api/errors and pkg/util/validation/field).

export type StatusReason =
  | 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Invalid' | 'BadRequest' | 'Unauthorized' | 'Forbidden'
  | 'MethodNotAllowed' | 'NotAcceptable' | 'UnsupportedMediaType' | 'Gone' | 'Expired' | 'TooManyRequests'
  | 'RequestEntityTooLarge' | 'InternalError' | 'Timeout' | 'ServiceUnavailable' | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never> | { resourceVersion?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** Field error types, worded as apimachinery's field.ErrorType.String(). */
export const FieldErrorType = {
  NotFound: { reason: 'FieldValueNotFound', text: 'Not found' },
  Required: { reason: 'FieldValueRequired', text: 'Required value' },
  Duplicate: { reason: 'FieldValueDuplicate', text: 'Duplicate value' },
  Invalid: { reason: 'FieldValueInvalid', text: 'Invalid value' },
  NotSupported: { reason: 'FieldValueNotSupported', text: 'Unsupported value' },
  Forbidden: { reason: 'FieldValueForbidden', text: 'Forbidden' },
  TooLong: { reason: 'FieldValueTooLong', text: 'Too long' },
  TooMany: { reason: 'FieldValueTooMany', text: 'Too many' },
  Internal: { reason: 'InternalError', text: 'Internal error' },
  TypeInvalid: { reason: 'FieldValueTypeInvalid', text: 'Invalid value' },
} as const;
export type FieldErrorKind = keyof typeof FieldErrorType;

/** One validation failure at a field path, like apimachinery's *field.Error. */
export class FieldError {
  constructor(
    readonly type: FieldErrorKind,
    readonly field: string,
    readonly badValue: unknown,
    readonly detail: string,
  ) {}

  /** `Invalid value: -1: must be ...` — the part after the field path (field.Error.ErrorBody). */
  body(): string {
    const t = FieldErrorType[this.type];
    switch (this.type) {
      case 'Required': case 'Forbidden': case 'TooLong': case 'Internal':
        return this.detail ? `${t.text}: ${this.detail}` : t.text;
      default: {
        let s = t.text;
        if (this.badValue !== OMIT_VALUE) s += `: ${formatBadValue(this.badValue)}`;
        if (this.detail) s += `: ${this.detail}`;
        return s;
      }
    }
  }

  toString(): string {
    return `${this.field}: ${this.body()}`;
  }
}

/** Marker for errors whose bad value is not printed (field.OmitValueType). */
export const OMIT_VALUE: unique symbol = Symbol('omit');

function formatBadValue(v: unknown): string {
  // Values wrapped with their Go rendering (validation/go-value.ts) print as kube prints them: map[string]string{...}.
  if (v && typeof v === 'object' && typeof (v as { goSyntax?: unknown }).goSyntax === 'string') return (v as { goSyntax: string }).goSyntax;
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

// Constructors named like field.Required / field.Invalid / ...
export const fieldErr = {
  required: (field: string, detail = '') => new FieldError('Required', field, '', detail),
  invalid: (field: string, value: unknown, detail: string) => new FieldError('Invalid', field, value, detail),
  forbidden: (field: string, detail: string) => new FieldError('Forbidden', field, '', detail),
  notFound: (field: string, value: unknown) => new FieldError('NotFound', field, value, ''),
  duplicate: (field: string, value: unknown) => new FieldError('Duplicate', field, value, ''),
  tooLong: (field: string, value: unknown, max: number) =>
    new FieldError('TooLong', field, value, `may not be more than ${max} bytes`),
  tooMany: (field: string, actual: number, max: number) =>
    new FieldError('TooMany', field, actual, `must have at most ${max} items`),
  notSupported: (field: string, value: unknown, supported: string[]) =>
    new FieldError('NotSupported', field, value,
      supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : ''),
  typeInvalid: (field: string, value: unknown, detail: string) => new FieldError('TypeInvalid', field, value, detail),
};

/** Joins messages the way utilerrors.NewAggregate does: one stays bare, several go in brackets. */
export function aggregateMessage(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'StatusError';
  }

  /**
   * The Status body, its fields in metav1.Status's order (kind, apiVersion, metadata, status, message, reason,
   * details, code), so clients that print or compare the raw body see what kube-apiserver sends.
   */
  toStatus(): Status {
    return {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message,
      // StatusReasonUnknown is "" and metav1.Status tags reason omitempty: a plain Go error's 500 has none.
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.details ? { details: this.details } : {}), code: this.code,
    };
  }

  static fromStatus(s: Partial<Status>): StatusError {
    return new StatusError(s.code ?? 500, (s.reason ?? '') as StatusReason, s.message ?? '', s.details);
  }

  // ---- factories (apimachinery errors.NewXxx) ----

  /** `deployments.apps "x" not found`; `resource` is the plural resource name. */
  static notFound(group: string, resource: string, name: string): StatusError {
    return new StatusError(404, 'NotFound', `${qr(group, resource)} "${name}" not found`, { name, group: group || undefined, kind: resource });
  }

  static alreadyExists(group: string, resource: string, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${qr(group, resource)} "${name}" already exists`, { name, group: group || undefined, kind: resource });
  }

  static conflict(group: string, resource: string, name: string, why: string): StatusError {
    return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qr(group, resource)} "${name}": ${why}`, { name, group: group || undefined, kind: resource });
  }

  static staleResourceVersion(group: string, resource: string, name: string): StatusError {
    return StatusError.conflict(group, resource, name, 'the object has been modified; please apply your changes to the latest version and try again');
  }

  /** A write whose metadata.uid (or DeleteOptions precondition) names another incarnation of the object. */
  static uidPreconditionFailed(group: string, resource: string, name: string, wanted: string | undefined, actual: string | undefined): StatusError {
    return StatusError.conflict(group, resource, name, `Precondition failed: UID in precondition: ${wanted}, UID in object meta: ${actual}`);
  }

  /** 422 with one cause per field error; `kind` is the Kind (e.g. Deployment). */
  static invalid(group: string, kind: string, name: string, errs: FieldError[]): StatusError {
    const causes = errs.map((e) => ({ reason: FieldErrorType[e.type].reason, message: e.body(), field: e.field }));
    const message = `${qr(group, kind)} "${name}" is invalid: ${aggregateMessage(errs.map((e) => e.toString()))}`;
    return new StatusError(422, 'Invalid', message, { name, group: group || undefined, kind, causes });
  }

  static badRequest(message: string): StatusError {
    return new StatusError(400, 'BadRequest', message);
  }

  static unauthorized(message = 'Unauthorized'): StatusError {
    return new StatusError(401, 'Unauthorized', message);
  }

  /** `pods "x" is forbidden: <why>` or, without a name, `pods is forbidden: <why>`. */
  static forbidden(group: string, resource: string, name: string, why: string): StatusError {
    const what = name ? `${qr(group, resource)} "${name}"` : qr(group, resource);
    return new StatusError(403, 'Forbidden', `${what} is forbidden: ${why}`, { name: name || undefined, group: group || undefined, kind: resource });
  }

  static methodNotAllowed(verb: string, group: string, resource: string): StatusError {
    return new StatusError(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qr(group, resource)}"`, { group: group || undefined, kind: resource });
  }

  static notAcceptable(message: string): StatusError {
    return new StatusError(406, 'NotAcceptable', message);
  }

  static unsupportedMediaType(contentType: string): StatusError {
    return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json; got ${contentType}`);
  }

  static expired(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  }

  static gone(message: string): StatusError {
    return new StatusError(410, 'Gone', message);
  }

  static tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
    return new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds });
  }

  static requestEntityTooLarge(message: string): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', message);
  }

  static internal(message: string): StatusError {
    return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
  }

  static serviceUnavailable(message: string): StatusError {
    return new StatusError(503, 'ServiceUnavailable', message);
  }
}

function qr(group: string, resourceOrKind: string): string {
  return group ? `${resourceOrKind}.${group}` : resourceOrKind;
}

export const isStatusError = (e: unknown): e is StatusError => e instanceof StatusError;
export const isNotFound = (e: unknown): boolean => isStatusError(e) && e.code === 404;
export const isAlreadyExists = (e: unknown): boolean => isStatusError(e) && e.reason === 'AlreadyExists';
export const isConflict = (e: unknown): boolean => isStatusError(e) && e.reason === 'Conflict';
export const isInvalid = (e: unknown): boolean => isStatusError(e) && e.reason === 'Invalid';
export const isExpired = (e: unknown): boolean => isStatusError(e) && (e.reason === 'Expired' || e.reason === 'Gone');
export const isForbidden = (e: unknown): boolean => isStatusError(e) && e.code === 403;
