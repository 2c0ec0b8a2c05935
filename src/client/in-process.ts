// The in-process transport: hands requests straight to an API server object in the same process, with the same
// semantics as HTTP (objects are copied both ways, so nobody shares memory with the server; watch events carry the
// server's deep-frozen objects, which nobody can change, without a copy).

import type { WatchEvent } from '../api/types.js';
import { cloneJson } from '../util/json.js';
import { checkResponse } from './client.js';
import type { ApiRequest, ApiResponse, Transport, WatchStream } from './interfaces.js';

/** What the transport needs from the server: the API server core's `handle`. */
export interface InProcessServer {
  handle(req: ApiRequest & { user?: { name: string; groups: string[] }; userAgent?: string }): Promise<ApiResponse | InProcessWatch>;
}

interface InProcessWatch {
  status: 200;
  watch(sink: { send(ev: WatchEvent): void; close(): void }): Promise<() => void>;
}

function isWatch(r: ApiResponse | InProcessWatch): r is InProcessWatch {
  return typeof (r as InProcessWatch).watch === 'function';
}

export class InProcessTransport implements Transport {
  constructor(
    private readonly server: InProcessServer,
    private readonly user: { name: string; groups: string[] } = { name: 'system:admin', groups: ['system:masters'] },
    /** What an HTTP client would send as User-Agent; it names the field manager of writes that name none. */
    private readonly userAgent?: string,
  ) {}

  async request(req: ApiRequest): Promise<ApiResponse> {
    const res = await this.server.handle({ ...req, body: req.handOver ? req.body : copy(req.body), user: this.user, userAgent: this.userAgent });
    if (isWatch(res)) throw new Error(`in-process transport: ${req.path} answered with a watch stream to a plain request`);
    return req.handOver || Buffer.isBuffer(res.body) ? res : { ...res, body: copy(res.body) };
  }

  async watch(req: ApiRequest, onEvent: (ev: WatchEvent) => void): Promise<WatchStream> {
    const res = await this.server.handle({ ...req, user: this.user, userAgent: this.userAgent });
    if (!isWatch(res)) {
      checkResponse(res);
      throw new Error(`in-process transport: ${req.path} did not answer with a watch stream`);
    }
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      finish();
    };
    const stopServer = await res.watch({
      send: (ev) => {
        // The server's stored objects are deep-frozen and shared: every watcher can read the same one, and nobody
        // can change it, so the copy that keeps components apart is only needed for objects made for this event.
        if (!ended) onEvent(Object.isFrozen(ev.object) ? ev : copy(ev));
      },
      close: end,
    });
    return {
      done,
      stop: () => {
        stopServer();
        end();
      },
    };
  }
}

function copy<T>(v: T): T {
  return cloneJson(v);
}
