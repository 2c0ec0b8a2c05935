import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { newPodRuntime } from '../../pod-runtime.js';
import { computeSystems } from './compute-systems.js';

function running(name: string, isolation: 'process' | 'hyperv', hostProcess = false) {
  const pod: Pod = {
    metadata: { namespace: 'default', name, uid: `uid-${name}` },
    spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x' }], ...(hostProcess ? { securityContext: { windowsOptions: { hostProcess: true } } } : {}) },
  };
  const rec = newPodRuntime(pod, 0);
  rec.state = 'active';
  rec.sandboxID = name.padEnd(64, '0');
  rec.isolation = isolation;
  rec.containers.forEach((c, i) => { c.state = 'running'; c.containerID = `containerd://${name}${i}`.padEnd(77, 'f'); });
  return rec;
}

test('compute systems: a container each, one utility VM per Hyper-V pod, none for HostProcess pods', () => {
  const list = computeSystems([running('p', 'process'), running('h', 'hyperv'), running('hpc', 'process', true)], { containerRuntime: 'containerd' });
  assert.deepEqual(list.map((s) => s.type), ['Container', 'Container', 'VirtualMachine', 'Container', 'Container']);
  assert.ok(list.every((s) => s.owner === 'containerd-shim-runhcs-v1.exe'));
  assert.match(list[2].id, /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
  assert.equal(computeSystems([running('d', 'process')], { containerRuntime: 'docker' })[0].owner, 'docker');
});
