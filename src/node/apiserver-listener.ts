// kube-apiserver as the network model sees it: a host-network listener on the control-plane node's advertised port
// (the `kubernetes` Service's endpoint). A pod's request to it is forwarded to the real API server on loopback, with
// the pod's own credentials (its service-account token), so in-cluster clients talk to the cluster they run in.

import https from 'node:https';
import type { HttpRequest, HttpResponse, Listener } from './shell/interfaces.js';

export interface ApiServerTarget {
  /** https://127.0.0.1:<port> of the real server. */
  url: string;
  /** The cluster CA that signed its serving certificate. */
  ca: string;
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length']);

export function apiServerListener(port: number, target: ApiServerTarget): Listener {
  return {
    port, protocol: 'TCP', program: 'kube-apiserver',
    handler: (req: HttpRequest) => new Promise<HttpResponse>((resolve) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k.toLowerCase())) headers[k] = v;
      if (req.body.length) headers['content-length'] = String(req.body.length);
      const r = https.request(`${target.url}${req.path}`, { method: req.method, headers, ca: target.ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
        });
        res.on('error', () => resolve({ status: 502, headers: {}, body: Buffer.alloc(0) }));
      });
      r.on('error', (err) => resolve({ status: 503, headers: { 'content-type': 'text/plain' }, body: Buffer.from(`${err.message}\n`) }));
      r.end(req.body);
    }),
  };
}
