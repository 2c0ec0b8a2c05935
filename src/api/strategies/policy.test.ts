import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../types.js';
import { kubeFieldErrorString as str } from '../validation/go-value.js';
import { STRATEGIES } from './index.js';
import { podDisruptionBudgetStrategy as s } from './policy.js';

const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

const pdb = (spec: Record<string, unknown>, name = 'web'): KubeObject => ({ metadata: { name, namespace: 'default' }, spec });
const errs = (obj: KubeObject) => s.validate(obj).map(str);

test('registered under policy/poddisruptionbudgets', () => {
  assert.equal(STRATEGIES['policy/poddisruptionbudgets'], s);
});

test('create: status starts at zero counters, generation 1; no v1 defaults', () => {
  const obj = pdb({ minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
  obj.status = { disruptionsAllowed: 9 };
  s.prepareForCreate(obj);
  assert.deepEqual(obj.status, { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });
  assert.equal(obj.metadata.generation, 1);
  assert.deepEqual(obj.spec, { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
});

test('spec validation (ValidatePodDisruptionBudgetSpec)', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['integer minAvailable', { minAvailable: 2 }, []],
    ['percent maxUnavailable', { maxUnavailable: '50%' }, []],
    ['neither set', { selector: {} }, []],
    ['negative', { minAvailable: -1 }, ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']],
    ['not a percent', { maxUnavailable: 'half' },
      [`spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: ${PERCENT_MSG}`]],
    ['over 100%', { minAvailable: '150%' }, ['spec.minAvailable: Invalid value: "150%": must not be greater than 100%']],
    ['both set', { minAvailable: 1, maxUnavailable: 1 }, [
      'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), ' +
      'MaxUnavailable:(*intstr.IntOrString)(0xc000000000), Selector:(*v1.LabelSelector)(nil), ' +
      'UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
    ]],
    ['bad selector operator', { selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } },
      ['spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator']],
    ['unknown eviction policy', { minAvailable: 1, unhealthyPodEvictionPolicy: 'Sometimes' },
      ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"']],
  ];
  for (const [what, spec, want] of cases) assert.deepEqual(errs(pdb(spec)), want, what);
});

test('names follow the generic path-segment rule, not DNS', () => {
  assert.deepEqual(errs(pdb({ minAvailable: 1 }, 'Upper_Case')), []);
  assert.deepEqual(errs(pdb({ minAvailable: 1 }, 'a/b')), ['metadata.name: Invalid value: "a/b": may not contain \'/\'']);
});

test('update: spec changes bump generation and keep status; /status keeps spec and checks counters and conditions', () => {
  const old = pdb({ minAvailable: 1 });
  s.prepareForCreate(old);
  const next = structuredClone(old);
  next.spec = { minAvailable: 2 };
  next.status = { currentHealthy: 5, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };
  s.prepareForUpdate(next, old, { now: 0 });
  assert.equal(next.metadata.generation, 2);
  assert.equal((next.status as { currentHealthy: number }).currentHealthy, 0);
  assert.deepEqual(s.validateUpdate(next, old, { now: 0 }), []);

  const status = structuredClone(old);
  status.spec = { minAvailable: 9 };
  status.status = {
    currentHealthy: -1, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0,
    conditions: [{ type: 'DisruptionAllowed', status: 'Maybe', reason: 'bad reason', message: '' }],
  };
  const ctx = { now: 0, subresource: 'status' };
  s.prepareForUpdate(status, old, ctx);
  assert.deepEqual(status.spec, { minAvailable: 1 });
  assert.equal(status.metadata.generation, 1);
  assert.deepEqual(s.validateUpdate(status, old, ctx).map(str), [
    'status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
    'status.conditions[0].lastTransitionTime: Required value: must be set',
    "status.conditions[0].reason: Invalid value: \"bad reason\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'ReasonA',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
    'status.currentHealthy: Invalid value: -1: must be greater than or equal to 0',
  ]);
});
