// A Transport carried over a MessagePort: a component in a worker thread (PortTransport) asks the API server in the
// main thread (servePort), which answers with the component's own in-process client. Objects cross by structured
// clone, so each side owns what it holds, as over HTTP, without sockets in between; an object the server decoded
// from storage crosses as its stored JSON text instead, which the API server's thread copies several times faster
// than it clones the object (the worker parses it, on its own core).

import type { KubeObject, WatchEvent } from '../api/types.js';
import { StatusError } from '../api/errors.js';
import { storedTextOf } from '../util/stored-text.js';
import { checkResponse } from './client.js';
import type { ApiRequest, ApiResponse, Transport, WatchStream } from './interfaces.js';

/** What both ends need of a port: a worker's parentPort, the Worker object itself, or a MessageChannel end. */
export interface Port {
  postMessage(m: unknown): void;
  on(event: 'message', listener: (m: unknown) => void): unknown;
}

/** `as` names a further identity the host serves (servePort's `identity`); absent, the port's own. */
type ToServer =
  | { t: 'req'; id: number; req: ApiRequest; as?: string }
  | { t: 'watch'; id: number; req: ApiRequest; as?: string }
  | { t: 'stop'; id: number };

/** An object as its stored text and resourceVersion (see storedTextOf). */
interface Stored { $stored: string; rv?: string }
/** A response body or event object as it crosses: itself, its stored text, or a list whose items are either. */
type Packed = unknown;

type ToClient =
  | { t: 'res'; id: number; res?: ApiResponse; error?: string }
  | { t: 'events'; batch: [id: number, type: WatchEvent['type'], object: Packed][] }
  | { t: 'end'; id: number };

/** Several messages of one turn of the loop, in order. */
interface Many<M> { t: 'many'; msgs: M[] }

const OUR_TYPES = new Set(['req', 'watch', 'stop', 'res', 'events', 'end', 'many']);

/** The message a port carries that is not this transport's (the host's own control messages pass by). */
function isOurs(m: unknown): m is ToClient | ToServer | Many<ToClient | ToServer> {
  return typeof m === 'object' && m !== null && OUR_TYPES.has((m as { t?: unknown }).t as string);
}

/**
 * What one side sends during a turn of its event loop, posted once at the turn's end: every postMessage wakes the
 * other thread and makes it dispatch a message event, and at thousands of requests a second (kubelets' writes, the
 * answers and watch events back) one message per request was a tenth of the API server's thread.
 */
class Outbox<M> {
  private queue: M[] = [];
  private scheduled = false;

  constructor(private readonly port: Port) {}

  push(m: M): void {
    this.queue.push(m);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** The last message queued this turn, to extend (watch events gather in one batch until an answer comes between). */
  last(): M | undefined {
    return this.queue[this.queue.length - 1];
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const q = this.queue;
    this.queue = [];
    if (q.length === 1) this.port.postMessage(q[0]);
    else if (q.length > 1) this.port.postMessage({ t: 'many', msgs: q } satisfies Many<M>);
  };
}

/** Each message of a (possibly gathered) message, in order. */
function eachOf<M>(m: M | Many<M>, fn: (m: M) => void): void {
  if ((m as Many<M>).t === 'many') for (const x of (m as Many<M>).msgs) fn(x);
  else fn(m as M);
}

/** The worker's side: requests and watches go out as messages; answers and events come back in order. */
export class PortTransport implements Transport {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: ApiResponse) => void; reject: (e: Error) => void }>();
  private readonly watches = new Map<number, { onEvent: (ev: WatchEvent) => void; end: () => void }>();
  private readonly out: Outbox<ToServer>;

  constructor(port: Port) {
    this.out = new Outbox<ToServer>(port);
    port.on('message', (m: unknown) => {
      if (isOurs(m)) eachOf(m as ToClient | Many<ToClient>, (x) => this.received(x));
    });
  }

  request(req: ApiRequest): Promise<ApiResponse> {
    return this.requestAs(req, undefined);
  }

  watch(req: ApiRequest, onEvent: (ev: WatchEvent) => void): Promise<WatchStream> {
    return this.watchAs(req, onEvent, undefined);
  }

  /**
   * The same port acting as a further identity the host knows by `name` (a kubelet's node, a controller's
   * ServiceAccount): thousands of identities share one port and one message stream instead of a port each.
   */
  as(name: string): Transport {
    return {
      request: (req) => this.requestAs(req, name),
      watch: (req, onEvent) => this.watchAs(req, onEvent, name),
    };
  }

  private requestAs(req: ApiRequest, as: string | undefined): Promise<ApiResponse> {
    const id = this.nextId++;
    return new Promise<ApiResponse>((resolve, reject) => {
      this.pending.set(id, { resolve: (res) => resolve(withBuffer({ ...res, body: unpack(res.body) })), reject });
      this.out.push({ t: 'req', id, req: { ...req, handOver: undefined }, as });
    });
  }

  private async watchAs(req: ApiRequest, onEvent: (ev: WatchEvent) => void, as: string | undefined): Promise<WatchStream> {
    const id = this.nextId++;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.watches.delete(id);
      finish();
    };
    // The first answer says whether the watch started (status 200) or why not.
    const started = new Promise<ApiResponse>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.watches.set(id, { onEvent: (ev) => { if (!ended) onEvent(ev); }, end });
    this.out.push({ t: 'watch', id, req, as });
    const res = await started.catch((err: unknown) => {
      this.watches.delete(id);
      throw err;
    });
    if (res.status !== 200) {
      this.watches.delete(id);
      checkResponse(res);
      throw new Error(`port transport: ${req.path} did not answer with a watch stream`);
    }
    return {
      done,
      stop: () => {
        if (!ended) this.out.push({ t: 'stop', id });
        end();
      },
    };
  }

  close(): void {
    for (const w of [...this.watches.values()]) w.end();
  }

  private received(m: ToClient): void {
    if (m.t === 'res') {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.res!);
    } else if (m.t === 'events') {
      for (const [id, type, object] of m.batch) this.watches.get(id)?.onEvent({ type, object: unpack(object) as KubeObject });
    } else {
      this.watches.get(m.id)?.end();
    }
  }
}

