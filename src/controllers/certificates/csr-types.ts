// The CertificateSigningRequest shape the certificate controllers read, and the helpers they share.

import type { KubeObject } from '../../api/types.js';

export interface CsrCondition { type: string; status: string; reason?: string; message?: string; lastUpdateTime?: string; lastTransitionTime?: string }
export type Csr = KubeObject & {
  spec: { request: string; signerName: string; usages?: string[]; username?: string; groups?: string[]; expirationSeconds?: number };
  status?: { conditions?: CsrCondition[]; certificate?: string };
};

/** Well-known signers (k8s.io/api/certificates/v1 types.go). */
export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
export const API_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

export const hasCondition = (csr: Csr, type: string) => (csr.status?.conditions ?? []).some((c) => c.type === type && c.status !== 'False');
export const isApproved = (csr: Csr) => hasCondition(csr, 'Approved');
export const isDeniedOrFailed = (csr: Csr) => hasCondition(csr, 'Denied') || hasCondition(csr, 'Failed');
export const requestPem = (csr: Csr) => Buffer.from(csr.spec.request, 'base64').toString();
