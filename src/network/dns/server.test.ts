import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import dnsPacket from 'dns-packet';
import type { KubeObject } from '../../api/types.js';
import { toDnsService } from './cluster-index.js';
import { DnsServer } from './server.js';
import { ClusterZone } from './zone.js';

const zone = new ClusterZone();
zone.index.setNamespace('default');
zone.index.setService(toDnsService({ metadata: { namespace: 'default', name: 'kubernetes' }, spec: { clusterIP: '10.96.0.1', ports: [{ port: 443 }] } } as KubeObject));
const q = (id: number) => dnsPacket.encode({ type: 'query', id, questions: [{ name: 'kubernetes.default.svc.cluster.local', type: 'A' }] });

test('server: UDP and TCP on one loopback port; garbage does not stop it', async () => {
  const server = new DnsServer({ handler: (p, t) => zone.handle(p, t), port: 0 });
  const port = await server.listen();
  try {
    const udp = createSocket('udp4');
    const reply = await new Promise<Buffer>((resolve) => {
      udp.once('message', (m) => resolve(m));
      udp.send(Buffer.from('garbage!!'), port, '127.0.0.1');
      udp.send(q(1), port, '127.0.0.1');
    });
    udp.close();
    // The garbage (9 bytes, less than a header) is dropped; the query is answered.
    assert.equal(dnsPacket.decode(reply).id, 1);
    // TCP: two pipelined queries in one write, answers length-prefixed in order.
    const sock = connect(port, '127.0.0.1');
    const frame = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
    sock.write(Buffer.concat([frame(q(2)), frame(q(3))]));
    const ids = await new Promise<number[]>((resolve, reject) => {
      let buf = Buffer.alloc(0);
      const got: number[] = [];
      sock.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
          const len = buf.readUInt16BE(0);
          got.push(dnsPacket.decode(buf.subarray(2, 2 + len)).id!);
          buf = buf.subarray(2 + len);
        }
        if (got.length === 2) resolve(got);
      });
      sock.on('error', reject);
    });
    sock.destroy();
    assert.deepEqual(ids, [2, 3]);
  } finally {
    await server.close();
  }
});

test('server: a handler that throws loses that message only', async () => {
  let n = 0;
  const server = new DnsServer({ handler: (p, t) => (n++ === 0 ? (() => { throw new Error('boom'); })() : zone.handle(p, t)), port: 0 });
  const port = await server.listen();
  try {
    const udp = createSocket('udp4');
    const reply = await new Promise<Buffer>((resolve) => {
      udp.on('message', (m) => resolve(m));
      udp.send(q(10), port, '127.0.0.1', () => udp.send(q(11), port, '127.0.0.1'));
    });
    udp.close();
    assert.equal(dnsPacket.decode(reply).id, 11);
  } finally {
    await server.close();
  }
});
