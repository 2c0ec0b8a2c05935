// The Local APIServices kube-apiserver keeps for its own group/versions and for every served CRD version: the
// autoregister controller's create/update/delete table (staging/src/k8s.io/kube-aggregator/pkg/controllers/
// autoregister/autoregister_controller.go checkAPIService), fed once at start with the built-in group/versions
// (pkg/controlplane/apiserver/aggregator.go apiServicesToRegister) and continuously with the CRDs' served versions
// (pkg/controlplane/controller/crdregistration).

import { isAlreadyExists, isConflict, isNotFound } from '../../api/errors.js';
import type { Crd } from '../../api/crd/types.js';
import type { ApiService } from '../../api/validation/apiregistration.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { runWorkers, WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import { jsonEqual } from '../../util/json.js';
import type { Logger } from '../../util/log.js';
import { apiServiceName, BUILTIN_PRIORITIES, CRD_PRIORITY } from './priorities.js';
import { APISERVICES, AUTOMANAGED_LABEL, MANAGE_CONTINUOUSLY, MANAGE_ON_START } from './resources.js';

export interface AutoRegisterConfig {
  client: Client;
  apiServices: Informer<ApiService>;
  crds: Informer<Crd>;
  /** The group/versions this server serves itself (core as `''`), read once at start. */
  builtin: () => { group: string; version: string }[];
  clock: Clock;
  logger: Logger;
}

/** makeAPIService: a Local APIService with the table's priorities, or none for a group/version not in the table. */
export function builtinApiService(group: string, version: string): ApiService | undefined {
  const p = BUILTIN_PRIORITIES[`${group}/${version}`];
  if (!p) return undefined;
  return desired(group, version, p.group, p.version, MANAGE_ON_START);
}

function desired(group: string, version: string, gpm: number, vp: number, manage: string): ApiService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
    metadata: { name: apiServiceName(group, version), labels: { [AUTOMANAGED_LABEL]: manage } },
    spec: { group, version, groupPriorityMinimum: gpm, versionPriority: vp },
  };
}

/** The spec fields autoregister compares (the stored spec carries defaults such as an absent service). */
function specOf(s: ApiService): object {
  const { group = '', version = '', groupPriorityMinimum = 0, versionPriority = 0, service, caBundle, insecureSkipTLSVerify } = s.spec ?? {};
  return { group, version, groupPriorityMinimum, versionPriority, service: service ?? null, caBundle: caBundle ?? '', insecureSkipTLSVerify: insecureSkipTLSVerify ?? false };
}

export class AutoRegisterController {
  private readonly queue: WorkQueue;
  private readonly toSync = new Map<string, ApiService>();
  private readonly synced = new Set<string>();
  private readonly atStart = new Set<string>();

  constructor(private readonly cfg: AutoRegisterConfig) {
    this.queue = new WorkQueue({ clock: cfg.clock, baseDelayMs: 5, maxDelayMs: 30_000 });
    cfg.apiServices.addHandler({
      add: (s) => this.queue.add(s.metadata.name!),
      update: (_o, s) => this.queue.add(s.metadata.name!),
      delete: (s) => this.queue.add(s.metadata.name!),
    });
    cfg.crds.addHandler({ add: () => this.syncCrds(), update: () => this.syncCrds(), delete: () => this.syncCrds() });
  }

  /** The first pass runs to completion before returning, so `kubectl get apiservices` lists them from the start. */
  async start(): Promise<void> {
    for (const s of this.cfg.apiServices.list()) if (s.metadata.labels?.[AUTOMANAGED_LABEL] === MANAGE_ON_START) this.atStart.add(s.metadata.name!);
    for (const gv of this.cfg.builtin()) {
      const s = builtinApiService(gv.group, gv.version);
      if (s) this.toSync.set(s.metadata.name!, s);
    }
    this.syncCrds();
    for (const name of [...this.toSync.keys()]) {
      await this.check(name).catch((err: unknown) => {
        this.cfg.logger.warn('APIService not registered yet', { name, err: String(err) });
        this.queue.add(name);
      });
    }
    void runWorkers(this.queue, 2, (name) => this.check(name), this.cfg.logger);
  }

  stop(): void {
    this.queue.shutDown();
  }

  /** crdregistration: one continuously synced APIService per served version of every CRD. */
  private syncCrds(): void {
    const want = new Map<string, ApiService>();
    for (const crd of this.cfg.crds.list()) {
      for (const v of crd.spec.versions ?? []) {
        if (v.served) want.set(apiServiceName(crd.spec.group, v.name), desired(crd.spec.group, v.name, CRD_PRIORITY.group, CRD_PRIORITY.version, MANAGE_CONTINUOUSLY));
      }
    }
    for (const [name, s] of this.toSync) {
      if (s.metadata.labels?.[AUTOMANAGED_LABEL] === MANAGE_CONTINUOUSLY && !want.has(name)) {
        this.toSync.delete(name);
        this.queue.add(name);
      }
    }
    for (const [name, s] of want) {
      // A built-in group/version keeps its own APIService (a CRD cannot take over apps/v1).
      if (this.toSync.get(name)?.metadata.labels?.[AUTOMANAGED_LABEL] === MANAGE_ON_START) continue;
      if (!jsonEqual(this.toSync.get(name), s)) {
        this.toSync.set(name, s);
        this.queue.add(name);
      }
    }
  }

  /** checkAPIService: what to do with `name`, given what is wanted and what is stored. */
  async check(name: string): Promise<void> {
    const want = this.toSync.get(name);
    const cur = this.cfg.apiServices.get(name);
    const hadSynced = this.synced.has(name);
    const manage = (s: ApiService | undefined) => s?.metadata.labels?.[AUTOMANAGED_LABEL];
    const done = (): void => { this.synced.add(name); };
    const client = this.cfg.client;
    if (!cur && !want) return done();
    if (manage(want) === MANAGE_ON_START && hadSynced) return;
    if (!cur && want) {
      await client.create(APISERVICES, undefined, structuredClone(want)).catch((err: unknown) => { if (!isAlreadyExists(err)) throw err; });
      return done();
    }
    if (!cur) return done();
    if (manage(cur) !== MANAGE_ON_START && manage(cur) !== MANAGE_CONTINUOUSLY) return done();
    if (manage(cur) === MANAGE_ON_START && !this.atStart.has(name)) return done();
    if (manage(cur) === MANAGE_ON_START && hadSynced) return;
    if (!want) {
      await client.delete(APISERVICES, undefined, name, { preconditions: { uid: cur.metadata.uid } }).catch((err: unknown) => { if (!isNotFound(err) && !isConflict(err)) throw err; });
      return done();
    }
    if (jsonEqual(specOf(cur), specOf(want))) return done();
    const next = structuredClone(cur);
    next.spec = structuredClone(want.spec);
    await client.update(APISERVICES, undefined, next).catch((err: unknown) => { if (!isNotFound(err) && !isConflict(err)) throw err; });
    done();
  }
}
