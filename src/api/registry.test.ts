import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceDecl } from './interfaces.js';
import { Registry } from './registry.js';

const decl = (group: string, version: string, plural: string): ResourceDecl => ({
  group, version, plural, kind: plural, singular: plural, namespaced: true, strategy: {},
});

describe('Registry at run time', () => {
  it('adds and removes resources, keeping built-in order and sorting added groups kube-aware', () => {
    const r = new Registry([decl('apps', 'v1', 'deployments'), decl('autoscaling', 'v2', 'hpa'), decl('autoscaling', 'v1', 'hpa')]);
    const seen: number[] = [];
    r.onChange((c) => seen.push(c.added.length - c.removed.length));
    const added = [decl('example.com', 'v1beta1', 'widgets'), decl('example.com', 'v1', 'widgets'), decl('example.com', 'v1alpha1', 'widgets')];
    r.add(added);
    assert.deepEqual(r.groups().map((g) => [g.name, g.versions]), [
      ['apps', ['v1']], ['autoscaling', ['v2', 'v1']], ['example.com', ['v1', 'v1beta1', 'v1alpha1']],
    ]);
    assert.equal(r.lookup('example.com', 'v1', 'widgets'), added[1]);
    assert.throws(() => r.add([decl('example.com', 'v1', 'widgets')]), /declared twice/);
    const gen = r.generation;
    r.remove(added);
    assert.equal(r.lookup('example.com', 'v1', 'widgets'), undefined);
    assert.equal(r.hasGroupVersion('example.com', 'v1'), false);
    assert.equal(r.decls.length, 3);
    assert.equal(r.generation, gen + 1);
    assert.deepEqual(seen, [3, -3]);
  });
});
