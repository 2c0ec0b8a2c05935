// A long-running answer from an aggregated API's backend, relayed as it arrives: the HTTP front end copies the bytes
// (kube-aggregator's proxy is an UpgradeAwareHandler whose reverse proxy flushes a body of unknown length at once),
// the in-process transport reads a watch's JSON events from the same stream, and either side going away closes the
// backend connection.

import type { Readable } from 'node:stream';
import type { WatchEvent } from '../../api/types.js';
import type { ApiResponse } from '../../client/interfaces.js';
import { LineSplitter } from '../../client/json-lines.js';
import { HOP_BY_HOP_HEADERS } from '../../util/hop-headers.js';
import type { StreamedResponse, WatchResponse } from '../interfaces.js';
import type { WatchSink } from '../watch.js';

/** The backend's headers as the proxy copies them: hop-by-hop ones (content-length among them) stay behind. */
export function relayedHeaders(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (!HOP_BY_HOP_HEADERS.has(k.toLowerCase())) out[k] = v;
  return out;
}

/**
 * Feeds a JSON watch stream's events to `sink` until the stream ends (then the sink is closed) or the returned stop
 * is called (then the stream is destroyed, closing the backend connection). A line that is not JSON ends the watch,
 * as client-go's decoder gives up on the stream.
 */
export function watchJsonStream(stream: Readable, sink: WatchSink): () => void {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    stream.destroy();
    sink.close();
  };
  const lines = new LineSplitter((line) => {
    if (closed) return;
    let ev: WatchEvent;
    try {
      ev = JSON.parse(line) as WatchEvent;
    } catch {
      close();
      return;
    }
    sink.send(ev);
  });
  stream.on('data', (c: Buffer) => lines.push(c));
  stream.on('end', () => {
    lines.end();
    close();
  });
  stream.on('close', close);
  stream.on('error', close);
  return close;
}

/** A 200 watch answer from the backend: bytes for HTTP, events for the in-process transport. */
export function streamedWatch(status: number, headers: Record<string, string>, stream: Readable): StreamedResponse {
  return {
    status, headers: relayedHeaders(headers), stream,
    watch: (sink) => Promise.resolve(watchJsonStream(stream, sink)),
  };
}

/**
 * What a caller without streams gets (ApiServer.handle, the in-process transport): a watch as events, anything
 * else read to its end.
 */
export async function settleStreamed(res: StreamedResponse): Promise<ApiResponse | WatchResponse> {
  if (res.watch && res.status === 200) return { status: 200, contentType: res.headers['content-type'] ?? 'application/json', watch: res.watch };
  const chunks: Buffer[] = [];
  for await (const c of res.stream) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const type = res.headers['content-type'];
  if (type?.startsWith('application/json')) {
    try {
      return { status: res.status, body: JSON.parse(body.toString()), contentType: type };
    } catch {
      // Not JSON after all: the bytes as they came.
    }
  }
  return { status: res.status, body, contentType: type };
}