/**
 * The main thread's side: answers a worker's requests with `transport` (the component's in-process client, so its
 * identity is checked as for any client), or, for requests made through PortTransport.as(name), with
 * `identity(name)` (made once per name). Watch events are gathered and sent once per turn of the loop, so a burst
 * of writes costs the worker a few messages, not one per event. Returns a function that ends every watch.
 */
export function servePort(port: Port, transport: Transport, identity?: (name: string) => Transport): () => void {
  const watches = new Map<number, WatchStream>();
  const identities = new Map<string, Transport>();
  const transportFor = (as: string | undefined): Transport => {
    if (as === undefined) return transport;
    if (!identity) throw new Error(`port transport: no identity "${as}" is served on this port`);
    let t = identities.get(as);
    if (!t) identities.set(as, (t = identity(as)));
    return t;
  };
  // Answers, ends and watch events leave in the order they happen, gathered per turn of the loop.
  const out = new Outbox<ToClient>(port);
  const send = (m: ToClient) => out.push(m);
  const event = (e: [number, WatchEvent['type'], Packed]) => {
    const last = out.last();
    if (last?.t === 'events') last.batch.push(e);
    else out.push({ t: 'events', batch: [e] });
  };
  const received = (msg: ToServer): void => {
    if (msg.t === 'req') {
      // The body was cloned on its way here and the answer is cloned on its way back: no copies needed in between.
      let t: Transport;
      try {
        t = transportFor(msg.as);
      } catch (err) {
        return send({ t: 'res', id: msg.id, error: (err as Error).message });
      }
      t.request({ ...msg.req, handOver: true }).then(
        (res) => send({ t: 'res', id: msg.id, res: Buffer.isBuffer(res.body) ? res : { ...res, body: pack(res.body) } }),
        (err: unknown) => send({ t: 'res', id: msg.id, error: err instanceof Error ? err.message : String(err) }),
      );
    } else if (msg.t === 'watch') {
      let t: Transport;
      try {
        t = transportFor(msg.as);
      } catch (err) {
        return send({ t: 'res', id: msg.id, error: (err as Error).message });
      }
      t.watch(msg.req, (ev) => event([msg.id, ev.type, pack(ev.object)])).then(
        (stream) => {
          watches.set(msg.id, stream);
          send({ t: 'res', id: msg.id, res: { status: 200, body: undefined } });
          void stream.done.then(() => {
            if (watches.delete(msg.id)) send({ t: 'end', id: msg.id });
          });
        },
        // A refused watch comes back as its Status, which the worker's checkResponse throws as the same StatusError.
        (err: unknown) => send(err instanceof StatusError
          ? { t: 'res', id: msg.id, res: { status: err.code, body: err.toStatus() } }
          : { t: 'res', id: msg.id, error: err instanceof Error ? err.message : String(err) }),
      );
    } else {
      const w = watches.get(msg.id);
      watches.delete(msg.id);
      w?.stop();
    }
  };
  port.on('message', (m: unknown) => {
    if (isOurs(m)) eachOf(m as ToServer | Many<ToServer>, received);
  });
  return () => {
    for (const w of watches.values()) w.stop();
    watches.clear();
  };
}

/** An object (or a list's items) the server decoded from storage, as its stored text; anything else as it is. */
function pack(v: unknown): Packed {
  if (v === null || typeof v !== 'object') return v;
  const text = storedTextOf(v);
  if (text !== undefined) return { $stored: text, rv: (v as KubeObject).metadata?.resourceVersion } satisfies Stored;
  const items = (v as { items?: unknown }).items;
  if (Array.isArray(items) && items.length > 0 && storedTextOf(items[0] as object) !== undefined) return { ...v, items: items.map(pack) };
  return v;
}

function unpack(v: Packed): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (typeof (v as Stored).$stored === 'string') {
    const obj = JSON.parse((v as Stored).$stored) as KubeObject;
    const rv = (v as Stored).rv;
    if (rv !== undefined) obj.metadata.resourceVersion = rv;
    return obj;
  }
  const items = (v as { items?: unknown }).items;
  if (Array.isArray(items) && items.length > 0 && typeof (items[0] as Stored | null)?.$stored === 'string') return { ...v, items: items.map(unpack) };
  return v;
}

/** Buffers cross as plain Uint8Arrays; components expect Buffers where HTTP and in-process give them. */
function withBuffer(res: ApiResponse): ApiResponse {
  return res.body instanceof Uint8Array && !Buffer.isBuffer(res.body) ? { ...res, body: Buffer.from(res.body.buffer, res.body.byteOffset, res.body.byteLength) } : res;
}
