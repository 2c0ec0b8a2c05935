// The files of sig-windows-tools' HostProcess images for Windows kube-proxy and flanneld (Dockerfiles of
// kubernetes-sigs/sig-windows-tools hostprocess/flannel/{kube-proxy,flanneld}, before #385): the start.ps1 their
// ENTRYPOINT runs from the sandbox mount point, the binaries beside it, and the CNI plugins the flannel image ships.

import type { VirtualFs } from './vfs.js';

export type SigWindowsToolsImage = 'sigwindowstools-kube-proxy' | 'sigwindowstools-flannel';

// Written for winkube after the steps of hostprocess/flannel/kube-proxy/start.ps1 (as of #342): rewrite the kubeconfig
// to the sandbox paths, reserve a source VIP from the overlay network's subnet with host-local (cached in
// c:\sourcevip), then start kube-proxy.exe with the flags the script passes. Its Write-Host lines are the image's.
export const KUBE_PROXY_START_PS1 = `$ErrorActionPreference = "Stop"
$root = $env:CONTAINER_SANDBOX_MOUNT_POINT

# kube-proxy in overlay mode needs a source VIP, an address host-local reserves on the network's subnet
# (kubernetes/kubernetes#96996).
function Get-SourceVip($NetworkName) {
    mkdir -Force c:/sourcevip | Out-Null
    $cache = "c:/sourcevip/sourceVip.json"
    $request = "c:/sourcevip/sourceVipRequest.json"
    if (Test-Path $cache) {
        $cached = Get-Content $cache | ConvertFrom-Json
        return $cached.ips[0].address.Split("/")[0]
    }
    $network = Get-HnsNetwork | Where-Object { $_.Name -eq $NetworkName.ToLower() }
    $subnet = $network.Subnets[0].AddressPrefix
    $ipam = '{"cniVersion": "0.3.0", "name": "' + $NetworkName + '", "ipam":{"type":"host-local","ranges":[[{"subnet":"' + $subnet + '"}]],"dataDir":"/var/lib/cni/networks"}}'
    Write-Host "ipam sourcevip request: $ipam"
    $ipam | Out-File $request
    $env:CNI_COMMAND = "ADD"
    $env:CNI_CONTAINERID = "dummy"
    $env:CNI_NETNS = "dummy"
    $env:CNI_IFNAME = "dummy"
    $env:CNI_PATH = $env:CNI_BIN_PATH
    Get-Content $request | & "$env:CNI_BIN_PATH/host-local.exe" | Out-File $cache
    Remove-Item env:CNI_COMMAND
    Remove-Item env:CNI_CONTAINERID
    Remove-Item env:CNI_NETNS
    Remove-Item env:CNI_IFNAME
    Remove-Item env:CNI_PATH
    $result = Get-Content $cache | ConvertFrom-Json
    return $result.ips[0].address.Split("/")[0]
}

# client-go does not know the sandbox mount point: the kubeconfig's /var paths are rewritten under it.
Write-Host "Write files so the kubeconfig points to correct locations"
mkdir -Force /var/lib/kube-proxy/
((Get-Content -Path "$root/mounts/var/lib/kube-proxy/kubeconfig.conf" -Raw) -replace '/var', "$($root)/var") | Set-Content -Path "$root/mounts/var/lib/kube-proxy/kubeconfig-win.conf"
Copy-Item "$root/mounts/var/lib/kube-proxy/kubeconfig-win.conf" /var/lib/kube-proxy/kubeconfig.conf

Write-Host "Finding sourcevip"
$vip = Get-SourceVip -NetworkName $env:KUBE_NETWORK
Write-Host "sourceip: $vip"

$arguments = "--v=6",
    "--hostname-override=$env:NODE_NAME",
    "--feature-gates=WinOverlay=true",
    "--proxy-mode=kernelspace",
    "--source-vip=$vip",
    "--kubeconfig=$root/mounts/var/lib/kube-proxy/kubeconfig-win.conf"
$exe = "$root/kube-proxy/kube-proxy.exe " + ($arguments -join " ")
Write-Host "Starting $exe"
Invoke-Expression $exe
`;

