import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Service } from 'kubernetes-types/core/v1.js';
import { DSR_UBR_WS2019, hnsFeatures, hnsVersionOf } from '../../hns/features.js';
import { HnsState, hnsGuid } from '../../hns/hns-state.js';
import { LB_FLAGS } from '../../hns/types.js';
import { defaultNetworkProfile, type KubeProxyProfile } from '../../profile.js';
import { servicePortsOf, type SliceLike } from '../service-ports.js';
import { WinKernelProxier } from './proxier.js';

/** A WS2019 node at patch level `ubr` with an L2Bridge network, its kube-proxy started with these flags. */
function start(ubr: number, cfg: Partial<KubeProxyProfile>) {
  const hns = new HnsState('win-1', hnsVersionOf('10.0.17763', ubr));
  hns.addNetwork({ id: hnsGuid('win-1', 'cbr0'), name: 'cbr0', type: 'L2Bridge', managementIP: '172.18.0.4', networkAdapterName: 'Ethernet', flags: 0, policies: [], subnets: [{ ipAddressPrefix: '10.244.2.0/24', gatewayAddress: '10.244.2.1', policies: [] }] });
  const p = new WinKernelProxier(
    { name: 'win-1', nodeIP: '172.18.0.4', computerName: 'WIN-1', minorVersion: 33, hns, features: hnsFeatures(hns.version) },
    { ...defaultNetworkProfile('windows').kubeProxy, ...cfg }, () => 0,
  );
  const svc: Service = { metadata: { namespace: 'default', name: 'web' }, spec: { clusterIP: '10.96.0.50', ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }] } };
  const slice: SliceLike = { metadata: { namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } }, ports: [{ port: 80, protocol: 'TCP' }], endpoints: [{ addresses: ['10.244.1.7'], nodeName: 'linux-1', conditions: { ready: true } }] };
  p.syncAll(servicePortsOf(svc, [slice]));
  return { p, hns };
}

// winkernel NewProxier: `err = hcn.DSRSupported(); if isDSR && err != nil { return nil, err }`; the error is
// hcsshim's platformDoesNotSupportError("Direct Server Return (DSR)").
const CASES: { name: string; ubr: number; cfg: Partial<KubeProxyProfile>; phase: string; dsr?: boolean; log?: string }[] = [
  { name: '--enable-dsr before the DSR update: kube-proxy fails', ubr: DSR_UBR_WS2019 - 1, cfg: { enableDSR: true, featureGates: { WinDSR: true } }, phase: 'failed', log: 'platform does not support feature Direct Server Return (DSR)' },
  { name: '--enable-dsr from the DSR update on: DSR load balancers', ubr: DSR_UBR_WS2019, cfg: { enableDSR: true, featureGates: { WinDSR: true } }, phase: 'running', dsr: true },
  { name: 'no --enable-dsr before the update: plain load balancers', ubr: DSR_UBR_WS2019 - 1, cfg: { enableDSR: false }, phase: 'running', dsr: false },
  { name: 'the gate is checked first', ubr: DSR_UBR_WS2019 - 1, cfg: { enableDSR: true, featureGates: { WinDSR: false } }, phase: 'failed', log: 'WinDSR feature gate not enabled' },
  // Calico for Windows' kube-proxy-service.ps1 passes --enable-dsr only where the build has DSR.
  { name: 'Calico before the update leaves DSR off', ubr: DSR_UBR_WS2019 - 1, cfg: { enableDSR: true, dsrWherePlatformHasIt: true, featureGates: { WinDSR: true } }, phase: 'running', dsr: false },
  { name: 'Calico from the update on turns DSR on', ubr: DSR_UBR_WS2019, cfg: { enableDSR: true, dsrWherePlatformHasIt: true, featureGates: { WinDSR: true } }, phase: 'running', dsr: true },
];

for (const c of CASES) {
  test(`WS2019 17763.${c.ubr}: ${c.name}`, () => {
    const { p, hns } = start(c.ubr, c.cfg);
    assert.equal(p.state().phase, c.phase, p.log.text());
    if (c.log) {
      const state = p.state();
      assert.equal(state.phase === 'failed' ? state.reason : undefined, c.log);
      assert.ok(p.log.grep(c.log).length > 0, p.log.text());
      assert.equal(hns.loadBalancers.size, 0);
    } else {
      const [lb] = hns.loadBalancers.values();
      assert.equal((lb.flags & LB_FLAGS.DSR) !== 0, c.dsr);
      assert.equal(p.dsrEnabled, c.dsr);
    }
  });
}
