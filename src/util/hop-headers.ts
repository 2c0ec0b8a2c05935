// Hop-by-hop headers (RFC 9110 §7.6.1, plus content-length, which the forwarding side sets itself): a proxy answers
// with the end server's headers minus these.

export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'content-length']);
