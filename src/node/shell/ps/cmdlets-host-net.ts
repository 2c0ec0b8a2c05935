// Get-HnsNetwork (the HostNetworkingService module of Windows Server) and Get-NetRoute (NetTCPIP): the host's HNS
// networks for a HostProcess container (sig-windows-tools' kube-proxy start.ps1 reads the overlay's subnet from it),
// and the routes of the container's adapters.

import { registerView } from './format.js';
import type { Cmdlet } from './cmdlet-api.js';
import { PsObject, toStr } from './values.js';

registerView('MSFT_NetRoute', {
  kind: 'table',
  columns: [{ name: 'ifIndex', width: 7, align: 'right' }, { name: 'DestinationPrefix', width: 32 }, { name: 'NextHop', width: 24 }, { name: 'RouteMetric', width: 11, align: 'right' }, { name: 'ifMetric', width: 8, align: 'right' }, { name: 'PolicyStore' }],
});

/** Get-HnsNetwork: HNS networks as the module returns them (Id, Name, Type, Subnets with AddressPrefix). Only a HostProcess container sees the host's. */
const getHnsNetwork: Cmdlet = {
  name: 'Get-HnsNetwork',
  params: [{ name: 'Id', position: 0 }],
  async run(c) {
    const want = c.bound.get('Id');
    for (const n of c.ps.ctx.env.hostNetwork?.hnsNetworks() ?? []) {
      if (want !== undefined && want !== null && toStr(want).toLowerCase() !== n.id.toLowerCase()) continue;
      c.out.emit(new PsObject(['System.Management.Automation.PSCustomObject'], {
        ActivityId: n.id, Id: n.id, Name: n.name, Type: n.type, ManagementIP: n.managementIP,
        Subnets: n.subnets.map((s) => new PsObject(undefined, { AddressPrefix: s.addressPrefix, GatewayAddress: s.gatewayAddress })),
      }));
    }
  },
};

/** Get-NetRoute: each adapter's default route (via its gateway) and its on-link subnet, interface indexes as Get-NetAdapter's. */
const getNetRoute: Cmdlet = {
  name: 'Get-NetRoute',
  params: [{ name: 'DestinationPrefix', position: 0 }, { name: 'InterfaceIndex', aliases: ['ifIndex'] }, { name: 'AddressFamily' }],
  async run(c) {
    const want = c.bound.get('DestinationPrefix');
    c.ps.ctx.env.network.interfaces.forEach((i, k) => {
      const ifIndex = 17 + k;
      const o = i.ip.split('.').map(Number);
      const mask = i.prefix === 0 ? 0 : (~0 << (32 - i.prefix)) >>> 0;
      const net = ((((o[0] << 24) | (o[1] << 16) | (o[2] << 8) | o[3]) >>> 0) & mask) >>> 0;
      const subnet = `${[24, 16, 8, 0].map((s) => (net >>> s) & 255).join('.')}/${i.prefix}`;
      const routes = [
        ...(i.gateway ? [{ DestinationPrefix: '0.0.0.0/0', NextHop: i.gateway, RouteMetric: 0 }] : []),
        { DestinationPrefix: subnet, NextHop: '0.0.0.0', RouteMetric: 256 },
        { DestinationPrefix: `${i.ip}/32`, NextHop: '0.0.0.0', RouteMetric: 256 },
      ];
      for (const r of routes) {
        if (want !== undefined && want !== null && toStr(want) !== r.DestinationPrefix) continue;
        if (c.bound.has('InterfaceIndex') && Number(toStr(c.bound.get('InterfaceIndex') ?? null)) !== ifIndex) continue;
        c.out.emit(new PsObject(['MSFT_NetRoute'], { ...r, ifIndex, InterfaceIndex: ifIndex, InterfaceAlias: i.name, AddressFamily: 'IPv4', ifMetric: 5, PolicyStore: 'ActiveStore' }));
      }
    });
  },
};

export const HOST_NET_CMDLETS: Cmdlet[] = [getHnsNetwork, getNetRoute];
