// The legacy ServiceAccount token cleaner (pkg/controller/serviceaccount/legacy_serviceaccount_token_cleaner.go,
// kube-controller-manager's `legacy-serviceaccount-token-cleaner`, on by default since LegacyServiceAccountTokenCleanUp
// went GA in 1.30): once a day, an auto-generated token Secret (named in its ServiceAccount's `secrets`, mounted by no
// pod) that was neither created nor used within the clean-up period is labelled
// `kubernetes.io/legacy-token-invalid-since: <today>` — the authenticator then refuses it — and deleted when it has
// carried that label for another clean-up period. Nothing happens until the API server has tracked token use
// (kube-system/kube-apiserver-legacy-service-account-token-tracking) for a whole period.

import { isConflict, isNotFound } from '../../api/errors.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { Timer } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { INVALID_SINCE_LABEL, LAST_USED_LABEL } from '../../apiserver/authn/service-account-authenticator.js';
import { parseDate, TRACKING_CONFIGMAP, TRACKING_SINCE_KEY, utcDate } from '../../apiserver/authn/legacy-token-tracking.js';
import { podReferences } from '../../apiserver/authz/node/pod-references.js';
import type { Controller, ControllerOptions } from '../util/base.js';
import type { PodObj, ServiceAccountObj } from '../util/types.js';
import type { KubeObject } from '../../api/types.js';
import { SA_NAME_ANNOTATION, SA_UID_ANNOTATION, SERVICE_ACCOUNT_TOKEN_TYPE } from './tokens-controller.js';

export const NAME = 'legacy-serviceaccount-token-cleaner-controller';
const DAY_MS = 86_400_000;
/** --legacy-service-account-token-clean-up-period default: 365 days. */
export const DEFAULT_CLEAN_UP_PERIOD_MS = 365 * DAY_MS;
/** DefaultCleanerSyncInterval. */
export const SYNC_INTERVAL_MS = DAY_MS;

export interface LegacyTokenCleanerOptions extends ControllerOptions {
  cleanUpPeriodMs?: number;
  syncIntervalMs?: number;
}

type SecretObj = KubeObject & { type?: string };

export class LegacyTokenCleaner implements Controller {
  readonly name = NAME;
  private readonly client: Client;
  private readonly logger: Logger;
  private readonly period: number;
  private readonly interval: number;
  private readonly secrets: Informer<SecretObj>;
  private readonly accounts: Informer<ServiceAccountObj>;
  private readonly pods: Informer<PodObj>;
  private timer?: Timer;
  private stopped = false;

  constructor(private readonly opts: LegacyTokenCleanerOptions) {
    this.client = opts.client;
    this.logger = opts.logger.child(NAME);
    this.period = opts.cleanUpPeriodMs ?? DEFAULT_CLEAN_UP_PERIOD_MS;
    this.interval = opts.syncIntervalMs ?? SYNC_INTERVAL_MS;
    if (!(this.period > 0)) throw new Error(`invalid CleanUpPeriod: ${this.period}`);
    if (!(this.interval > 0)) throw new Error(`invalid SyncInterval: ${this.interval}`);
    this.secrets = opts.informers.for<SecretObj>(R.secrets);
    this.accounts = opts.informers.for<ServiceAccountObj>(R.serviceaccounts);
    this.pods = opts.informers.for<PodObj>(R.pods);
  }

