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
    assert.equal(scaleUpLimitWithRules(1, [], [], up, NOW), 5);
    assert.equal(scaleUpLimitWithRules(10, [], [], up, NOW), 20);
    // 3 pods were added 10 s ago: the period started at 7.
    assert.equal(scaleUpLimitWithRules(10, [{ change: 3, timestamp: NOW - 10_000 }], [], up, NOW), 14);
    // 2 pods were removed 5 s ago: the period started at 12 (10 - 0 + 2), so +100 % allows 24.
    assert.equal(scaleUpLimitWithRules(10, [], [{ change: 2, timestamp: NOW - 5_000 }], up, NOW), 24);
    // ... but not 20 s ago.
    assert.equal(scaleUpLimitWithRules(10, [{ change: 3, timestamp: NOW - 20_000 }], [], up, NOW), 20);
  });

  it('Min and Disabled select policies', () => {
    const rules = { selectPolicy: 'Min' as const, policies: [{ type: 'Pods' as const, value: 4, periodSeconds: 15 }, { type: 'Percent' as const, value: 100, periodSeconds: 15 }] };
    assert.equal(scaleUpLimitWithRules(10, [], [], rules, NOW), 14);
    assert.equal(scaleUpLimitWithRules(10, [], [], { ...rules, selectPolicy: 'Disabled' }, NOW), 10);
    assert.equal(scaleDownLimitWithRules(10, [], [], { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] }, NOW), 5);
    assert.equal(scaleDownLimitWithRules(10, [], [], { selectPolicy: 'Min', policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] }, NOW), 8);
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

  // pkg/controller/podautoscaler/horizontal.go stabilizeRecommendationWithBehaviors: the windows bound the current size.
  const windows = (up: number, down: number): Required<Behavior> => ({
    scaleUp: { ...scaleUpRules(), stabilizationWindowSeconds: up } as never, scaleDown: { ...scaleDownRules(), stabilizationWindowSeconds: down } as never,
  });
  const stabilizeCases: [string, Required<Behavior>, { replicas: number; timestamp: number }[], number, number, number][] = [
    ['a down proposal under a higher recent one stays at the current size, never above it', windows(0, 300), [{ replicas: 10, timestamp: NOW - 60_000 }], 5, 3, 5],
    ['a down proposal moves to the highest recent one below the current size', windows(0, 300), [{ replicas: 4, timestamp: NOW - 60_000 }], 5, 3, 4],
    ['an up proposal with an up window goes to the lowest recent one', windows(120, 300), [{ replicas: 7, timestamp: NOW - 60_000 }], 5, 9, 7],
    ['an up proposal under an up window whose lowest is below the current size stays put', windows(120, 300), [{ replicas: 2, timestamp: NOW - 60_000 }], 5, 9, 5],
    ['a sample exactly at the window start is outside it', windows(0, 60), [{ replicas: 9, timestamp: NOW - 60_000 }], 5, 3, 3],
  ];
  for (const [what, b, recs, current, desired, want] of stabilizeCases) {
    it(`stabilizeWithBehavior: ${what}`, () => assert.equal(stabilizeWithBehavior(recs, current, desired, b, NOW).replicas, want));
  }

  it('stabilizeWithoutBehavior counts a sample exactly at the window start (only Before the cutoff is dropped)', () => {
    assert.equal(stabilizeWithoutBehavior([{ replicas: 9, timestamp: NOW - 300_000 }], 3, NOW, 300_000).replicas, 9);
    assert.equal(stabilizeWithoutBehavior([{ replicas: 9, timestamp: NOW - 300_001 }], 3, NOW, 300_000).replicas, 3);
  });
});
