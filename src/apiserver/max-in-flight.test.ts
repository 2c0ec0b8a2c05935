// The checks of kube-apiserver's in-flight flags, with its messages.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkMaxInFlight } from './max-in-flight.js';

test('the flags: negatives refused; with APF their sum must be positive (kube-apiserver\'s messages)', () => {
  assert.deepEqual(checkMaxInFlight({ readOnly: 400, mutating: 200 }, true), { readOnly: 400, mutating: 200 });
  assert.deepEqual(checkMaxInFlight({ readOnly: 0, mutating: 0 }, false), { readOnly: 0, mutating: 0 }, 'without APF, 0 is no limit');
  const refused: [number, number, boolean, string][] = [
    [-1, 200, true, '--max-requests-inflight can not be negative value'],
    [400, -5, false, '--max-mutating-requests-inflight can not be negative value'],
    [0, 0, true, 'invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive'],
  ];
  for (const [readOnly, mutating, apf, message] of refused) {
    assert.throws(() => checkMaxInFlight({ readOnly, mutating }, apf), { message }, `${readOnly}/${mutating}`);
  }
});