  async start(): Promise<void> {
    await Promise.all([this.secrets, this.accounts, this.pods].map((i) => i.waitForSync()));
    this.logger.info('Starting controller', { controller: NAME });
    // wait.UntilWithContext: a pass now, then one every sync interval.
    const loop = () => {
      if (this.stopped) return;
      void this.evaluate().catch((err: unknown) => this.logger.error('evaluating legacy tokens failed', { err: String(err) })).finally(() => {
        if (!this.stopped) this.timer = this.opts.clock.setTimeout(loop, this.interval);
      });
    };
    loop();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  /** The start of the day after tracking began: the earliest a token could have been marked used. */
  private async trackedSince(): Promise<number> {
    const cm = await this.client.get<KubeObject & { data?: Record<string, string> }>(R.configmaps, 'kube-system', TRACKING_CONFIGMAP);
    const since = cm.data?.[TRACKING_SINCE_KEY];
    if (since === undefined) throw new Error('configMap does not have since label');
    const ms = parseDate(since);
    if (ms === undefined) throw new Error(`error parsing trackedSince time: ${since}`);
    return ms + DAY_MS;
  }

  /** evaluateSATokens: one pass over every token Secret. */
  async evaluate(): Promise<void> {
    const now = this.opts.clock.now();
    let tracked: number;
    try {
      tracked = await this.trackedSince();
    } catch (err) {
      this.logger.error('Getting lastest possible tracked_since time', { err: err instanceof Error ? err.message : String(err) });
      return;
    }
    // Not tracked for a whole period yet: an unlabelled Secret may have been used before tracking began.
    if (now < tracked + this.period) return;
    const preserveCreatedOnOrAfter = now - this.period;
    const preserveUsedOnOrAfter = utcDate(now - this.period);
    const mounted = new Map<string, Set<string>>();
    for (const secret of this.secrets.list()) {
      if (secret.type !== SERVICE_ACCOUNT_TOKEN_TYPE || secret.metadata.deletionTimestamp) continue;
      if (!(Date.parse(secret.metadata.creationTimestamp ?? '') < preserveCreatedOnOrAfter)) continue;
      const ns = secret.metadata.namespace ?? '';
      const name = secret.metadata.name ?? '';
      const lastUsed = secret.metadata.labels?.[LAST_USED_LABEL];
      if (lastUsed !== undefined) {
        if (parseDate(lastUsed) === undefined) {
          this.logger.error('Parsing lastUsed time', { secret: `${ns}/${name}`, lastUsed });
          continue;
        }
        if (lastUsed >= preserveUsedOnOrAfter) continue;
      }
      // Only auto-generated tokens: the Secret's account must still list it (and match the UID it names).
      const sa = this.accountOf(secret);
      if (!sa || !(sa.secrets ?? []).some((r) => r.name === name)) continue;
      if (this.mountedIn(ns, mounted).has(name)) continue;
      let invalidSince = secret.metadata.labels?.[INVALID_SINCE_LABEL];
      if (parseDate(invalidSince) === undefined) {
        invalidSince = utcDate(now);
        this.logger.info('Mark the auto-generated service account token as invalid', { invalidSince, secret: `${ns}/${name}` });
        try {
          await this.client.patch(R.secrets, ns, name, 'merge', { metadata: { uid: secret.metadata.uid, labels: { [INVALID_SINCE_LABEL]: invalidSince } } });
        } catch (err) {
          this.logger.error('Failed to label legacy service account token secret with invalid since date', { secret: `${ns}/${name}`, err: String(err) });
        }
        continue;
      }
      if (invalidSince! >= preserveUsedOnOrAfter) continue;
      this.logger.info('Delete auto-generated service account token', { secret: `${ns}/${name}`, creationTime: secret.metadata.creationTimestamp, lastUsed: lastUsed ?? '', invalidSince });
      try {
        await this.client.delete(R.secrets, ns, name, { preconditions: { resourceVersion: secret.metadata.resourceVersion } });
      } catch (err) {
        if (!isConflict(err) && !isNotFound(err)) this.logger.error('Deleting legacy service account token', { secret: `${ns}/${name}`, serviceaccount: sa.metadata?.name, err: String(err) });
      }
    }
  }

  private accountOf(secret: SecretObj): ServiceAccountObj | undefined {
    const name = secret.metadata.annotations?.[SA_NAME_ANNOTATION];
    if (!name) return undefined;
    const sa = this.accounts.get(`${secret.metadata.namespace}/${name}`);
    const uid = secret.metadata.annotations?.[SA_UID_ANNOTATION];
    return sa && (!uid || uid === sa.metadata?.uid) ? sa : undefined;
  }

  /** The Secrets the namespace's pods name (VisitPodSecretNames), computed once a pass per namespace. */
  private mountedIn(namespace: string, memo: Map<string, Set<string>>): Set<string> {
    let names = memo.get(namespace);
    if (!names) {
      names = new Set(this.pods.list(namespace).flatMap((p) => podReferences(p).secrets));
      memo.set(namespace, names);
    }
    return names;
  }
}
