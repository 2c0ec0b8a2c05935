// The process a container runs: the pod's command and args over the image's ENTRYPOINT and CMD, as the runtime
// combines them (pkg/kubelet/kuberuntime/kuberuntime_container.go; Docker/OCI ENTRYPOINT+CMD rules).

import type { Container } from 'kubernetes-types/core/v1.js';
import type { ImageConfig } from '../images/catalogue.js';
import { expandVars } from './env-vars.js';

/** command replaces ENTRYPOINT (and drops CMD); args replace CMD; $(VAR) references expand from the container env. */
export function processArgv(c: Container, image: ImageConfig | undefined, env: Record<string, string> = {}): string[] {
  const expand = (xs: string[]) => xs.map((x) => expandVars(x, env));
  if (c.command?.length) return [...expand(c.command), ...expand(c.args ?? [])];
  if (c.args?.length) return [...(image?.entrypoint ?? []), ...expand(c.args)];
  return [...(image?.entrypoint ?? []), ...(image?.cmd ?? [])];
}
