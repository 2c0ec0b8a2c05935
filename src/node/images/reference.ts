// Image references as containerd normalises them (docker.io/library/nginx:latest) and stable fake digests.

import { createHash } from 'node:crypto';

export interface ImageRef {
  /** Registry + path, e.g. docker.io/library/nginx, mcr.microsoft.com/windows/servercore. */
  repository: string;
  tag?: string;
  digest?: string;
}

/**
 * Parses a reference the way github.com/distribution/reference ParseNormalizedNamed does: a first component without
 * `.` or `:` (and not `localhost`) means Docker Hub, and a single-component Hub name lives under `library/`.
 * An invalid reference returns undefined (the kubelet reports InvalidImageName).
 */
export function parseImageRef(image: string): ImageRef | undefined {
  if (!image || image !== image.trim() || /[A-Z\s]/.test(image.split(/[:@]/)[0])) return undefined;
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^sha256:[0-9a-f]{64}$/.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!/^[\w][\w.-]{0,127}$/.test(tag)) return undefined;
  }
  const parts = rest.split('/');
  if (parts.some((p) => !p)) return undefined;
  const first = parts[0];
  const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let repository = hasDomain ? rest : `docker.io/${parts.length === 1 ? `library/${rest}` : rest}`;
  if (repository.startsWith('index.docker.io/')) repository = 'docker.io/' + repository.slice('index.docker.io/'.length);
  const path = repository.slice(repository.indexOf('/') + 1);
  if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(path)) return undefined;
  if (!tag && !digest) tag = 'latest';
  return { repository, tag, digest };
}

/** The full normalised name containerd reports in status.containerStatuses[].image. */
export function formatImageRef(r: ImageRef): string {
  return r.digest ? `${r.repository}${r.tag ? `:${r.tag}` : ''}@${r.digest}` : `${r.repository}:${r.tag}`;
}

/** A stable fake sha256 for a name: the same image always has the same digest, across runs and nodes. */
export function fakeDigest(name: string): string {
  return 'sha256:' + createHash('sha256').update(`winkube-image:${name}`).digest('hex');
}

/** `<repo>@sha256:…`, the imageID of a container status (the repo digest of the pulled image). */
export function imageIdFor(r: ImageRef): string {
  return `${r.repository}@${r.digest ?? fakeDigest(formatImageRef(r))}`;
}
