// Strategic-merge-patch errors with apimachinery's texts (pkg/util/mergepatch/errors.go) and the statuses
// kube-apiserver gives them (apiserver handlers/patch.go interpretStrategicMergePatchError).

import { StatusError } from '../../api/errors.js';
import { goFmt, goTypeName } from './json-value.js';

// 400 BadRequest with the error text (interpretStrategicMergePatchError's first case).
export const badJSONDoc = () => StatusError.badRequest('invalid JSON document');
export const badPrimitiveList = () => StatusError.badRequest('invalid patch format of primitive list');
export const badRetainKeys = () => StatusError.badRequest('invalid patch format of retainKeys');
export const badSetElementOrder = () => StatusError.badRequest('invalid patch format of setElementOrder list');

// 422 with NewGenericServerResponse's fixed text; apimachinery's own text goes to `cause` for logs.
export function unprocessable(text: string): StatusError {
  const err = new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  err.cause = text;
  return err;
}
export const noListOfLists = () => unprocessable('lists of lists are not supported');

/**
 * Errors kube-apiserver passes through untyped (it answers 500 with reason Unknown). Bad input gets a 4xx here
 * (DESIGN.md), so they are 400 BadRequest with apimachinery's text.
 */
export const plain = (text: string) => StatusError.badRequest(text);
export const noMergeKey = (m: unknown, key: string) => plain(`map: ${goFmt(m)} does not contain declared merge key: ${key}`);
export const badArgType = (expected: string, actual: unknown) => plain(`expected a ${expected}, but received a ${goTypeName(actual)}`);
export const badPatchType = (t: unknown, m: unknown) => plain(`unknown patch type: ${goFmt(t)} in map: ${goFmt(m)}`);
export const mergeInList = () => plain('merging lists cannot yet be specified in the patch');
export const unexpectedStrategy = (s: readonly string[]) => plain(`unexpected patch strategy: ${goFmt(s)}`);
