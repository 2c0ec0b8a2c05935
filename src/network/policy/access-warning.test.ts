import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { FakeClock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { warnWhenPoliciesUnreadable } from './access-warning.js';

// The text kube-apiserver's RBAC authorizer gives a node identity without the permission
// (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go ForbiddenStatusError).
const FORBIDDEN = 'networkpolicies.networking.k8s.io is forbidden: User "system:node:win-1" cannot list resource "networkpolicies" in API group "networking.k8s.io" at the cluster scope';

function recordingLogger(lines: string[]): Logger {
  const log = (lvl: string) => (msg: string, fields?: Record<string, unknown>) => lines.push(`${lvl} ${msg} ${JSON.stringify(fields ?? {})}`);
  const l: Logger = { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug'), child: () => l };
  return l;
}

/** A client whose LIST of networkpolicies is refused until `allow()`; then it lists one policy and watches quietly. */
function rbacClient() {
  let allowed = false;
  let lists = 0;
  const client = {
    async list() {
      lists++;
      if (!allowed) throw new StatusError(403, 'Forbidden', FORBIDDEN);
      return { items: [{ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny', namespace: 'default', resourceVersion: '5' } }], metadata: { resourceVersion: '5' } };
    },
    async watch() {
      return { stop() {}, done: new Promise<void>(() => undefined) };
    },
  };
  return { client: client as unknown as Client, allow: () => { allowed = true; }, lists: () => lists };
}

const settle = async () => { for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r)); };

describe('NetworkPolicy informer on credentials that cannot read them', () => {
  it('warns once with the RBAC text, keeps retrying with back-off, and enforces once allowed', async () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const { client, allow, lists } = rbacClient();
    const inf = new Informer<KubeObject>({ client, resource: R.networkpolicies, clock, logger: recordingLogger([]) });
    const w = warnWhenPoliciesUnreadable(inf, recordingLogger(lines));
    inf.start();
    await settle();
    for (let i = 0; i < 4; i++) { await clock.advance(30_000); await settle(); }
    assert.ok(lists() >= 3, `retried (${lists()} lists)`);
    assert.ok(w.reported());
    const warns = lines.filter((l) => l.startsWith('warn '));
    assert.equal(warns.length, 1, 'said once, not on every retry');
    assert.ok(warns[0].includes(`failed to list *v1.NetworkPolicy: ${FORBIDDEN}`.replace(/"/g, '\\"')), warns[0]);
    assert.equal(inf.hasSynced(), false);
    allow();
    await clock.advance(30_000);
    await settle();
    assert.equal(inf.hasSynced(), true);
    assert.equal(inf.list().length, 1, 'the policy is now known to the data plane');
    assert.ok(lines.some((l) => l.startsWith('info NetworkPolicies readable again')));
    inf.stop();
  });

  it('other failures are not reported as an RBAC problem', async () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const client = { async list() { throw new StatusError(500, 'InternalError', 'etcdserver: request timed out'); } } as unknown as Client;
    const inf = new Informer<KubeObject>({ client, resource: R.networkpolicies, clock, logger: recordingLogger([]) });
    const w = warnWhenPoliciesUnreadable(inf, recordingLogger(lines));
    inf.start();
    await settle();
    assert.equal(w.reported(), false);
    assert.deepEqual(lines, []);
    inf.stop();
  });
});
