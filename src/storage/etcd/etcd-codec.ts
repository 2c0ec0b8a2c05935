// The etcd v3 JSON gateway's wire format: base64 keys and values, int64 as strings, and the messages we use.

import type { KeyValue, StoreEvent } from '../interfaces.js';

/** mvccpb.KeyValue as the gateway prints it; fields at their zero value are omitted. */
export interface WireKv {
  key?: string;
  value?: string;
  create_revision?: string;
  mod_revision?: string;
  version?: string;
}

export interface WireHeader {
  revision?: string;
}

/** mvccpb.Event: `type` is omitted for PUT (the zero value). */
export interface WireEvent {
  type?: 'PUT' | 'DELETE';
  kv?: WireKv;
  prev_kv?: WireKv;
}

/** etcdserverpb.WatchResponse, one per line of the /v3/watch stream (wrapped in {"result": ...}). */
export interface WireWatchResponse {
  header?: WireHeader;
  watch_id?: string;
  created?: boolean;
  canceled?: boolean;
  compact_revision?: string;
  cancel_reason?: string;
  events?: WireEvent[];
}

export const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
export const unb64 = (s: string | undefined): string => (s ? Buffer.from(s, 'base64').toString('utf8') : '');
/** int64 fields arrive as decimal strings (absent when zero); revisions stay far below 2^53. */
export const int = (s: string | undefined): number => (s ? Number(s) : 0);

/**
 * The end of the key range holding every key that starts with `prefix`, base64-encoded: etcd compares raw
 * bytes, so this works on the UTF-8 bytes (clientv3 GetPrefixRangeEnd, client/v3/op.go). An empty prefix,
 * or one of only 0xff bytes, has no end: etcd's "\0" range_end then means "every key >= key".
 */
export function prefixEndB64(prefix: string): string {
  const bytes = Buffer.from(prefix, 'utf8');
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 0xff) {
      const end = Buffer.from(bytes.subarray(0, i + 1));
      end[i]! += 1;
      return end.toString('base64');
    }
  }
  return ALL_KEYS;
}

/** "\0" as a key or range_end: the lowest key / "no upper bound". */
export const ALL_KEYS = 'AA==';

/** A wire KeyValue as a Store KeyValue, with the store's key prefix taken off (frozen: shared with watchers). */
export function toKeyValue(kv: WireKv, keyPrefix: string): KeyValue {
  return Object.freeze({
    key: unb64(kv.key).slice(keyPrefix.length),
    value: unb64(kv.value),
    createRevision: int(kv.create_revision),
    modRevision: int(kv.mod_revision),
  });
}

/**
 * A wire event as a StoreEvent. etcd reports a deletion with a bare key and the deletion's mod_revision; the
 * Store reports the deleted value at that revision (as kube-apiserver's etcd3 watcher does,
 * staging/src/k8s.io/apiserver/pkg/storage/etcd3/event.go parseEvent), which needs prev_kv.
 */
export function toStoreEvent(ev: WireEvent, keyPrefix: string): StoreEvent {
  const kv = ev.kv ?? {};
  const prev = ev.prev_kv ? toKeyValue(ev.prev_kv, keyPrefix) : undefined;
  const revision = int(kv.mod_revision);
  const key = unb64(kv.key).slice(keyPrefix.length);
  let out: StoreEvent;
  if (ev.type === 'DELETE') {
    const deleted: KeyValue = Object.freeze({ key, value: prev?.value ?? '', createRevision: prev?.createRevision ?? 0, modRevision: revision });
    out = { type: 'delete', key, revision, kv: deleted };
  } else {
    out = { type: 'put', key, revision, kv: toKeyValue(kv, keyPrefix) };
  }
  if (prev) out.prev = prev;
  return Object.freeze(out);
}
