// The shared Transport conformance suite (node:test): every transport runs it against a live control plane to
// prove it gives the same answers — objects, Status errors, lists, watch streams, patches, subresources.

import { after, before, describe } from 'node:test';
import { crudCases } from './conformance/crud.js';
import type { TransportEnv } from './conformance/helpers.js';
import { listWatchCases } from './conformance/list-watch.js';
import { patchSubresourceCases } from './conformance/patch-subresources.js';

export type { TransportEnv } from './conformance/helpers.js';

/**
 * Registers the suite under `describe(name)`. `makeEnv` is called once for the whole suite (serving certificates
 * are slow to make); each case works in a namespace of its own, so cases never see each other's objects.
 */
export function transportConformance(name: string, makeEnv: () => Promise<TransportEnv>): void {
  describe(`Transport conformance: ${name}`, () => {
    let env: TransportEnv | undefined;
    before(async () => {
      env = await makeEnv();
    });
    after(async () => {
      await env?.stop();
    });
    const get = () => {
      if (!env) throw new Error('transport conformance: the environment failed to start');
      return env;
    };
    describe('objects and errors', () => crudCases(get));
    describe('lists and watches', () => listWatchCases(get));
    describe('patches and subresources', () => patchSubresourceCases(get));
  });
}
