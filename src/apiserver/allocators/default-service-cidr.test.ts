// The default ServiceCIDR controller over a real control plane (pkg/controlplane/controller/defaultservicecidr/
// default_servicecidr_controller.go, 1.33): created with a Ready condition applied by its own field manager,
// recreated on the 10 s sync after a deletion, widened single- to dual-stack, mismatches and foreign Ready
// conditions reported once and never overwritten.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRATEGIES } from '../../api/strategies/index.js';
import type { KubeObject } from '../../api/types.js';
import type { EventRecorder, EventType } from '../../client/event-recorder.js';
import type { Client } from '../../client/interfaces.js';
import { ControlPlane } from '../../cluster/control-plane.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import {
  DEFAULT_READY_MESSAGE, DEFAULT_SERVICE_CIDR_CONTROLLER, DEFAULT_SERVICE_CIDR_SYNC_MS, DefaultServiceCIDRController,
} from './default-service-cidr.js';

const SC = { group: 'networking.k8s.io', version: 'v1', resource: 'servicecidrs', kind: 'ServiceCIDR', namespaced: false };

class Recorder implements EventRecorder {
  readonly events: string[] = [];
  event(_obj: KubeObject, type: EventType, reason: string, message: string): void {
    this.events.push(`${type} ${reason} ${message}`);
  }
  async flush(): Promise<void> {}
}

type Cond = { type: string; status: string; reason?: string; message?: string };
const conditions = (o: KubeObject) => (o.status as { conditions?: Cond[] } | undefined)?.conditions ?? [];

async function until<T>(fn: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never: ${what}`);
}

describe('default ServiceCIDR controller', () => {
  const clock = new FakeClock(Date.parse('2025-05-01T00:00:00Z'));
  let cp: ControlPlane;
  let client: Client;
  const controller = (cidrs: string[], recorder = new Recorder()) =>
    ({ recorder, c: new DefaultServiceCIDRController({ client, clock, logger: silentLogger, recorder, cidrs }) });

  before(async () => {
    cp = new ControlPlane({ clock, logger: silentLogger, strategies: STRATEGIES, serviceCidr: '10.96.0.0/12' });
    await cp.start();
    client = cp.client();
  });
  after(() => cp.stop());

  it('creates `kubernetes` from the flags with Ready applied by kubernetes-service-cidr-controller', async () => {
    const sc = await client.get(SC, undefined, 'kubernetes');
    assert.deepEqual(sc.spec, { cidrs: ['10.96.0.0/12'] });
    // The apply sends no reason; the stored condition has reason "" as kube's typed round trip leaves it.
    assert.deepEqual(conditions(sc).map((c) => [c.type, c.status, c.reason, c.message]), [['Ready', 'True', '', DEFAULT_READY_MESSAGE]]);
    const status = (sc.metadata.managedFields as { manager: string; fieldsV1?: unknown }[]).find((e) => e.manager === DEFAULT_SERVICE_CIDR_CONTROLLER);
    // Only status fields (their per-condition detail needs the networking/v1 ServiceCIDR schema's list-map keys).
    assert.deepEqual(Object.keys(status?.fieldsV1 as object), ['f:status']);
    type Entry = { manager: string; operation: string; subresource?: string };
    const entries = ((sc.metadata.managedFields ?? []) as Entry[]).map((e) => [e.manager, e.operation, e.subresource ?? '']);
    assert.deepEqual(entries, [['kube-apiserver', 'Update', ''], [DEFAULT_SERVICE_CIDR_CONTROLLER, 'Apply', 'status']]);
  });

  it('recreates it on the next sync once a deletion has completed', async () => {
    const before = await client.get(SC, undefined, 'kubernetes');
    await client.delete(SC, undefined, 'kubernetes');
    await assert.rejects(client.get(SC, undefined, 'kubernetes'), /not found/);
    await clock.advance(DEFAULT_SERVICE_CIDR_SYNC_MS);
    const again = await until(() => client.get(SC, undefined, 'kubernetes').then((o) => conditions(o).length ? o : undefined, () => undefined), 'recreated');
    assert.notEqual(again.metadata.uid, before.metadata.uid);
    assert.deepEqual(again.spec, { cidrs: ['10.96.0.0/12'] });
    assert.equal(conditions(again)[0]?.message, DEFAULT_READY_MESSAGE);
  });

  it('reports other flags once and leaves the object alone', async () => {
    const { c, recorder } = controller(['10.0.0.0/16']);
    const rv = (await client.get(SC, undefined, 'kubernetes')).metadata.resourceVersion;
    await c.sync();
    await c.sync();
    assert.deepEqual(recorder.events, ['Warning KubernetesDefaultServiceCIDRInconsistent The default ServiceCIDR [10.96.0.0/12] does not match the flag configurations [10.0.0.0/16]']);
    assert.equal((await client.get(SC, undefined, 'kubernetes')).metadata.resourceVersion, rv);
  });

  it('widens a single-stack object when the flags add the other family, and no other change', async () => {
    const { c, recorder } = controller(['10.96.0.0/12', 'fd00:10:96::/108']);
    await c.sync();
    assert.deepEqual((await client.get(SC, undefined, 'kubernetes')).spec, { cidrs: ['10.96.0.0/12', 'fd00:10:96::/108'] });
    assert.deepEqual(recorder.events, []);
    // Flags that swap the primary family are a mismatch, not an update.
    const swapped = controller(['fd00:10:96::/108', '10.96.0.0/12']);
    await swapped.c.sync();
    assert.deepEqual(swapped.recorder.events, ['Warning KubernetesDefaultServiceCIDRInconsistent The default ServiceCIDR [10.96.0.0/12 fd00:10:96::/108] does not match the flag configurations [fd00:10:96::/108 10.96.0.0/12]']);
    assert.deepEqual((await client.get(SC, undefined, 'kubernetes')).spec, { cidrs: ['10.96.0.0/12', 'fd00:10:96::/108'] });
  });

  it('reports a Ready condition it did not set once and never overwrites it', async () => {
    const cur = await client.get(SC, undefined, 'kubernetes');
    cur.status = { conditions: [{ type: 'Ready', status: 'False', reason: 'Broken', message: 'someone said so', lastTransitionTime: '2025-05-01T00:00:00Z' }] };
    await client.update(SC, undefined, cur, { subresource: 'status' });
    const { c, recorder } = controller(['10.96.0.0/12', 'fd00:10:96::/108']);
    await c.sync();
    await c.sync();
    assert.deepEqual(recorder.events, ['Warning Broken someone said so']);
    assert.deepEqual(conditions(await client.get(SC, undefined, 'kubernetes')).map((x) => x.status), ['False']);
  });

  it('skips the status of an object being deleted', async () => {
    await client.patch(SC, undefined, 'kubernetes', 'merge', { metadata: { finalizers: ['example.com/hold'] } });
    await client.update(SC, undefined, { ...(await client.get(SC, undefined, 'kubernetes')), status: { conditions: [] } }, { subresource: 'status' });
    await client.delete(SC, undefined, 'kubernetes');
    const { c, recorder } = controller(['10.96.0.0/12', 'fd00:10:96::/108']);
    await c.sync();
    const held = await client.get(SC, undefined, 'kubernetes');
    assert.ok(held.metadata.deletionTimestamp);
    assert.deepEqual(conditions(held), []);
    assert.deepEqual(recorder.events, []);
    await client.patch(SC, undefined, 'kubernetes', 'merge', { metadata: { finalizers: null } });
  });
});
