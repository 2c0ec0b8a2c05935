// The Kubernetes release winkube emulates by default: /version, kubelet versions and the scheduler's wording all
// follow it, so they live in one constant.

export const KUBERNETES_VERSION = 'v1.33.1';
