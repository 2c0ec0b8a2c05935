// Issue 10 acceptance: Windows kube-proxy and flanneld as the HostProcess DaemonSets kubernetes-sigs/sig-windows-tools
// published (test/fixtures/sig-windows-tools/*.yaml, filled in as its flannel guide's sed lines do), applied with the
// oldest and newest kubectl to `winkube up` on a flannel vxlan (VNI 4096) fleet: they run on the Windows nodes only,
// Running and Ready, with the ConfigMaps, ServiceAccounts and bindings they need.
// What such a pod is in winkube: the node agent already runs kube-proxy and flanneld as Windows services
// (src/node/os/windows/services.ts, seed 000 Q2), and those keep programming HNS; the DaemonSet's container is the
// image's HostProcess process beside them (it sees the host's services, as HostProcess containers do), so the cluster
// works the same whether or not the DaemonSets are installed.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const FIXTURES = join(ROOT, 'test', 'fixtures');

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster({ fleet: join(FIXTURES, 'sig-windows-tools-fleet.yaml') });
});
after(async () => {
  await cluster?.stop();
});

interface Pod { metadata: { name: string }; spec: { nodeName?: string; hostNetwork?: boolean; containers: { image: string }[] }; status: { phase?: string; conditions?: { type: string; status: string }[]; podIP?: string; hostIP?: string } }

const ready = (p: Pod) => p.status.phase === 'Running' && p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