// Written for winkube after the steps of hostprocess/flannel/flanneld/start.ps1: copy the CNI plugins and net-conf.json
// to the host, fill the CNI config (OutBoundNAT exceptions, the service route, the provider address), add the cloud
// metadata route, then start flanneld.exe on the management IP. Its Write-Host lines are the image's.
export const FLANNEL_START_PS1 = `$ErrorActionPreference = "Stop"
$root = $env:CONTAINER_SANDBOX_MOUNT_POINT

Write-Output "Copying SDN CNI binaries to host"
mkdir -Force $env:CNI_BIN_PATH
Copy-Item -Path "$root/cni/*" -Destination "$env:CNI_BIN_PATH" -Force

Write-Host "copy flannel config"
mkdir -Force C:\\etc\\kube-flannel\\
Get-ChildItem C:\\etc\\kube-flannel\\
Get-ChildItem "$root/mounts/kube-flannel/"
Copy-Item -Force "$root/mounts/kube-flannel/net-conf.json" C:\\etc\\kube-flannel\\net-conf.json

Write-Host "update cni config"
$cniJson = Get-Content "$root/mounts/kube-flannel-windows/cni-conf-containerd.json" | ConvertFrom-Json
$serviceSubnet = $env:SERVICE_SUBNET
$podSubnet = (Get-Content "$root/mounts/kube-flannel/net-conf.json" | ConvertFrom-Json).Network
$defaultRoute = Get-NetRoute | Where-Object { $_.DestinationPrefix -eq '0.0.0.0/0' } | Select-Object -Property ifIndex
$managementIP = (Get-NetIPAddress -InterfaceIndex $defaultRoute[0].ifIndex -AddressFamily IPv4).IPAddress
$cniJson.delegate.AdditionalArgs[0].Value.Settings.Exceptions = $serviceSubnet, $podSubnet
$cniJson.delegate.AdditionalArgs[1].Value.Settings.DestinationPrefix = $serviceSubnet
$cniJson.delegate.AdditionalArgs[2].Value.Settings.ProviderAddress = $managementIP
mkdir -Force $env:CNI_CONFIG_PATH
Set-Content -Path "$env:CNI_CONFIG_PATH/10-flannel.conf" ($cniJson | ConvertTo-Json -Depth 100)

# The cloud metadata server stays reachable from pods (sig-windows-tools#36).
Write-Host "add route"
route /p add 169.254.169.254 mask 255.255.255.255 0.0.0.0

Write-Host "envs"
Write-Host $env:POD_NAME
Write-Host $env:POD_NAMESPACE

Write-Host "Starting flannel"
& "$root/flannel/flanneld.exe" --kube-subnet-mgr --iface $managementIP
`;

// What the flannel image's /cni holds: containernetworking/plugins' cni-plugins-windows-amd64 v1.3.0, microsoft/
// windows-container-networking v0.3.0 (sdnbridge, sdnoverlay, nat) and flannel-io/cni-plugin's flannel.exe.
const CNI_PLUGINS: Record<string, string | undefined> = {
  'host-local.exe': 'win:host-local', 'win-bridge.exe': undefined, 'win-overlay.exe': undefined, 'flannel.exe': undefined,
  'sdnbridge.exe': undefined, 'sdnoverlay.exe': undefined, 'nat.exe': undefined,
};

function program(fs: VirtualFs, path: string, tag: string | undefined): void {
  fs.mkdir(path.replace(/[\\/][^\\/]+$/, ''), { parents: true });
  fs.writeFile(path, Buffer.from('MZ emulated\r\n'), { mode: 0o755 }).program = tag ?? `win:absent:${path.split('\\').pop()!.toLowerCase()}`;
}

// microsoft/SDN's hns.psm1 is ADDed to both images; the scripts do not import it (Get-HnsNetwork is the host's).
const HNS_PSM1 = '# hns.psm1 (microsoft/SDN Kubernetes/windows): HNS helper functions, not imported by start.ps1.\r\n';

/** Lays the image's files out under root: `C:` for an ordinary container, the sandbox mount point for HostProcess. */
export function addSigWindowsToolsImage(fs: VirtualFs, image: SigWindowsToolsImage, root: string): void {
  const at = (p: string) => `${root.replace(/\\$/, '')}\\${p}`;
  if (image === 'sigwindowstools-kube-proxy') {
    fs.mkdir(at('kube-proxy'), { parents: true });
    fs.writeFile(at('kube-proxy\\start.ps1'), KUBE_PROXY_START_PS1.replace(/\n/g, '\r\n'));
    fs.writeFile(at('kube-proxy\\hns.psm1'), HNS_PSM1);
    program(fs, at('kube-proxy\\kube-proxy.exe'), 'win:kube-proxy');
    return;
  }
  fs.mkdir(at('flannel'), { parents: true });
  fs.writeFile(at('flannel\\start.ps1'), FLANNEL_START_PS1.replace(/\n/g, '\r\n'));
  fs.writeFile(at('flannel\\hns.psm1'), HNS_PSM1);
  program(fs, at('flannel\\flanneld.exe'), 'win:flanneld');
  for (const [name, tag] of Object.entries(CNI_PLUGINS)) program(fs, at(`cni\\${name}`), tag);
}
