// The controller clients of a separate `winkube controller-manager`: its own kubeconfig credentials for itself, and for
// each controller a client whose token TokenRequest mints for kube-system/<name> (clientbuilder.NewDynamicClientBuilder).

import { createClient } from '../client/client.js';
import { HttpTransport, optionsFromKubeconfig } from '../client/http-transport.js';
import { limitInFlight } from '../client/in-flight-limit.js';
import type { Client } from '../client/interfaces.js';
import type { KubeconfigTarget } from '../client/kubeconfig.js';
import { ServiceAccountTokenTransport } from '../client/service-account-token-transport.js';
import type { Clock } from '../util/clock.js';
import { CONTROLLER_SA_NAMESPACE, controllerUserAgent, MAX_IN_FLIGHT_PER_CONTROLLER, type ControllerClientBuilder } from './identity.js';

export function tokenRequestClientBuilder(target: KubeconfigTarget, clock: Clock): ControllerClientBuilder & { close(): void } {
  const server = optionsFromKubeconfig(target);
  const ownTransport = new HttpTransport({ ...server, userAgent: controllerUserAgent('shared-informers') });
  const own = createClient(ownTransport);
  const made = new Map<string, { client: Client; transport: ServiceAccountTokenTransport }>();
  return {
    own,
    forServiceAccount(name) {
      let m = made.get(name);
      if (!m) {
        const transport = new ServiceAccountTokenTransport({
          issuer: own, namespace: CONTROLLER_SA_NAMESPACE, name, server, userAgent: controllerUserAgent(name), clock,
        });
        // Capped per controller as in `winkube up` (identity.ts); the own client, with the leader lease, is not.
        made.set(name, (m = { client: createClient(limitInFlight(transport, MAX_IN_FLIGHT_PER_CONTROLLER)), transport }));
      }
      return m.client;
    },
    close() {
      for (const m of made.values()) m.transport.close();
      ownTransport.close();
    },
  };
}
