// local-path-provisioner's configuration: the `local-path-config` ConfigMap of the `local-path-storage` namespace
// (kind installs it with the provisioner; rancher/local-path-provisioner deploy/local-path-storage.yaml) — config.json
// (paths per node, helper timeout), the helper pod's setup and teardown scripts, and the helper pod template.

import type { ConfigMap, Pod } from 'kubernetes-types/core/v1.js';
import { parse as parseYaml } from 'yaml';

export const NAMESPACE = 'local-path-storage';
export const CONFIG_MAP = 'local-path-config';
/** The provisioner's ServiceAccount, which its helper pods run as (provisioner.go createHelperPod). */
export const SERVICE_ACCOUNT = 'local-path-provisioner-service-account';
/** config.json's key for the paths of nodes it does not list (provisioner.go NodeDefaultNonListedNodes). */
export const DEFAULT_NODE = 'DEFAULT_PATH_FOR_NON_LISTED_NODES';
/** provisioner.go defaultCmdTimeoutSeconds. */
export const DEFAULT_CMD_TIMEOUT_SECONDS = 120;
export const LINUX_BASE_PATH = '/var/local-path-provisioner';
/**
 * Windows nodes: winkube's own extension. The upstream provisioner handles POSIX paths only (filepath on Linux) and
 * its helper image is Linux-only; winkube keeps Windows volumes under this path and runs a Windows helper (below).
 */
export const WINDOWS_BASE_PATH = 'C:\\local-path-provisioner';
/** A helper image with Windows Server 2019 and 2022 builds (registry.k8s.io/e2e-test-images), for Windows nodes. */
export const WINDOWS_HELPER_IMAGE = 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1';
/** What the Windows helper runs for each action: the setup and teardown scripts' effect in PowerShell. */
export const WINDOWS_HELPER_COMMANDS: Record<'create' | 'delete', string[]> = {
  create: ['powershell', '-Command', 'New-Item -ItemType Directory -Force -Path $env:VOL_DIR | Out-Null'],
  delete: ['powershell', '-Command', 'if (Test-Path $env:VOL_DIR) { Remove-Item -Recurse -Force -Path $env:VOL_DIR }'],
};

/** The helper pod template kind ships; rancher's deploy manifest uses busybox, which the image catalogue has. */
const HELPER_POD_YAML = `apiVersion: v1
kind: Pod
metadata:
  name: helper-pod
spec:
  containers:
  - name: helper-pod
    image: docker.io/library/busybox:stable
    imagePullPolicy: IfNotPresent
`;

/** The ConfigMap `winkube up` installs, with kind's paths and the upstream setup and teardown scripts. */
export function defaultConfigMap(): ConfigMap {
  return {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: CONFIG_MAP, namespace: NAMESPACE },
    data: {
      'config.json': JSON.stringify({ nodePathMap: [{ node: DEFAULT_NODE, paths: [LINUX_BASE_PATH] }] }, null, 2),
      setup: '#!/bin/sh\nset -eu\nmkdir -m 0777 -p "$VOL_DIR"\n',
      teardown: '#!/bin/sh\nset -eu\nrm -rf "$VOL_DIR"\n',
      'helperPod.yaml': HELPER_POD_YAML,
    },
  };
}

export interface LocalPathConfig {
  cmdTimeoutSeconds: number;
  /** Paths by node name (DEFAULT_NODE for the rest). */
  nodePathMap: Map<string, string[]>;
  /** config.json setupCommand/teardownCommand: a command in the helper image instead of the ConfigMap's script. */
  setupCommand?: string;
  teardownCommand?: string;
  helperPod: Pod;
}

interface ConfigJson {
  cmdTimeoutSeconds?: number;
  setupCommand?: string;
  teardownCommand?: string;
  nodePathMap?: { node?: string; paths?: string[] }[];
}

/**
 * Reads the ConfigMap (the defaults when it is missing). A config.json or template that does not parse is an error,
 * as the provisioner refuses a config it cannot load.
 */
export function parseConfig(cm: ConfigMap | undefined): LocalPathConfig {
  const data = cm?.data ?? defaultConfigMap().data!;
  const json = JSON.parse(data['config.json'] ?? '{}') as ConfigJson;
  const nodePathMap = new Map<string, string[]>();
  for (const e of json.nodePathMap ?? []) if (e.node) nodePathMap.set(e.node, e.paths ?? []);
  const helperPod = parseYaml(data['helperPod.yaml'] ?? HELPER_POD_YAML) as Pod;
  if (!helperPod?.spec?.containers?.length) throw new Error('helper pod template has no container');
  return {
    cmdTimeoutSeconds: json.cmdTimeoutSeconds && json.cmdTimeoutSeconds > 0 ? json.cmdTimeoutSeconds : DEFAULT_CMD_TIMEOUT_SECONDS,
    nodePathMap, helperPod,
    ...(json.setupCommand ? { setupCommand: json.setupCommand } : {}),
    ...(json.teardownCommand ? { teardownCommand: json.teardownCommand } : {}),
  };
}

/**
 * The base path of a node's volumes (provisioner.go getPathOnNode, the first path when several are listed): the node's
 * own entry, else the default one. Windows nodes use a Windows path from their entry, else WINDOWS_BASE_PATH.
 */
export function basePathOn(cfg: LocalPathConfig, node: string, windows: boolean): string {
  const paths = cfg.nodePathMap.get(node) ?? cfg.nodePathMap.get(DEFAULT_NODE);
  if (windows) return paths?.find((p) => /^[a-z]:\\/i.test(p)) ?? WINDOWS_BASE_PATH;
  if (!paths) throw new Error(`config doesn't contain node ${node}, and no ${DEFAULT_NODE} available`);
  if (!paths.length) throw new Error(`no local path available on node ${node}`);
  return paths[0];
}
