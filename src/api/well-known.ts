// Annotation keys that are part of winkube's API contract between components (each reads them off API objects).

/**
 * Where a node agent's kubelet server really listens (host:port on loopback). Node addresses are modelled and never
 * dialled, so the API server reads this to reach the kubelet, as kube-apiserver dials
 * InternalIP:daemonEndpoints.kubeletEndpoint.Port on a real cluster.
 */
export const KUBELET_SERVER_ANNOTATION = 'winkube.io/kubelet-server';

/**
 * Where the cluster DNS really answers (host:port on loopback, UDP and TCP), on the kube-dns Service in kube-system:
 * its ClusterIP is modelled and never dialled, so `dig @127.0.0.1 -p PORT` is how a user asks it.
 */
export const DNS_SERVER_ANNOTATION = 'winkube.io/dns-server';
