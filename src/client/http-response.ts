// Turns an HTTP response into the transport's ApiResponse: the same body shapes the in-process transport gives.

import type http from 'node:http';
import type { WatchEvent } from '../api/types.js';
import type { ApiResponse } from './interfaces.js';

/** JSON bodies are parsed; text stays a string and anything else (protobuf) a Buffer, as in-process answers are. */
export function decodeResponse(res: http.IncomingMessage, raw: Buffer): ApiResponse {
  const status = res.statusCode ?? 0;
  const contentType = res.headers['content-type'];
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const base = (contentType ?? '').split(';')[0].trim().toLowerCase();
  let body: unknown = raw;
  if (raw.length === 0) body = undefined;
  else if (base === 'application/json' || base.endsWith('+json')) {
    const text = raw.toString('utf8');
    try {
      body = JSON.parse(text);
    } catch (err) {
      // An error page that is not JSON still maps to a generic StatusError by code; a 2xx must parse.
      if (status >= 200 && status < 300) throw new Error(`invalid JSON in the response from the server: ${(err as Error).message}`);
      body = text;
    }
  } else if (base.startsWith('text/') || base === '') {
    body = raw.toString('utf8');
  }
  return { status, body, contentType, headers };
}

export function internalStatus(message: string): WatchEvent['object'] {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 } as unknown as WatchEvent['object'];
}
