import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scaleDownRules, scaleUpRules } from '../../api/strategies/autoscaling.js';
import {
  limitWithBehavior, limitWithoutBehavior, scaleDownLimitWithRules, scaleUpLimitWithRules, stabilizeWithBehavior, stabilizeWithoutBehavior,
  type Behavior,
} from './behavior.js';

const NOW = 1_000_000;
const defaults = (): Required<Behavior> => ({ scaleUp: scaleUpRules() as never, scaleDown: { ...scaleDownRules(), stabilizationWindowSeconds: 300 } as never });

describe('HPA behavior', () => {
  it('default scale-up: the larger of +4 pods and +100 % per 15 s', () => {
    const up = defaults().scaleUp;
    assert.equal(scaleUpLimitWithRules(1, [], up, NOW), 5);
    assert.equal(scaleUpLimitWithRules(10, [], up, NOW), 20);
    // 3 pods were added 10 s ago: the period started at 7.
    assert.equal(scaleUpLimitWithRules(10, [{ change: 3, timestamp: NOW - 10_000 }], up, NOW), 14);
    // ... but not 20 s ago.
    assert.equal(scaleUpLimitWithRules(10, [{ change: 3, timestamp: NOW - 20_000 }], up, NOW), 20);
  });

  it('Min and Disabled select policies', () => {
    const rules = { selectPolicy: 'Min' as const, policies: [{ type: 'Pods' as const, value: 4, periodSeconds: 15 }, { type: 'Percent' as const, value: 100, periodSeconds: 15 }] };
    assert.equal(scaleUpLimitWithRules(10, [], rules, NOW), 14);
    assert.equal(scaleUpLimitWithRules(10, [], { ...rules, selectPolicy: 'Disabled' }, NOW), 10);
    assert.equal(scaleDownLimitWithRules(10, [], { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] }, NOW), 5);
    assert.equal(scaleDownLimitWithRules(10, [], { selectPolicy: 'Min', policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] }, NOW), 8);
  });

  it('limits with reasons', () => {
    const b = defaults();
    assert.deepEqual(limitWithBehavior(2, 20, 1, 10, b, [], [], NOW), { replicas: 6, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
    assert.deepEqual(limitWithBehavior(2, 20, 1, 5, b, [], [], NOW), { replicas: 5, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
    assert.equal(limitWithBehavior(5, 0, 2, 10, b, [], [], NOW).reason, 'TooFewReplicas');
    assert.equal(limitWithBehavior(5, 5, 2, 10, b, [], [], NOW).reason, 'DesiredWithinRange');
    assert.deepEqual(limitWithoutBehavior(1, 10, 1, 10), { replicas: 4, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
    assert.equal(limitWithoutBehavior(3, 10, 1, 5).reason, 'TooManyReplicas');
  });

  it('stabilization windows', () => {
    const b = defaults();
    const recs = [{ replicas: 8, timestamp: NOW - 100_000 }, { replicas: 6, timestamp: NOW - 400_000 }];
    // Scaling down to 3 within 300 s of a recommendation of 8: stay at 8.
    const s = stabilizeWithBehavior(recs, 8, 3, b, NOW);
    assert.equal(s.replicas, 8);
    assert.equal(s.reason, 'ScaleDownStabilized');
    // Scale-up has no window by default.
    assert.equal(stabilizeWithBehavior(recs, 2, 5, b, NOW).replicas, 5);
    assert.equal(stabilizeWithoutBehavior(recs, 3, NOW, 300_000).replicas, 8);
    assert.equal(stabilizeWithoutBehavior(recs, 3, NOW, 50_000).replicas, 3);
  });
});
