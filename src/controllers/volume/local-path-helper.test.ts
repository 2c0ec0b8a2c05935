import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfigMap, parseConfig, basePathOn, WINDOWS_HELPER_IMAGE } from './local-path-config.js';
import { helperPod } from './local-path-helper.js';

const cfg = parseConfig(defaultConfigMap());
const lin = { name: 'pvc-1', path: '/var/local-path-provisioner/pvc-1_default_data', node: 'worker', windows: false, sizeBytes: 1073741824, mode: 'Filesystem' };

describe('local-path helper pods (provisioner.go createHelperPod)', () => {
  it('Linux: the template\'s container runs the ConfigMap script with the VOL_* environment, on the node', () => {
    const p = helperPod('create', lin, cfg);
    assert.equal(p.metadata?.name, 'helper-pod-create-pvc-1');
    assert.equal(p.metadata?.namespace, 'local-path-storage');
    assert.equal(p.spec?.nodeName, 'worker');
    assert.equal(p.spec?.restartPolicy, 'Never');
    assert.equal(p.spec?.serviceAccountName, 'local-path-provisioner-service-account');
    assert.deepEqual(p.spec?.tolerations, [{ key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' }]);
    const c = p.spec!.containers[0];
    assert.deepEqual(c.command, ['/bin/sh', '/script/setup']);
    assert.deepEqual(c.args, ['-p', '/var/local-path-provisioner/pvc-1_default_data', '-s', '1073741824', '-m', 'Filesystem', '-a', 'create']);
    assert.equal(c.env?.find((e) => e.name === 'VOL_DIR')?.value, '/var/local-path-provisioner/pvc-1_default_data');
    assert.deepEqual(c.volumeMounts, [{ name: 'script', mountPath: '/script' }, { name: 'data', mountPath: '/var/local-path-provisioner/' }]);
    assert.deepEqual(p.spec?.volumes?.find((v) => v.name === 'data')?.hostPath, { path: '/var/local-path-provisioner/', type: 'DirectoryOrCreate' });
    assert.deepEqual(p.spec?.volumes?.find((v) => v.name === 'script')?.configMap, { name: 'local-path-config', items: [{ key: 'setup', path: 'setup' }, { key: 'teardown', path: 'teardown' }] });
    assert.deepEqual(helperPod('delete', lin, cfg).spec!.containers[0].command, ['/bin/sh', '/script/teardown']);
  });
  it('names are cut at 128 characters (HelperPodNameMaxLength); a setupCommand replaces the script', () => {
    assert.equal(helperPod('delete', { ...lin, name: 'x'.repeat(200) }, cfg).metadata?.name?.length, 128);
    const custom = parseConfig({ data: { ...defaultConfigMap().data, 'config.json': JSON.stringify({ setupCommand: '/manager', nodePathMap: [] }) } });
    assert.deepEqual(helperPod('create', lin, custom).spec!.containers[0].command, ['/manager']);
  });
  it('Windows (winkube\'s extension): a Windows helper image, PowerShell, the Windows base path', () => {
    const p = helperPod('create', { ...lin, path: 'C:\\local-path-provisioner\\pvc-1_default_data', windows: true }, cfg);
    const c = p.spec!.containers[0];
    assert.equal(c.image, WINDOWS_HELPER_IMAGE);
    assert.equal(c.command?.[0], 'powershell');
    assert.equal(c.env?.find((e) => e.name === 'VOL_DIR')?.value, 'C:\\local-path-provisioner\\pvc-1_default_data');
    assert.deepEqual(p.spec?.volumes?.find((v) => v.name === 'data')?.hostPath?.path, 'C:\\local-path-provisioner\\');
  });
  it('config.json paths per node and their errors (getPathOnNode)', () => {
    const c = parseConfig({ data: { ...defaultConfigMap().data, 'config.json': JSON.stringify({ nodePathMap: [{ node: 'a', paths: ['/a'] }, { node: 'b', paths: [] }] }) } });
    assert.equal(basePathOn(c, 'a', false), '/a');
    assert.throws(() => basePathOn(c, 'z', false), { message: 'config doesn\'t contain node z, and no DEFAULT_PATH_FOR_NON_LISTED_NODES available' });
    assert.throws(() => basePathOn(c, 'b', false), { message: 'no local path available on node b' });
    assert.equal(basePathOn(cfg, 'win', true), 'C:\\local-path-provisioner');
    assert.equal(cfg.cmdTimeoutSeconds, 120);
  });
});
