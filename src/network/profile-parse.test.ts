// Sources: kube field-error style (apimachinery field.Error); windows-facts §5 (plugins per OS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFleet } from '../node/fleet.js';
import { parseNetworkProfile } from './profile-parse.js';
import type { FieldError } from '../api/errors.js';

test('network field errors name the field as kube does', () => {
  const cases: { os: 'linux' | 'windows'; v: unknown; want: string[] }[] = [
    { os: 'windows', v: { plugin: 'weave' }, want: ['n.plugin: Unsupported value: "weave": supported values: "flannel", "win-bridge", "win-overlay", "azure-vnet", "calico", "wincni", "ovn-k8s-cni-overlay"'] },
    { os: 'linux', v: { plugin: 'win-bridge' }, want: ['n.plugin: Unsupported value: "win-bridge": supported values: "flannel", "bridge", "calico"'] },
    { os: 'windows', v: { plugin: 'win-bridge', backend: 'vxlan' }, want: ['n.backend: Forbidden: only the flannel plugin has a backend'] },
    { os: 'windows', v: { backend: 'udp' }, want: ['n.backend: Unsupported value: "udp": supported values: "host-gw", "vxlan"'] },
    { os: 'windows', v: { vni: 0 }, want: ['n.vni: Invalid value: 0: must be an integer between 1 and 16777215'] },
    { os: 'windows', v: { cniConfig: '{' }, want: [`n.cniConfig: Invalid value: "<text>": must be JSON: ${(() => { try { JSON.parse('{'); } catch (e) { return (e as Error).message; } return ''; })()}`] },
    { os: 'windows', v: { kubeProxy: { mode: 'iptables' } }, want: ['n.kubeProxy.mode: Unsupported value: "iptables": supported values: "kernelspace"'] },
    { os: 'windows', v: { kubeProxy: { sourceVip: 'x' } }, want: ['n.kubeProxy.sourceVip: Invalid value: "x": must be an IPv4 address'] },
    { os: 'windows', v: { colour: 1 }, want: ['n.colour: Unsupported value: "colour": supported values: "plugin", "backend", "vni", "port", "networkName", "macPrefix", "directRouting", "gbp", "ipMasq", "macSpoofing", "adapterName", "interfaceName", "routes", "flanneldStuck", "clusterCIDR", "serviceCIDR", "cniConfig", "kubeProxy"'] },
    // flanneld's own refusals are not the file's business: the node shows them.
    { os: 'windows', v: { backend: 'vxlan', vni: 1 }, want: [] },
  ];
  for (const c of cases) {
    const errs: FieldError[] = [];
    parseNetworkProfile(c.v, 'n', c.os, errs);
    assert.deepEqual(errs.map(String), c.want, JSON.stringify(c.v));
  }
});

test('defaults merge under the file; kube-proxy names the plugin\'s network', () => {
  const errs: FieldError[] = [];
  const p = parseNetworkProfile({ backend: 'vxlan', kubeProxy: { sourceVip: '10.244.2.2', featureGates: { WinOverlay: true } } }, 'n', 'windows', errs)!;
  assert.deepEqual(errs, []);
  assert.equal(p.plugin, 'flannel');
  assert.equal(p.kubeProxy.networkName, 'flannel.4096');
  assert.equal(p.kubeProxy.mode, 'kernelspace');
  assert.deepEqual(p.kubeProxy.featureGates, { WinOverlay: true });
});

test('the fleet file reads nodes[i].network', () => {
  const fleet = parseFleet(JSON.stringify({ nodes: [{ name: 'l' }, { name: 'w', os: 'windows', windowsBuild: '10.0.17763', network: { backend: 'vxlan' } }] }));
  assert.equal(fleet[1].network?.backend, 'vxlan');
  assert.equal(fleet[0].network, undefined);
  assert.throws(() => parseFleet(JSON.stringify({ nodes: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'w', os: 'windows', windowsBuild: '10.0.17763', network: { plugin: 'weave' } }] })),
    /nodes\[3\]\.network\.plugin: Unsupported value: "weave"/);
});

test('Calico on Windows starts kube-proxy with DSR (WinDSR gate and --enable-dsr) unless the file sets enableDSR', () => {
  const cases: { v: Record<string, unknown>; os: 'linux' | 'windows'; dsr: boolean; gates: Record<string, boolean> }[] = [
    { v: { plugin: 'calico' }, os: 'windows', dsr: true, gates: { WinDSR: true } },
    { v: { plugin: 'calico', kubeProxy: { featureGates: { WinOverlay: true } } }, os: 'windows', dsr: true, gates: { WinDSR: true, WinOverlay: true } },
    { v: { plugin: 'calico', kubeProxy: { enableDSR: false } }, os: 'windows', dsr: false, gates: {} },
    { v: { plugin: 'calico' }, os: 'linux', dsr: false, gates: {} },
    { v: { plugin: 'flannel' }, os: 'windows', dsr: false, gates: {} },
  ];
  for (const c of cases) {
    const errs: FieldError[] = [];
    const p = parseNetworkProfile(c.v, 'n', c.os, errs)!;
    assert.deepEqual(errs, []);
    assert.equal(p.kubeProxy.enableDSR, c.dsr, JSON.stringify(c));
    assert.deepEqual(p.kubeProxy.featureGates, c.gates, JSON.stringify(c));
  }
});
