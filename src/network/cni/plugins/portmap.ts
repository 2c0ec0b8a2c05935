// portmap (Linux, chained after the main plugin): hostPort DNAT rules; the interface result passes through unchanged
// (containernetworking/plugins plugins/meta/portmap). The rules themselves are the iptables proxy model's concern.

import { CniError, type CniPlugin, type CniResult } from '../interfaces.js';
import { allVersions } from '../versions.js';

export const NAME = 'portmap';

export function createPortmap(): CniPlugin {
  return {
    NAME, os: ['linux'], versions: allVersions,
    add(_ctx, conf) {
      const prev = conf.prevResult as CniResult | undefined;
      return prev ?? new CniError('must be called as chained plugin');
    },
    del: () => undefined,
  };
}
