// Feeds the APF filter from the API server's own watch caches of FlowSchemas and PriorityLevelConfigurations, and
// keeps each FlowSchema's Dangling condition as kube's config controller writes it (apf_controller.go: a status
// patch by field manager api-priority-and-fairness-config-consumer-v1, only when the condition changes).

import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import type { KubeObject } from '../../api/types.js';
import type { WatchHandle } from '../../storage/interfaces.js';
import type { Logger } from '../../util/log.js';
import type { ResourceStore } from '../resource-store.js';
import type { DanglingState } from './config.js';
import type { FlowControl } from './filter.js';

export const APF_FIELD_MANAGER = 'api-priority-and-fairness-config-consumer-v1';

export interface FlowControlSourceConfig {
  flowControl: FlowControl;
  flowSchemas?: ResourceStore;
  priorityLevels?: ResourceStore;
  /** Writes a FlowSchema's status conditions (a merge patch of its status subresource). */
  writeConditions(name: string, conditions: FlowSchemaCondition[]): Promise<void>;
  now(): Date;
  logger: Logger;
}

export class FlowControlSource {
  private watches: WatchHandle[] = [];
  private scheduled = false;
  private stopped = false;

  constructor(private readonly cfg: FlowControlSourceConfig) {}

  start(): void {
    for (const rs of [this.cfg.flowSchemas, this.cfg.priorityLevels]) {
      if (!rs) continue;
      this.watches.push(rs.cache.watch(rs.prefix, rs.cache.revision(), () => this.schedule()));
    }
    this.sync();
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.watches) w.stop();
    this.watches = [];
  }

  /** Many changes in one turn (a bootstrap, an apply of many objects) make one re-digest. */
  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.sync();
    });
  }

  private sync(): void {
    const schemas = list<FlowSchema>(this.cfg.flowSchemas);
    const levels = list<PriorityLevelConfiguration>(this.cfg.priorityLevels);
    const states = this.cfg.flowControl.reconfigure(schemas, levels);
    const byName = new Map(schemas.map((fs) => [fs.metadata!.name!, fs]));
    for (const st of states) {
      const fs = byName.get(st.name);
      if (fs && !upToDate(fs, st)) void this.write(fs, st);
    }
  }

  private async write(fs: FlowSchema, st: DanglingState): Promise<void> {
    const others = (fs.status?.conditions ?? []).filter((c) => c.type !== 'Dangling');
    const cond: FlowSchemaCondition = { type: 'Dangling', status: st.status, lastTransitionTime: rfc3339(this.cfg.now()), reason: st.reason, message: st.message };
    try {
      await this.cfg.writeConditions(st.name, [...others, cond]);
    } catch (err) {
      // Deleted meanwhile, or another API server wrote first: the next change brings this back round.
      this.cfg.logger.debug('flowschema status not written', { name: st.name, err: String(err) });
    }
  }
}

function list<T>(rs: ResourceStore | undefined): T[] {
  if (!rs) return [];
  return rs.cache.list(rs.prefix).map((kv) => rs.decode(kv) as KubeObject as unknown as T);
}

function upToDate(fs: FlowSchema, st: DanglingState): boolean {
  const c = fs.status?.conditions?.find((x) => x.type === 'Dangling');
  return !!c && c.status === st.status && c.reason === st.reason && c.message === st.message;
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
