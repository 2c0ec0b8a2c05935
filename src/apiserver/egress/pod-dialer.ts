// Opening a connection to a pod address. Pod addresses are modelled, so the API server asks the node agent that hosts
// the pod: an HTTP CONNECT `<podIP>:<port>` to that node's kubelet server (as kube-apiserver's egress selector asks a
// konnectivity agent), which answers from its network model and then carries the bytes to the pod's listener.

import https from 'node:https';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type { KubeObject } from '../../api/types.js';
import { StatusError } from '../../api/errors.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import { kubeletEndpoint, type KubeletClientTls } from '../kubelet-proxy.js';
import { DEADLINE_EXCEEDED, EgressError, goTransportError } from './go-errors.js';
import type { PodEndpoint } from './service-resolver.js';

/** The header on a refused CONNECT that names the model's verdict (refused | timeout | unreachable). */
export const DIAL_FATE_HEADER = 'x-winkube-dial-fate';

/** The node hosting `ep`: as the endpoint says, else the pod's spec.nodeName, else the pod with that IP. */
function hostingNode(lookup: AdmissionLookup, ep: PodEndpoint): KubeObject | undefined {
  let node = ep.node;
  if (!node && ep.pod) node = (lookup.get('', 'pods', ep.pod.namespace, ep.pod.name)?.spec as { nodeName?: string } | undefined)?.nodeName;
  if (!node) {
    const pod = lookup.list('', 'pods').find((p) => (p.status as { podIP?: string } | undefined)?.podIP === ep.ip);
    node = (pod?.spec as { nodeName?: string } | undefined)?.nodeName;
  }
  return node ? lookup.get('', 'nodes', undefined, node) : undefined;
}

/** Resolves once `signal` aborts, as a dial into a black hole ends only at the caller's deadline. */
function untilDeadline(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new EgressError(DEADLINE_EXCEEDED, 'timeout'));
    if (!signal) return;
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

export async function dialPod(lookup: AdmissionLookup, creds: KubeletClientTls | undefined, ep: PodEndpoint, signal?: AbortSignal): Promise<Duplex> {
  const addr = `${ep.ip.includes(':') ? `[${ep.ip}]` : ep.ip}:${ep.port}`;
  const node = hostingNode(lookup, ep);
  // No node agent to ask: from the API server's seat the address answers nothing, like a pod IP no node routes.
  if (!node) throw new EgressError(`dial tcp ${addr}: connect: no route to host`, 'dial');
  if (!creds) throw StatusError.serviceUnavailable('the API server has no kubelet client credentials');
  const { host, port } = kubeletEndpoint(node);
  const nodeName = node.metadata.name ?? '';
  const connected = new Promise<Duplex>((resolve, reject) => {
    const req = https.request({
      host, port, method: 'CONNECT', path: addr, headers: { host: nodeName }, agent: false,
      cert: creds.cert, key: creds.key, ca: creds.ca, rejectUnauthorized: true,
      checkServerIdentity: (_n, cert) => tls.checkServerIdentity(host, cert),
    });
    const abort = () => req.destroy(new EgressError(DEADLINE_EXCEEDED, 'timeout'));
    signal?.addEventListener('abort', abort, { once: true });
    req.on('connect', (res, socket, head) => {
      signal?.removeEventListener('abort', abort);
      if (res.statusCode === 200) {
        socket.setNoDelay(true);
        if (head.length) socket.unshift(head);
        resolve(socket);
        return;
      }
      socket.destroy();
      const fate = res.headers[DIAL_FATE_HEADER];
      if (fate === 'timeout') untilDeadline(signal).catch(reject);
      else if (fate === 'unreachable') reject(new EgressError(`dial tcp ${addr}: connect: no route to host`, 'dial'));
      else if (fate === 'refused') reject(new EgressError(`dial tcp ${addr}: connect: connection refused`, 'dial'));
      else reject(new EgressError(`dial tcp ${addr}: node agent of ${nodeName} answered ${res.statusCode}`, 'dial'));
    });
    req.on('error', (err) => reject(err instanceof EgressError ? err : goTransportError(err, `${host}:${port}`, host)));
    req.end();
  });
  return connected;
}
