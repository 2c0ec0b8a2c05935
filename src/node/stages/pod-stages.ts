// The default pod lifecycle, as data. Order matters only among stages due at the same instant: earlier wins.
// Sources: pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod: sandbox, init containers, containers),
// pkg/kubelet/images/image_manager.go (pull, back-off), pkg/kubelet/kubelet.go (termination).

import type { Stage } from './types.js';

export const POD_STAGES: readonly Stage[] = [
  // Pod-level.
  { name: 'terminate', target: 'pod', selector: { pod: ['admit', 'sandbox', 'active', 'rejected', 'terminal'], deleting: true }, delay: { ms: 0 }, action: 'beginTermination' },
  { name: 'admit', target: 'pod', selector: { pod: ['admit'], deleting: false }, delay: { ms: 0 }, action: 'admit' },
  { name: 'sandbox', target: 'pod', selector: { pod: ['sandbox'], deleting: false }, delay: { from: 'sandbox' }, action: 'createSandbox' },
  { name: 'terminated', target: 'pod', selector: { pod: ['terminating'], allStopped: true }, delay: { ms: 0 }, action: 'finishTermination' },

  // Container stop during termination.
  { name: 'container-stopped', target: 'container', selector: { pod: ['terminating'], container: ['killing'] }, delay: { from: 'stop' }, action: 'stopContainer' },

  // Image.
  { name: 'image-pull', target: 'container', selector: { pod: ['active'], container: ['new'] }, delay: { ms: 0 }, action: 'beginPull' },
  { name: 'image-pulled', target: 'container', selector: { pod: ['active'], container: ['pulling'] }, delay: { from: 'pull' }, action: 'finishPull' },
  { name: 'image-pull-backoff', target: 'container', selector: { pod: ['active'], container: ['pull-error'], waitingReason: ['ErrImagePull'] }, delay: { from: 'pullErrorResync' }, action: 'enterPullBackoff' },
  { name: 'image-pull-retry', target: 'container', selector: { pod: ['active'], container: ['pull-backoff'] }, delay: { from: 'pullBackoff' }, action: 'retryPull' },

  // Container.
  { name: 'container-create', target: 'container', selector: { pod: ['active'], container: ['creating'] }, delay: { from: 'create' }, action: 'createContainer' },
  { name: 'container-config-retry', target: 'container', selector: { pod: ['active'], container: ['config-error'] }, delay: { from: 'configErrorResync' }, action: 'retryCreate' },
  { name: 'container-start', target: 'container', selector: { pod: ['active'], container: ['created'] }, delay: { from: 'start' }, action: 'startContainer' },
  { name: 'container-ready', target: 'container', selector: { pod: ['active'], container: ['running'], init: false, ready: false, probed: false }, delay: { from: 'readyAfter' }, action: 'markReady' },
  // A failed liveness or startup probe (probe-manager.ts) kills the container; the restart policy then applies.
  { name: 'container-kill', target: 'container', selector: { pod: ['active'], container: ['running'], killRequested: true }, delay: { ms: 0 }, action: 'killContainer' },
  { name: 'container-killed', target: 'container', selector: { pod: ['active'], container: ['killing'] }, delay: { from: 'stop' }, action: 'stopContainer' },
  { name: 'container-exit', target: 'container', selector: { pod: ['active'], container: ['running'], exits: true }, delay: { from: 'exitAfter' }, action: 'exitContainer' },
  { name: 'restart-policy', target: 'container', selector: { pod: ['active'], container: ['exited'] }, delay: { ms: 0 }, action: 'applyRestartPolicy' },
  { name: 'crash-loop-restart', target: 'container', selector: { pod: ['active'], container: ['crash-backoff'] }, delay: { from: 'crashBackoff' }, action: 'restartContainer' },
];
