// The cluster DNS as a component of `winkube up`: its own informers on Namespaces, Services and EndpointSlices (as
// CoreDNS watches the API), the zone they keep, and a real DNS server on a loopback port. It publishes that address
// on the kube-dns Service, so tools find it as the API server finds kubelets (winkube.io/kubelet-server).

import { DNS_SERVER_ANNOTATION } from '../../api/well-known.js';
import type { KubeObject } from '../../api/types.js';
import { InformerFactory } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { DNS_NAMESPACE, DNS_SERVICE_NAME } from './addon.js';
import { DnsServer } from './server.js';
import { ClusterZone } from './zone.js';

export interface ClusterDnsConfig {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** kube-dns's ClusterIP. */
  dnsIP: string;
  host?: string;
  /** 0 = any free port. */
  port?: number;
}

export interface RunningClusterDns {
  zone: ClusterZone;
  /** host:port the server answers on. */
  address: string;
  port: number;
  stop(): Promise<void>;
}

export async function startClusterDns(cfg: ClusterDnsConfig): Promise<RunningClusterDns> {
  const logger = cfg.logger.child('dns');
  const informers = new InformerFactory({ client: cfg.client, clock: cfg.clock, logger });
  const namespaces = informers.for(R.namespaces);
  const services = informers.for(R.services);
  const endpointSlices = informers.for(R.endpointslices);
  const zone = new ClusterZone({ dnsIP: cfg.dnsIP, nowSeconds: () => Math.floor(cfg.clock.now() / 1000) });
  zone.attach({ namespaces, services, endpointSlices });
  const server = new DnsServer({ handler: (p, t) => zone.handle(p, t), host: cfg.host, port: cfg.port ?? 0, logger });
  const port = await server.listen();
  const address = server.address;
  // Publish the address on kube-dns whenever it lacks it (created after us, recreated, or edited by a user).
  const publish = (o: KubeObject) => {
    if (o.metadata.namespace !== DNS_NAMESPACE || o.metadata.name !== DNS_SERVICE_NAME) return;
    if (o.metadata.annotations?.[DNS_SERVER_ANNOTATION] === address) return;
    cfg.client.patch(R.services, DNS_NAMESPACE, DNS_SERVICE_NAME, 'merge', { metadata: { annotations: { [DNS_SERVER_ANNOTATION]: address } } })
      .catch((err) => logger.warn('could not annotate the kube-dns Service', { err: String(err) }));
  };
  services.addHandler({ add: publish, update: (_old, o) => publish(o) });
  informers.start();
  await informers.waitForSync();
  return {
    zone, address, port,
    stop: async () => {
      informers.stop();
      await server.close();
    },
  };
}
