// The image manager's decision for one container: already present, pull (how long), or fail with the kubelet's
// and containerd's exact wording (pkg/kubelet/images/image_manager.go, windows-facts §3.5).

import type { NodeProfile } from '../profile.js';
import { lookupImage, type ResolvedImage } from './catalogue.js';
import { dockerNoMatchText, dockerSelectPlatform, selectPlatform, type Platform } from './platform.js';

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

export type PullDecision =
  | { kind: 'present'; image: ResolvedImage; event: string }
  | { kind: 'pull'; image: ResolvedImage; platform: Platform; durationMs: number; event: string }
  | { kind: 'fail'; reason: 'ErrImagePull' | 'ErrImageNeverPull' | 'InvalidImageName'; message: string; eventReason: string; event: string };

export interface PullContext {
  profile: Pick<NodeProfile, 'os' | 'arch' | 'windowsBuild' | 'isolation'> & Partial<Pick<NodeProfile, 'containerRuntime'>>;
  /** Normalised names of images on the node. */
  present: ReadonlySet<string>;
  /** Emulated registry bandwidth; pull time = size / bandwidth, at least `minPullMs`. */
  bytesPerSecond: number;
  minPullMs: number;
}

/** The API server defaults imagePullPolicy the same way (pkg/apis/core/v1/defaults.go SetDefaults_Container). */
export function defaultPullPolicy(image: string): PullPolicy {
  const lastSlash = image.lastIndexOf('/');
  const tagPart = image.slice(lastSlash + 1);
  if (image.includes('@')) return 'IfNotPresent';
  const colon = tagPart.indexOf(':');
  return colon < 0 || tagPart.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** containerd's error text when no manifest entry fits the host, or the tag does not exist. */
export function pullErrorText(img: ResolvedImage): string {
  if (img.tagMissing) {
    return `rpc error: code = NotFound desc = failed to pull and unpack image "${img.name}": failed to resolve reference "${img.name}": ${img.name}: not found`;
  }
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${img.name}": no match for platform in manifest: not found`;
}

/**
 * The same failures through dockershim / cri-dockerd: the daemon's HTTP error, wrapped as an unknown gRPC error
 * (moby pull_v2.go "no matching manifest for %s in the manifest list entries"; an unknown tag is "manifest unknown").
 */
export function dockerPullErrorText(img: ResolvedImage, host: PullContext['profile']): string {
  const tail = img.tagMissing ? `manifest for ${img.name} not found: manifest unknown: manifest unknown` : dockerNoMatchText(host);
  return `rpc error: code = Unknown desc = Error response from daemon: ${tail}`;
}

export function decidePull(image: string, policy: PullPolicy | undefined, ctx: PullContext): PullDecision {
  const img = lookupImage(image);
  if (!img) {
    const message = `Failed to apply default image tag "${image}": couldn't parse image name "${image}": invalid reference format`;
    return { kind: 'fail', reason: 'InvalidImageName', message, eventReason: 'InspectFailed', event: message };
  }
  const pol = policy ?? defaultPullPolicy(image);
  const present = ctx.present.has(img.name);
  if (present && pol !== 'Always') {
    return { kind: 'present', image: img, event: `Container image "${image}" already present on machine` };
  }
  if (pol === 'Never') {
    const message = `Container image "${image}" is not present with pull policy of Never`;
    return { kind: 'fail', reason: 'ErrImageNeverPull', message, eventReason: 'ErrImageNeverPull', event: message };
  }
  const docker = ctx.profile.containerRuntime === 'docker';
  // Docker pulls an older Windows build that containerd's matcher refuses (seed 004 "Known Limitations": the pod then
  // "will get stuck in a crash loop"); isolation plays no part in its choice.
  const platform = img.tagMissing ? undefined : docker ? dockerSelectPlatform(ctx.profile, img.platforms) : selectPlatform(ctx.profile, ctx.profile.isolation, img.platforms);
  if (!platform) {
    const message = docker ? dockerPullErrorText(img, ctx.profile) : pullErrorText(img);
    return { kind: 'fail', reason: 'ErrImagePull', message, eventReason: 'Failed', event: `Failed to pull image "${image}": ${message}` };
  }
  const durationMs = Math.max(ctx.minPullMs, Math.round((img.sizeBytes / ctx.bytesPerSecond) * 1000));
  return { kind: 'pull', image: img, platform, durationMs, event: `Pulling image "${image}"` };
}
