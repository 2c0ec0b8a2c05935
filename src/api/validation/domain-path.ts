// IsDomainPrefixedPath (k8s.io/apimachinery/pkg/util/validation/validation.go): "acme.io/foo" values such as a
// Job's spec.managedBy and an IngressClass's spec.controller.

import { FieldError, fieldErr } from '../errors.js';
import { isDNS1123Subdomain, regexError } from './names.js';

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^(?:${HTTP_PATH_FMT})$`);

export function validateDomainPrefixedPath(value: string, path: string): FieldError[] {
  if (!value) return [fieldErr.required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || !host || !rest) return [fieldErr.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((m) => fieldErr.invalid(path, host, m));
  if (!HTTP_PATH_RE.test(rest)) errs.push(fieldErr.invalid(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}
