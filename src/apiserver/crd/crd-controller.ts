// The API server's own CRD controllers in one loop, as apiextensions-apiserver runs them beside its handler:
// naming (NamesAccepted, acceptedNames), establishing (Established), serving (the CRD's decls in the registry) and
// the finalizer that deletes every custom resource of a deleted CRD (pkg/controller/status/naming_controller.go,
// pkg/controller/establish/establishing_controller.go, pkg/controller/finalizer/crd_finalizer.go).

import { isConflict, isNotFound } from '../../api/errors.js';
import { setCondition } from '../../api/crd/crd-strategy.js';
import { CLEANUP_FINALIZER, findCondition, type Crd, type CrdCondition, type CrdNames } from '../../api/crd/types.js';
import type { ResourceDecl } from '../../api/interfaces.js';
import { Informer } from '../../client/informer.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { runWorkers, WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import { jsonEqual } from '../../util/json.js';
import type { Logger } from '../../util/log.js';
import { ClusterEgress } from '../egress/egress.js';
import type { ApiServer } from '../server.js';
import { customResourceDecls } from './custom-resources.js';

export const CRDS: ResourceType = {
  group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', namespaced: false, kind: 'CustomResourceDefinition',
};

export interface CrdControllerConfig {
  api: ApiServer;
  /** A privileged in-process client: status writes and custom-resource deletes go through the API like kube's. */
  client: Client;
  clock: Clock;
  logger: Logger;
  /** How conversion webhooks are reached (Services through the node agents); URL webhooks only when absent. */
  egress?: ClusterEgress;
}

interface Served {
  key: string;
  decls: ResourceDecl[];
  state: { terminating: boolean };
}

export class CrdController {
  private readonly informer: Informer<Crd>;
  private readonly queue: WorkQueue;
  private readonly served = new Map<string, Served>();
  private readonly egress: ClusterEgress;

  constructor(private readonly cfg: CrdControllerConfig) {
    this.egress = cfg.egress ?? new ClusterEgress(() => undefined);
    this.informer = new Informer<Crd>({ client: cfg.client, resource: CRDS, clock: cfg.clock, logger: cfg.logger });
    this.queue = new WorkQueue({ clock: cfg.clock, baseDelayMs: 5, maxDelayMs: 30_000 });
    const enqueue = (crd: Crd) => this.queue.add(crd.metadata.name!);
    this.informer.addHandler({
      add: enqueue,
      update: (_old, crd) => enqueue(crd),
      // A deleted CRD frees its names: the others of its group may now be accepted (requeueAllOtherGroupCRDs).
      delete: (crd) => {
        enqueue(crd);
        for (const other of this.informer.list()) if (other.spec.group === crd.spec.group) enqueue(other);
      },
    });
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.waitForSync();
    // After a restart the stored CRDs are served before start() returns, so clients never see them missing.
    for (const crd of this.informer.list()) {
      await this.reconcile(crd.metadata.name!).catch((err: unknown) => this.cfg.logger.warn('custom resource definition not served yet', {
        crd: crd.metadata.name, err: err instanceof Error ? err.message : String(err),
      }));
    }
    void runWorkers(this.queue, 2, (name) => this.reconcile(name), this.cfg.logger);
  }

  stop(): void {
    this.queue.shutDown();
    this.informer.stop();
  }

