// local-path-provisioner's helper pods (provisioner.go createHelperPod): a Pod named `helper-pod-<action>-<pv>` in the
// provisioner's namespace, bound to the volume's node, mounting the base path and the ConfigMap's scripts, running the
// setup or teardown script. The provisioner polls it once a second until it Succeeded — a pod that failed counts as
// not done, so it runs into `create process timeout after N seconds` — then deletes it either way.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { isAlreadyExists } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { Clock } from '../../util/clock.js';
import {
  CONFIG_MAP, NAMESPACE, SERVICE_ACCOUNT, WINDOWS_HELPER_COMMANDS, WINDOWS_HELPER_IMAGE, type LocalPathConfig,
} from './local-path-config.js';

export type HelperAction = 'create' | 'delete';

/** provisioner.go HelperPodNameMaxLength. */
const NAME_MAX = 128;

export interface HelperVolume {
  /** The PV's name. */
  name: string;
  /** The volume's directory on the node. */
  path: string;
  node: string;
  windows: boolean;
  sizeBytes: number;
  mode: string;
}

/** filepath.Split: the parent (with its trailing separator) and the last name. */
function split(path: string, windows: boolean): [string, string] {
  const sep = windows ? '\\' : '/';
  const clean = path.replace(windows ? /[\\/]+$/ : /\/+$/, '');
  const i = clean.lastIndexOf(sep);
  return [clean.slice(0, i + 1), clean.slice(i + 1)];
}

/** The helper pod for one action on one volume, from the ConfigMap's template (provisioner.go createHelperPod). */
export function helperPod(action: HelperAction, v: HelperVolume, cfg: LocalPathConfig): Pod {
  const tpl = structuredClone(cfg.helperPod);
  const [parentDir, volumeDir] = split(v.path, v.windows);
  if (!parentDir || !volumeDir) throw new Error(`invalid path ${action} for ${v.path}: cannot find parent dir or volume dir or parent dir is relative`);
  const sep = v.windows ? '\\' : '/';
  const parent = parentDir.replace(/[\\/]+$/, '');
  const volDir = `${parent}${sep}${volumeDir}`;
  const container = { ...tpl.spec!.containers[0] };
  const script = action === 'create' ? cfg.setupCommand : cfg.teardownCommand;
  const mounts = [...(container.volumeMounts ?? [])];
  const volumes = [...(tpl.spec!.volumes ?? []), { name: 'data', hostPath: { path: parentDir, type: 'DirectoryOrCreate' } }];
  const scriptItems = [...(cfg.setupCommand ? [] : [{ key: 'setup', path: 'setup' }]), ...(cfg.teardownCommand ? [] : [{ key: 'teardown', path: 'teardown' }])];
  if (scriptItems.length && !v.windows) {
    volumes.push({ name: 'script', configMap: { name: CONFIG_MAP, items: scriptItems } } as never);
    mounts.push({ name: 'script', mountPath: '/script' });
  }
  mounts.push({ name: 'data', mountPath: parentDir });
  const name = `${tpl.metadata?.name ?? 'helper-pod'}-${action}-${v.name}`.slice(0, NAME_MAX);
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { ...(tpl.metadata ?? {}), name, namespace: NAMESPACE },
    spec: {
      ...tpl.spec!,
      nodeName: tpl.spec!.nodeName || v.node,
      serviceAccountName: SERVICE_ACCOUNT,
      restartPolicy: 'Never',
      tolerations: tpl.spec!.tolerations ?? [{ key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' }],
      volumes,
      containers: [{
        ...container,
        // The Windows helper (winkube's extension, local-path-config.ts) does the scripts' work in PowerShell.
        ...(v.windows ? { image: WINDOWS_HELPER_IMAGE, command: WINDOWS_HELPER_COMMANDS[action] } : { command: script ? [script] : ['/bin/sh', `/script/${action === 'create' ? 'setup' : 'teardown'}`] }),
        env: [...(container.env ?? []),
          { name: 'VOL_DIR', value: volDir }, { name: 'VOL_MODE', value: v.mode }, { name: 'VOL_SIZE_BYTES', value: String(v.sizeBytes) },
          { name: 'VOL_USER', value: '' }, { name: 'VOL_GROUP', value: '' }, { name: 'VOL_PERM', value: '' }],
        ...(v.windows ? {} : { args: ['-p', volDir, '-s', String(v.sizeBytes), '-m', v.mode, '-a', action] }),
        volumeMounts: mounts,
      }, ...tpl.spec!.containers.slice(1)],
    },
  };
}

/**
 * Runs one helper pod to completion: creates it (an existing one of an earlier try is taken over), polls it each second
 * for up to cmdTimeoutSeconds until it Succeeded, and deletes it whatever happened. Throws the provisioner's error,
 * wrapped as createHelperPod wraps it (`failed to <action> volume <pv>: …`).
 */
export async function runHelperPod(client: Client, clock: Clock, action: HelperAction, v: HelperVolume, cfg: LocalPathConfig): Promise<void> {
  const wrap = (e: unknown) => new Error(`failed to ${action} volume ${v.name}: ${(e as Error).message}`);
  let pod: Pod;
  try {
    pod = helperPod(action, v, cfg);
    await client.create(R.pods, NAMESPACE, pod as unknown as KubeObject);
  } catch (e) {
    if (!isAlreadyExists(e)) throw wrap(e);
    pod = helperPod(action, v, cfg);
  }
  const name = pod.metadata!.name!;
  try {
    for (let i = 0; i < cfg.cmdTimeoutSeconds; i++) {
      const cur = await client.get(R.pods, NAMESPACE, name) as unknown as Pod;
      if (cur.status?.phase === 'Succeeded') return;
      await clock.sleep(1000);
    }
    throw new Error(`create process timeout after ${cfg.cmdTimeoutSeconds} seconds`);
  } catch (e) {
    throw wrap(e);
  } finally {
    // provisioner.go only logs a failed delete (`unable to delete the helper pod`).
    await client.delete(R.pods, NAMESPACE, name).catch(() => undefined);
  }
}
