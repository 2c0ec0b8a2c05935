// Who each controller is: kube-controller-manager --use-service-account-credentials runs every controller as its own
// ServiceAccount in kube-system (cmd/kube-controller-manager/app/controllermanager.go, ClientBuilder), bound by the
// bootstrap policy to system:controller:<name>. In-process the identity rides on the transport; across processes
// each ServiceAccount's token comes from TokenRequest (src/client/service-account-token-transport.ts).

import { isAlreadyExists } from '../api/errors.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { KUBERNETES_VERSION } from '../api/version.js';

/** Where the controllers' ServiceAccounts live (metav1.NamespaceSystem). */
export const CONTROLLER_SA_NAMESPACE = 'kube-system';
/** The manager's own user (user.KubeControllerManager), which the shared informers and the tokens controller use. */
export const KUBE_CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';

export interface ComponentUser {
  name: string;
  groups: string[];
}

/** The user a ServiceAccount token authenticates as (serviceaccount.UserInfo: the two SA groups, then authenticated). */
export function serviceAccountUser(name: string, namespace = CONTROLLER_SA_NAMESPACE): ComponentUser {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
}

/**
 * client-go's default User-Agent with the controller's name appended (rest.AddUserAgent):
 * `kube-controller-manager/v1.33.1 (linux/amd64) kubernetes/<commit>/replicaset-controller`. The API server names
 * the field manager of a write after the product before the first `/`, so every controller writes as
 * `kube-controller-manager`, as on a kubeadm cluster.
 */
export function controllerUserAgent(controller: string): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return `kube-controller-manager/${KUBERNETES_VERSION} (${process.platform}/${arch}) kubernetes/0000000/${controller}`;
}

/**
 * Hands each controller its client (controller.ControllerClientBuilder): `own` is the manager's credentials,
 * `forServiceAccount(name)` a client that acts as kube-system/<name>. Clients are made once per name and shared.
 */
/**
 * The requests one controller's client keeps out at once (client/in-flight-limit.ts): below the 300 one flow can
 * queue in workload-high (hand size 6 × queue length 50), so a burst waits in the controller, not in a 429.
 */
export const MAX_IN_FLIGHT_PER_CONTROLLER = 200;

export interface ControllerClientBuilder {
  readonly own: Client;
  forServiceAccount(name: string): Client;
}

/** In-process: the API server's client for a user, with the User-Agent a real controller would send. */
export function inProcessClientBuilder(clientFor: (user: ComponentUser, userAgent: string) => Client): ControllerClientBuilder {
  const cache = new Map<string, Client>();
  return {
    own: clientFor({ name: KUBE_CONTROLLER_MANAGER_USER, groups: ['system:authenticated'] }, controllerUserAgent('shared-informers')),
    forServiceAccount(name) {
      let c = cache.get(name);
      if (!c) cache.set(name, (c = clientFor(serviceAccountUser(name), controllerUserAgent(name))));
      return c;
    },
  };
}

/**
 * Creates the controllers' ServiceAccounts that are missing, with the manager's own credentials, as the client
 * builder's getOrCreateServiceAccount does before asking for a token (the ServiceAccount controller would only make
 * `default`). Returns once each exists.
 */
export async function ensureControllerServiceAccounts(client: Client, names: Iterable<string>): Promise<void> {
  for (const name of new Set(names)) {
    try {
      await client.create(R.serviceaccounts, CONTROLLER_SA_NAMESPACE, {
        apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: CONTROLLER_SA_NAMESPACE },
      });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
}