  async reconcile(name: string): Promise<void> {
    const crd = this.informer.get(name);
    if (!crd) {
      this.unserve(name);
      return;
    }
    const terminating = Boolean(crd.metadata.deletionTimestamp) || findCondition(crd, 'Terminating')?.status === 'True';
    const { names, accepted } = this.namesOf(crd);
    const next = structuredClone(crd) as Crd;
    next.status ??= {};
    next.status.acceptedNames = names;
    const now = this.cfg.clock.now();
    setCondition(next, accepted, now);
    const wasEstablished = findCondition(crd, 'Established')?.status === 'True';
    // customresource_handler.go: served while names are accepted or the CRD is established.
    if (accepted.status === 'True' || wasEstablished) await this.serve(next, terminating);
    else this.unserve(name);
    if (!terminating) {
      if (accepted.status === 'True') {
        setCondition(next, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now);
      } else if (!wasEstablished) {
        setCondition(next, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
      }
    }
    if (!jsonEqual(next.status, crd.status)) await this.writeStatus(next);
    if (crd.metadata.deletionTimestamp && crd.metadata.finalizers?.includes(CLEANUP_FINALIZER)) await this.finalize(crd);
  }

  /** naming_controller.go calculateNamesAndConditions: a name another CRD of the group accepted is a conflict. */
  private namesOf(crd: Crd): { names: CrdNames; accepted: CrdCondition } {
    const resources = new Set<string>();
    const kinds = new Set<string>();
    for (const other of this.informer.list()) {
      if (other.spec.group !== crd.spec.group || other.metadata.name === crd.metadata.name) continue;
      const a = other.status?.acceptedNames;
      if (!a) continue;
      for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) if (n) resources.add(n);
      for (const k of [a.kind, a.listKind]) if (k) kinds.add(k);
    }
    const want = crd.spec.names;
    const had: Partial<CrdNames> = crd.status?.acceptedNames ?? {};
    const names: CrdNames = { plural: had.plural ?? '', kind: had.kind ?? '', ...had } as CrdNames;
    let cond: CrdCondition | undefined;
    const fresh = (requested: string | undefined, acceptedName: string | undefined, used: Set<string>) =>
      !requested || requested === acceptedName || !used.has(requested);
    const conflict = (reason: string, n: string) => ({ type: 'NamesAccepted', status: 'False' as const, reason, message: `"${n}" is already in use` });
    if (fresh(want.plural, had.plural, resources)) names.plural = want.plural; else cond = conflict('PluralConflict', want.plural);
    if (fresh(want.singular, had.singular, resources)) names.singular = want.singular; else cond = conflict('SingularConflict', want.singular!);
    if (!jsonEqual(want.shortNames, had.shortNames)) {
      const bad = (want.shortNames ?? []).filter((s) => !(had.shortNames ?? []).includes(s) && resources.has(s));
      if (bad.length) cond = { ...conflict('ShortNamesConflict', bad[0]), message: bad.length === 1 ? `"${bad[0]}" is already in use` : `[${bad.map((b) => `"${b}" is already in use`).join(', ')}]` };
      else names.shortNames = want.shortNames;
    }
    if (fresh(want.kind, had.kind, kinds)) names.kind = want.kind; else cond = conflict('KindConflict', want.kind);
    if (fresh(want.listKind, had.listKind, kinds)) names.listKind = want.listKind; else cond = conflict('ListKindConflict', want.listKind!);
    names.categories = want.categories;
    for (const k of Object.keys(names) as (keyof CrdNames)[]) if (names[k] === undefined) delete names[k];
    return { names, accepted: cond ?? { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' } };
  }

  /** Puts the CRD's served versions in the registry, replacing what an older spec served. */
  private async serve(crd: Crd, terminating: boolean): Promise<void> {
    const name = crd.metadata.name!;
    const key = JSON.stringify([crd.metadata.uid, crd.spec, crd.status?.acceptedNames]);
    const cur = this.served.get(name);
    if (cur?.key === key) {
      cur.state.terminating = terminating;
      return;
    }
    const state = { terminating };
    const decls = customResourceDecls(crd, () => state.terminating, () => ({ egress: this.egress, lookup: this.cfg.api.lookup }));
    if (cur) this.cfg.api.removeResources(cur.decls);
    this.served.delete(name);
    try {
      await this.cfg.api.addResources(decls);
      this.served.set(name, { key, decls, state });
    } catch (err) {
      // A resource path another CRD or a built-in already serves: nothing of this CRD is served.
      this.cfg.logger.warn('cannot serve custom resource definition', { crd: name, err: err instanceof Error ? err.message : String(err) });
    }
  }

  private unserve(name: string): void {
    const cur = this.served.get(name);
    if (!cur) return;
    this.served.delete(name);
    this.cfg.api.removeResources(cur.decls);
  }

  private async writeStatus(next: Crd): Promise<void> {
    try {
      await this.cfg.client.update<Crd>(CRDS, undefined, next, { subresource: 'status' });
    } catch (err) {
      // A newer CRD arrives through the informer and is reconciled again.
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }

  /** crd_finalizer.go: delete every instance, then drop the finalizer so the CRD itself goes. */
  private async finalize(crd: Crd): Promise<void> {
    const name = crd.metadata.name!;
    const decl = this.served.get(name)?.decls[0];
    if (decl) {
      const rt: ResourceType = { group: decl.group, version: decl.version, resource: decl.plural, namespaced: decl.namespaced, kind: decl.kind };
      await this.markTerminating(name, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
      const items = (await this.cfg.client.list(rt, undefined)).items;
      for (const item of items) {
        try {
          await this.cfg.client.delete(rt, item.metadata.namespace, item.metadata.name!);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
      const left = (await this.cfg.client.list(rt, undefined)).items.length;
      if (left > 0) {
        await this.markTerminating(name, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionCheck', message: `could not confirm zero CustomResources remaining: ${left} remaining` });
        this.queue.addAfter(name, 1000);
        return;
      }
    }
    await this.markTerminating(name, { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
    const latest = await this.cfg.client.get<Crd>(CRDS, undefined, name);
    const finalizers = (latest.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
    await this.cfg.client.update<Crd>(CRDS, undefined, { ...latest, metadata: { ...latest.metadata, finalizers } });
  }

  private async markTerminating(name: string, cond: CrdCondition): Promise<void> {
    const latest = await this.cfg.client.get<Crd>(CRDS, undefined, name);
    const next = structuredClone(latest) as Crd;
    setCondition(next, cond, this.cfg.clock.now());
    if (!jsonEqual(next.status, latest.status)) await this.cfg.client.update<Crd>(CRDS, undefined, next, { subresource: 'status' });
  }
}
