// metrics-server (registry.k8s.io/metrics-server/metrics-server) as the pod the `v1beta1.metrics.k8s.io` APIService
// names: HTTPS on --secure-port with a self-signed certificate in --cert-dir, health and metrics.k8s.io discovery.
// The metrics themselves are answered by the API server (src/apiserver/metrics, and control-plane.ts for why), so
// resource requests that reach this pod directly are refused rather than invented.

import type { HttpRequest, HttpResponse } from '../../interfaces.js';
import type { Ctx } from '../../core/ctx.js';
import { serve } from '../common.js';
import { flag, serveGeneric, servingCert, statusError, type ServedGroup } from './generic.js';

export const METRICS: ServedGroup = {
  group: 'metrics.k8s.io',
  versions: [{
    version: 'v1beta1',
    resources: [
      { plural: 'nodes', singular: '', kind: 'NodeMetrics', namespaced: false, verbs: ['get', 'list'] },
      { plural: 'pods', singular: '', kind: 'PodMetrics', namespaced: true, verbs: ['get', 'list'] },
    ],
  }],
};

export async function metricsServer(argv: string[], ctx: Ctx): Promise<number> {
  const args = argv.slice(1);
  const tls = servingCert(args, ctx, 'localhost');
  if (typeof tls === 'string') {
    ctx.stderr.write(`Error: unable to load configmap based request-header-client-ca-file: ${tls}\n`);
    return 1;
  }
  const port = Number(flag(args, 'secure-port') ?? '10250');
  const handler = async (req: HttpRequest): Promise<HttpResponse> =>
    serveGeneric(req, [METRICS]) ?? statusError(503, 'ServiceUnavailable', 'metrics are served by the winkube API server, not by this emulated pod', {});
  ctx.stderr.write(`I0000 00:00:00.000000       1 secure_serving.go:213] Serving securely on [::]:${port}\n`);
  return serve(ctx, 'metrics-server', [{ port, handler, tls }], () => 1);
}
