import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { SpdyConnection, type SpdyStream } from './spdy-connection.js';
import { FrameReader, FrameWriter, RstStatus } from './spdy-frames.js';
import { readAll } from './testing/spdy-client.js';

/** Two ends of a real TCP connection on 127.0.0.1. */
async function socketPair(): Promise<[net.Socket, net.Socket]> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  const [accepted] = (await once(server, 'connection')) as [net.Socket];
  server.close();
  return [client, accepted];
}

async function pair(onStream: (s: SpdyStream) => void): Promise<{ client: SpdyConnection; server: SpdyConnection; sockets: net.Socket[] }> {
  const [c, s] = await socketPair();
  return {
    client: new SpdyConnection({ transport: c, role: 'client', lingerMs: 500 }),
    server: new SpdyConnection({ transport: s, role: 'server', onStream, lingerMs: 500 }),
    sockets: [c, s],
  };
}

test('streams carry data both ways with half-close, and more than a 64 KiB window without WINDOW_UPDATE', async () => {
  const { client, server } = await pair((s) => {
    s.reply();
    s.pipe(s);
  });
  const stream = await client.openStream({ streamtype: ['data'] });
  const payload = Buffer.alloc(1024 * 1024, 'z');
  const echoed = readAll(stream);
  stream.end(payload);
  assert.equal((await echoed).length, payload.length);
  client.end();
  await new Promise<void>((r) => server.onClose(r));
  assert.equal(server.closedBy, 'peer');
});

test('RST_STREAM ends the peer stream; refusing a stream rejects its open', async () => {
  let serverSide: SpdyStream | undefined;
  const { client } = await pair((s) => {
    if (s.headers.streamtype?.[0] === 'refuse') return s.reset(RstStatus.REFUSED_STREAM);
    s.reply();
    serverSide = s;
  });
  await assert.rejects(client.openStream({ streamtype: ['refuse'] }), /reset/);
  const s = await client.openStream({ streamtype: ['ok'] });
  const ended = once(s, 'end');
  s.resume();
  serverSide!.reset();
  await ended;
  s.write('dropped silently');
  client.destroy();
});

test('pings from the peer are echoed', async () => {
  const { client } = await pair(() => undefined);
  await client.ping();
  await client.ping();
  client.destroy();
});

test('malformed bytes end the connection with GOAWAY(PROTOCOL_ERROR), without throwing', async () => {
  const [c, s] = await socketPair();
  let streams = 0;
  const server = new SpdyConnection({ transport: s, role: 'server', onStream: () => streams++, lingerMs: 200 });
  const reader = new FrameReader();
  const frames: unknown[] = [];
  c.on('data', (d: Buffer) => frames.push(...reader.push(d)));
  c.write(Buffer.from([0x80, 2, 0, 1, 0, 0, 0, 2, 1, 2]));
  await new Promise<void>((r) => server.onClose(r));
  await once(c, 'end');
  assert.deepEqual(frames, [{ type: 'GOAWAY', lastGoodStreamId: 0, status: 1 }]);
  assert.equal(streams, 0);
  c.destroy();
});

test('a SYN_STREAM with a wrong-parity or reused id is reset, not delivered', async () => {
  const [c, s] = await socketPair();
  const seen: number[] = [];
  new SpdyConnection({ transport: s, role: 'server', onStream: (st) => { seen.push(st.id); st.reply(); }, lingerMs: 200 });
  const w = new FrameWriter();
  const reader = new FrameReader();
  const frames: Array<{ type: string; streamId?: number; status?: number }> = [];
  c.on('data', (d: Buffer) => frames.push(...reader.push(d)));
  c.write(Buffer.concat([w.synStream(3, {}), w.synStream(2, {}), w.synStream(3, {}), w.synStream(5, {})]));
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(seen, [3, 5]);
  assert.deepEqual(frames.map((f) => [f.type, f.streamId, f.status]), [
    ['SYN_REPLY', 3, undefined], ['RST_STREAM', 2, RstStatus.PROTOCOL_ERROR], ['RST_STREAM', 3, RstStatus.PROTOCOL_ERROR], ['SYN_REPLY', 5, undefined],
  ]);
  c.destroy();
});

test('the peer going away ends every stream, and writes after that are dropped', async () => {
  let serverSide: SpdyStream | undefined;
  const { client, server, sockets } = await pair((s) => {
    s.reply();
    serverSide = s;
  });
  await client.openStream({});
  const ended = once(serverSide!, 'end');
  serverSide!.resume();
  sockets[0].destroy();
  await ended;
  serverSide!.write('nobody listens');
  serverSide!.end();
  assert.equal(server.isClosed, true);
});
