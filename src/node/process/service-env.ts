// The Service environment variables the kubelet gives every container (pkg/kubelet/envvars/envvars.go FromServices,
// kubelet_pods.go getServiceEnvVarMap): `<NAME>_SERVICE_HOST`, `_SERVICE_PORT[_<PORT>]` and the Docker-link style
// `<NAME>_PORT…` variables, for the pod's namespace (all of them with enableServiceLinks, else only the master
// Service `kubernetes` from `default`).

import type { Service } from 'kubernetes-types/core/v1.js';

const envName = (s: string) => s.toUpperCase().replace(/-/g, '_');

/** Variables of one Service with a ClusterIP (headless and ExternalName Services give none). */
function varsOf(svc: Service): Record<string, string> {
  const ip = svc.spec?.clusterIP;
  const ports = svc.spec?.ports ?? [];
  if (!ip || ip === 'None' || !ports.length) return {};
  const name = envName(svc.metadata?.name ?? '');
  const out: Record<string, string> = { [`${name}_SERVICE_HOST`]: ip, [`${name}_SERVICE_PORT`]: String(ports[0].port) };
  for (const p of ports) if (p.name) out[`${name}_SERVICE_PORT_${envName(p.name)}`] = String(p.port);
  const first = ports[0];
  out[`${name}_PORT`] = `${(first.protocol ?? 'TCP').toLowerCase()}://${ip}:${first.port}`;
  for (const p of ports) {
    const proto = p.protocol ?? 'TCP';
    const prefix = `${name}_PORT_${p.port}_${proto}`;
    out[prefix] = `${proto.toLowerCase()}://${ip}:${p.port}`;
    out[`${prefix}_PROTO`] = proto.toLowerCase();
    out[`${prefix}_PORT`] = String(p.port);
    out[`${prefix}_ADDR`] = ip;
  }
  return out;
}

/**
 * The variables for a pod in `namespace`. `services` holds the namespace's Services and `default`'s; the master
 * Service's variables always come from `default`, a same-named Service of the pod's namespace wins otherwise.
 */
export function serviceEnv(services: Service[], namespace: string, enableServiceLinks = true): Record<string, string> {
  const chosen = new Map<string, Service>();
  for (const s of services) {
    const ns = s.metadata?.namespace;
    const name = s.metadata?.name ?? '';
    if (ns === 'default' && name === 'kubernetes') chosen.set(name, s);
    else if (ns === namespace && enableServiceLinks && !(name === 'kubernetes' && chosen.has(name))) chosen.set(name, s);
  }
  const out: Record<string, string> = {};
  for (const s of chosen.values()) Object.assign(out, varsOf(s));
  return out;
}
