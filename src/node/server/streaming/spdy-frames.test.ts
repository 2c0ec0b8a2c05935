import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameReader, FrameWriter, SpdyProtocolError, type Frame } from './spdy-frames.js';

test('every frame type survives a write/read round trip, also when fed one byte at a time', () => {
  const w = new FrameWriter();
  const cases: Array<[Buffer, Frame]> = [
    [w.synStream(1, { streamtype: ['error'] }), { type: 'SYN_STREAM', streamId: 1, associatedId: 0, priority: 0, fin: false, unidirectional: false, headers: { streamtype: ['error'] } }],
    [w.synStream(3, { port: ['80'] }, { fin: true, unidirectional: true, priority: 3 }), { type: 'SYN_STREAM', streamId: 3, associatedId: 0, priority: 3, fin: true, unidirectional: true, headers: { port: ['80'] } }],
    [w.synReply(1, {}), { type: 'SYN_REPLY', streamId: 1, fin: false, headers: {} }],
    [w.headers(5, { a: ['b'] }, true), { type: 'HEADERS', streamId: 5, fin: true, headers: { a: ['b'] } }],
    [w.rstStream(7, 5), { type: 'RST_STREAM', streamId: 7, status: 5 }],
    [w.settings([{ id: 7, value: 65536, flags: 1 }]), { type: 'SETTINGS', settings: [{ flags: 1, id: 7, value: 65536 }] }],
    [w.ping(9), { type: 'PING', id: 9 }],
    [w.goAway(11, 0), { type: 'GOAWAY', lastGoodStreamId: 11, status: 0 }],
    [w.windowUpdate(1, 1000), { type: 'WINDOW_UPDATE', streamId: 1, delta: 1000 }],
    [w.data(1, Buffer.from('hello'), true), { type: 'DATA', streamId: 1, fin: true, data: Buffer.from('hello') }],
    [w.data(3, Buffer.alloc(0)), { type: 'DATA', streamId: 3, fin: false, data: Buffer.alloc(0) }],
  ];
  const all = Buffer.concat(cases.map(([b]) => b));
  const whole = new FrameReader().push(all);
  assert.deepEqual(whole, cases.map(([, f]) => f));
  const r = new FrameReader();
  const trickled: Frame[] = [];
  for (let i = 0; i < all.length; i++) trickled.push(...r.push(all.subarray(i, i + 1)));
  assert.deepEqual(trickled, whole);
});

test('an unknown control frame is skipped, not fatal', () => {
  const frame = Buffer.from([0x80, 3, 0, 0xf0, 0, 0, 0, 2, 1, 2]);
  assert.deepEqual(new FrameReader().push(frame), [{ type: 'OTHER', controlType: 0xf0 }]);
});

test('malformed input is a SpdyProtocolError', () => {
  const cases: Array<[string, Buffer]> = [
    ['SPDY/2', Buffer.from([0x80, 2, 0, 6, 0, 0, 0, 4, 0, 0, 0, 1])],
    ['DATA on stream 0', Buffer.from([0, 0, 0, 0, 0, 0, 0, 1, 0x61])],
    ['short PING', Buffer.from([0x80, 3, 0, 6, 0, 0, 0, 2, 0, 1])],
    ['SYN_STREAM without a header block', Buffer.from([0x80, 3, 0, 1, 0, 0, 0, 10, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0])],
    ['garbage header block', Buffer.concat([Buffer.from([0x80, 3, 0, 2, 0, 0, 0, 8, 0, 0, 0, 1]), Buffer.from('junk')])],
    ['SETTINGS count past the frame', Buffer.from([0x80, 3, 0, 4, 0, 0, 0, 4, 0, 0, 0, 9])],
  ];
  for (const [name, bytes] of cases) assert.throws(() => new FrameReader().push(bytes), SpdyProtocolError, name);
});
