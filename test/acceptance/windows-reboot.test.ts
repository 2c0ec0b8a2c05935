// kubernetes test/e2e/windows/reboot_node.go black-box (windows-facts §7): a node reboot is `winkube up` again on the
// same data directory. The Windows node's bootID grows, the agnhost container restarts exactly once and Linux → Windows
// connectivity comes back.

import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const FLEET = new URL('../../../test/fixtures/reboot-fleet.yaml', import.meta.url).pathname;
const NEWEST = kubectlBinaries().at(-1)!;

const PODS = `
apiVersion: v1
kind: Pod
metadata: {name: agnhost-win}
spec:
  nodeName: win
  restartPolicy: Always
  containers: [{name: agnhost, image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: [netexec, '--http-port=8080']}]
---
apiVersion: v1
kind: Pod
metadata: {name: client-linux}
spec:
  nodeName: linux
  containers: [{name: c, image: busybox, command: [sleep, '36000']}]
`;

test('reboot_node: bootID increases, the Windows container restarts once, Linux → Windows traffic flows again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-reboot-'));
  const running: RunningCluster[] = [];
  let k: Kubectl | undefined;
  const json = (args: string[]) => JSON.parse(k!.ok([...args, '-o', 'json']));
  const reach = async () => {
    const ip = await eventually(() => {
      const s = json(['get', 'pod', 'agnhost-win']).status;
      return s.phase === 'Running' && s.podIP ? s.podIP as string : undefined;
    }, 60_000, 'agnhost-win Running');
    await eventually(() => json(['get', 'pod', 'client-linux']).status.phase === 'Running' || undefined, 60_000, 'client-linux Running');
    return eventually(() => {
      const r = k!.run(['exec', 'client-linux', '--', 'wget', '-qO-', `http://${ip}:8080/hostname`]);
      return r.code === 0 && r.stdout.trim() === 'agnhost-win' || undefined;
    }, 30_000, 'Linux → Windows connectivity');
  };
  try {
    const first = await startCluster({ dataDir: dir, fleet: FLEET });
    running.push(first);
    k = new Kubectl(NEWEST.path, first.kubeconfig);
    k.ok(['apply', '-f', '-'], PODS);
    await reach();
    const bootBefore = Number(json(['get', 'node', 'win']).status.nodeInfo.bootID);
    const restartsBefore = json(['get', 'pod', 'agnhost-win']).status.containerStatuses[0].restartCount as number;
    assert.ok(Number.isInteger(bootBefore), 'a Windows bootID is the decimal BootId');
    k.dispose();
    await first.stop();

    const second = await startCluster({ dataDir: dir, fleet: FLEET });
    running.push(second);
    k = new Kubectl(NEWEST.path, second.kubeconfig);
    await eventually(() => Number(json(['get', 'node', 'win']).status.nodeInfo.bootID) > bootBefore || undefined, 30_000, 'a greater bootID');
    await reach();
    const cs = json(['get', 'pod', 'agnhost-win']).status.containerStatuses[0];
    assert.equal(cs.restartCount, restartsBefore + 1);
    assert.ok(cs.state.running);
    const bootAfter = json(['get', 'node', 'win']).status.nodeInfo.bootID;
    const events = k.ok(['get', 'events', '--field-selector', 'involvedObject.kind=Node,involvedObject.name=win,reason=Rebooted', '-o', 'jsonpath={.items[*].message}']);
    assert.match(events, new RegExp(`Node win has been rebooted, boot id: ${bootAfter}`));
  } finally {
    k?.dispose();
    for (const c of running) await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