for (const [i, { version, path }] of kubectlEnds().entries()) {
  // The containers run the images' ENTRYPOINT (PowerShell running start.ps1 under the sandbox mount point, then
  // kube-proxy.exe / flanneld.exe: src/node/shell/fs/seed-sigwindowstools.ts, src/node/shell/win/k8s).
  test(`kubectl ${version}: sig-windows-tools' kube-proxy and flannel DaemonSets run on every Windows node and nowhere else`, async () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      const server = JSON.parse(k.ok(['config', 'view', '--minify', '-o', 'json'])).clusters[0].cluster.server as string;
      const url = new URL(server);
      const kubeProxy = readFileSync(join(FIXTURES, 'sig-windows-tools', 'kube-proxy.yaml'), 'utf8')
        .replaceAll('KUBE_PROXY_VERSION', 'v1.31.4').replace('SERVER_VALUE', server);
      const flannel = readFileSync(join(FIXTURES, 'sig-windows-tools', 'flannel-overlay.yaml'), 'utf8')
        .replaceAll('FLANNEL_VERSION', 'v0.21.5').replace('KUBERNETES_SERVICE_HOST_VALUE', url.hostname).replace('KUBERNETES_SERVICE_PORT_VALUE', url.port);
      const verb = i === 0 ? 'created' : 'unchanged';
      assert.match(k.ok(['apply', '-f', '-'], kubeProxy), new RegExp(`daemonset\\.apps/kube-proxy-windows ${verb}`));
      assert.match(k.ok(['apply', '-f', '-'], flannel), new RegExp(`daemonset\\.apps/kube-flannel-ds-windows-amd64 ${verb}`));

      const windows = (JSON.parse(k.ok(['get', 'nodes', '-l', 'kubernetes.io/os=windows', '-o', 'json'])).items as { metadata: { name: string } }[]).map((n) => n.metadata.name).sort();
      assert.equal(windows.length, 2);
      for (const [ns, selector, ds] of [['kube-system', 'k8s-app=kube-proxy-windows', 'kube-proxy-windows'], ['kube-flannel', 'app=flannel', 'kube-flannel-ds-windows-amd64']]) {
        const pods = await eventually(() => {
          const items = JSON.parse(k.ok(['get', 'pods', '-n', ns, '-l', selector, '-o', 'json'])).items as Pod[];
          return items.length === windows.length && items.every(ready) ? items : undefined;
        }, 60_000, `${ds} Ready on every Windows node`);
        assert.deepEqual(pods.map((p) => p.spec.nodeName).sort(), windows);
        for (const p of pods) {
          assert.equal(p.spec.hostNetwork, true);
          // hostNetwork: the pod has the node's address.
          assert.equal(p.status.podIP, p.status.hostIP, p.metadata.name);
        }
        const rs = k.run(['rollout', 'status', '-n', ns, `ds/${ds}`, '--timeout=60s'], undefined, 90_000);
        assert.equal(rs.code, 0, rs.stderr);
        assert.match(rs.stdout, new RegExp(`daemon set "${ds}" successfully rolled out`));
        const row = k.ok(['get', 'ds', '-n', ns, ds, '--no-headers']).trim().split(/\s+/);
        assert.deepEqual(row.slice(0, 6), [ds, '2', '2', '2', '2', '2']);
      }
      // The kube-proxy ServiceAccount may do what system:node-proxier allows, and no more.
      const as = ['--as=system:serviceaccount:kube-system:kube-proxy'];
      assert.equal(k.ok(['auth', 'can-i', 'watch', 'endpointslices.discovery.k8s.io', ...as]).trim(), 'yes');
      assert.equal(k.run(['auth', 'can-i', 'create', 'pods', ...as]).stdout.trim(), 'no');
      // `nodes/status` on kubectl's command line is the node named "status"; the subresource is a flag.
      assert.equal(k.ok(['auth', 'can-i', 'patch', 'nodes', '--subresource=status', '--as=system:serviceaccount:kube-flannel:flannel']).trim(), 'yes');
      // The pods' HostProcess containers see the node's own services, kube-proxy and flanneld among them.
      const pod = (JSON.parse(k.ok(['get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=kube-proxy-windows', '-o', 'json'])).items as Pod[])[0];
      const services = k.ok(['exec', '-n', 'kube-system', pod.metadata.name, '--', 'powershell', '-Command', 'Get-Service kube-proxy,flanneld,kubelet']);
      assert.match(services, /Running\s+kube-proxy/);
      assert.match(services, /Running\s+flanneld/);
      assert.equal(k.ok(['exec', '-n', 'kube-system', pod.metadata.name, '--', 'cmd', '/c', 'echo %KUBE_NETWORK% %NODE_NAME%']).trim(), `flannel.4096 ${pod.spec.nodeName}`);
      // The logs are the scripts' lines, then the binaries' klog start-up lines (kube-proxy v1.33, flannel v0.21.5).
      const kpLogs = k.ok(['logs', '-n', 'kube-system', 'ds/kube-proxy-windows']);
      assert.match(kpLogs, /^Write files so the kubeconfig points to correct locations\r?$/m);
      assert.match(kpLogs, /^sourceip: 10\.244\.\d+\.\d+\r?$/m);
      // containerd 1.7 binds the image at C:\hpc (hcsshim jobcontainers); the binary is the release the tag names.
      assert.match(kpLogs, /^Starting C:\\hpc\\\/kube-proxy\/kube-proxy\.exe --v=6 --hostname-override=win20(19|22) --feature-gates=WinOverlay=true --proxy-mode=kernelspace --source-vip=10\.244\.\d+\.\d+ /m);
      assert.match(kpLogs, /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ server\.go:\d+\] "kube-proxy running in single-stack mode" ipFamily="IPv4"$/m);
      assert.match(kpLogs, /proxier\.go:\d+\] "Hns Network loaded" hnsNetworkInfo=&\{name:flannel\.4096 /);
      assert.match(kpLogs, /server\.go:\d+\] "Version info" version="v1\.31\.4"$/m);
      assert.match(kpLogs, /proxier\.go:\d+\] "Syncing proxy rules complete" elapsed="[^"]+"$/m);
      assert.equal(k.ok(['exec', '-n', 'kube-system', pod.metadata.name, '--', 'powershell', '-Command', '$env:CONTAINER_SANDBOX_MOUNT_POINT; & "$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/kube-proxy.exe" --version']), 'C:\\hpc\\\r\nKubernetes v1.31.4\n');
      assert.match(kpLogs, /shared_informer\.go:\d+\] Caches are synced for endpoint slice config$/m);
      const flLogs = k.ok(['logs', '-n', 'kube-flannel', 'ds/kube-flannel-ds-windows-amd64']);
      assert.match(flLogs, /^Copying SDN CNI binaries to host\r?$/m);
      assert.match(flLogs, /^ OK!\r?$/m);
      assert.match(flLogs, /main\.go:\d+\] CLI flags config: \{etcdEndpoints:.* kubeSubnetMgr:true .*iface:\[172\.\d+\.\d+\.\d+\]/);
      assert.match(flLogs, /vxlan_windows\.go:\d+\] VXLAN config: Name=flannel\.4096 MacPrefix=0E-2A VNI=4096 Port=4789 GBP=false DirectRouting=false$/m);
      assert.match(flLogs, /main\.go:\d+\] Running backend\.$/m);
      // No Linux node runs either.
      const linuxPods = k.ok(['get', 'pods', '-A', '-o', 'wide', '--field-selector', 'spec.nodeName=linux-worker']);
      assert.doesNotMatch(linuxPods, /kube-proxy-windows|kube-flannel-ds-windows/);
    } finally {
      k.dispose();
    }
  });
}
