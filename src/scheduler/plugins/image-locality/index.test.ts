import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheWith, newState } from '../../testing/harness.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import { calculatePriority, ImageLocality, normalizedImageName } from './index.js';

const MB = 1024 * 1024;

describe('ImageLocality', () => {
  it('normalizes names without a tag', () => {
    assert.equal(normalizedImageName('nginx'), 'nginx:latest');
    assert.equal(normalizedImageName('registry:5000/app'), 'registry:5000/app:latest');
    assert.equal(normalizedImageName('app@sha256:abc'), 'app@sha256:abc');
    assert.equal(normalizedImageName('app:1.2'), 'app:1.2');
  });
  it('scores by image size scaled by spread', () => {
    const cache = cacheWith([
      makeNode('has').image(500 * MB, 'web:1').obj(),
      makeNode('also').image(500 * MB, 'web:1').obj(),
      makeNode('none').obj(),
      makeNode('none2').obj(),
    ]);
    const pl = new ImageLocality({ nodeInfos: cache });
    const pod = makePod().obj();
    pod.spec!.containers[0]!.image = 'web:1';
    const s = newState();
    assert.ok(pl.preScore(s, pod).isSuccess());
    // 500 MB × 2/4 = 250 MB → 100 × (250−23)/(1000−23) = 23
    assert.equal(pl.score(s, pod, cache.get('has')!), 23);
    assert.equal(pl.score(s, pod, cache.get('none')!), 0);
    assert.equal(calculatePriority(2000 * MB, 1), 100);
  });
  it('skips pods whose images no node holds', () => {
    const cache = cacheWith([makeNode('n').obj()]);
    assert.ok(new ImageLocality({ nodeInfos: cache }).preScore(newState(), makePod().obj()).isSkip());
  });
});
