// A real HTTPS admission webhook on 127.0.0.1 for tests, with a CA it generates: answers each AdmissionReview with
// what `answer` returns (the uid is filled in), and records what it was sent.

import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCa, issueCert, type CertPair } from '../../pki.js';

export interface TestWebhookServer {
  url(path: string): string;
  /** The CA that signed the server certificate, base64 (clientConfig.caBundle). */
  caBundle: string;
  ca: CertPair;
  requests: { path: string; review: { request: Record<string, unknown> } }[];
  close(): Promise<void>;
}

export type WebhookAnswer = (review: { request: Record<string, unknown> }, path: string) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;

/** Serves AdmissionReview answers; `answer` returning undefined leaves the request unanswered (a hung webhook). */
export async function startWebhookServer(answer: WebhookAnswer, opts: { ca?: CertPair; dns?: string[] } = {}): Promise<TestWebhookServer> {
  const ca = opts.ca ?? createCa('webhook-test-ca');
  const serving = issueCert(ca, { cn: 'webhook', server: { dns: opts.dns ?? ['localhost'], ips: ['127.0.0.1'] } });
  const requests: TestWebhookServer['requests'] = [];
  const server = https.createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const review = JSON.parse(Buffer.concat(chunks).toString()) as { apiVersion: string; request: Record<string, unknown> };
        const path = (req.url ?? '/').split('?')[0];
        requests.push({ path, review });
        const out = await answer(review, path);
        if (!out) return;
        const body = JSON.stringify({ kind: 'AdmissionReview', apiVersion: review.apiVersion, response: { uid: review.request.uid, ...out } });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    ca,
    requests,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
