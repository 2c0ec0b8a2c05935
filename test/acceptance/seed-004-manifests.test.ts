// Issue 10 acceptance: seed 004's v1.9-era manifests ("DaemonSets", "Container Resources", "Hyper-V Containers"), cut
// from the seed file as written, applied with the oldest and newest kubectl against `winkube up`, refused with the
// texts a 1.33 cluster gives. The group versions are long gone (extensions/v1beta1 and apps/v1beta2 stopped being
// served in 1.16), so kubectl finds no mapping before it sends anything (kubectl pkg/cmd/apply: "resource mapping not
// found … ensure CRDs are installed first"); the apps/v1 Deployments reach the server and fail ValidateDeploymentSpec
// (pkg/apis/apps/validation/validation.go: a nil selector is Required and, being labels.Nothing, matches no template);
// the DaemonSet moved to apps/v1 as a user would fix it fails ValidateObjectMeta (its name) and ValidateDaemonSetSpec,
// which has no Required error for the selector, only the template mismatch.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Kubectl, kubectlEnds, startCluster, writeTemp, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
/** The seed's YAML blocks, verbatim under the seed's headings (copied from shared/seeds/004_baaa4097a6bbde97.txt). */
const SEED = `${ROOT}test/fixtures/seed-004-manifests.md`;

/** The YAML block under a seed heading, exactly as the seed prints it. */
function seedBlock(heading: string): string {
  const text = readFileSync(SEED, 'utf8');
  const at = text.indexOf(`### ${heading}`);
  assert.ok(at >= 0, `seed 004 has "### ${heading}"`);
  const m = /```yaml\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(m, `a yaml block under ${heading}`);
  return m[1];
}

const RFC1123 = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const IIS_INVALID = [
  'The Deployment "iis" is invalid: ',
  '* spec.selector: Required value',
  '* spec.template.metadata.labels: Invalid value: map[string]string{"app":"iis"}: `selector` does not match template `labels`',
  '',
].join('\n');

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

for (const { version, path } of kubectlEnds()) {
  test(`kubectl ${version}: seed 004's extensions/v1beta1 DaemonSet finds no mapping`, () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      const file = writeTemp('daemonset.yaml', seedBlock('DaemonSets'));
      for (const verb of ['apply', 'create']) {
        const r = k.run([verb, '-f', file]);
        assert.equal(r.code, 1);
        assert.equal(r.stderr, `error: resource mapping not found for name: "my-DaemonSet" namespace: "" from "${file}": no matches for kind "DaemonSet" in version "extensions/v1beta1"\nensure CRDs are installed first\n`);
      }
      // The other pre-1.16 homes of the kind fare no better.
      const beta2 = k.run(['apply', '-f', '-'], seedBlock('DaemonSets').replace('extensions/v1beta1', 'apps/v1beta2'));
      assert.equal(beta2.stderr, 'error: resource mapping not found for name: "my-DaemonSet" namespace: "" from "STDIN": no matches for kind "DaemonSet" in version "apps/v1beta2"\nensure CRDs are installed first\n');
      const depBeta = k.run(['apply', '-f', '-'], seedBlock('Container Resources').replace('apps/v1', 'extensions/v1beta1'));
      assert.equal(depBeta.stderr, 'error: resource mapping not found for name: "iis" namespace: "" from "STDIN": no matches for kind "Deployment" in version "extensions/v1beta1"\nensure CRDs are installed first\n');
      assert.doesNotMatch(k.ok(['api-versions']), /^extensions\/|^apps\/v1beta/m);
    } finally {
      k.dispose();
    }
  });

  test(`kubectl ${version}: seed 004's apps/v1 Deployments without a selector are invalid`, () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      for (const heading of ['Container Resources', 'Hyper-V Containers']) {
        const r = k.run(['apply', '-f', '-'], seedBlock(heading));
        assert.equal(r.code, 1, heading);
        assert.equal(r.stderr, IIS_INVALID, heading);
        const c = k.run(['create', '-f', '-'], seedBlock(heading));
        assert.equal(c.stderr, IIS_INVALID, `create: ${heading}`);
      }
      assert.match(k.run(['get', 'deployment', 'iis']).stderr, /deployments\.apps "iis" not found/);
    } finally {
      k.dispose();
    }
  });

  test(`kubectl ${version}: the DaemonSet moved to apps/v1 is refused for its name and its missing selector`, () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      const r = k.run(['apply', '-f', '-'], seedBlock('DaemonSets').replace('extensions/v1beta1', 'apps/v1'));
      assert.equal(r.code, 1);
      assert.equal(r.stderr, [
        'The DaemonSet "my-DaemonSet" is invalid: ',
        `* metadata.name: Invalid value: "my-DaemonSet": ${RFC1123}`,
        '* spec.template.metadata.labels: Invalid value: map[string]string{"app":"foo"}: `selector` does not match template `labels`',
        '',
      ].join('\n'));
      // With a DNS-1123 name and a selector, the same DaemonSet is accepted and lands on Windows nodes only.
      const fixed = seedBlock('DaemonSets').replace('extensions/v1beta1', 'apps/v1').replace('my-DaemonSet', `seed-ds-${version.replace('.', '-')}`)
        .replace('spec:\n  template:', 'spec:\n  selector:\n    matchLabels:\n      app: foo\n  template:');
      assert.match(k.ok(['apply', '-f', '-'], fixed), /daemonset\.apps\/seed-ds-\S+ created/);
      k.ok(['delete', 'ds', `seed-ds-${version.replace('.', '-')}`, '--wait=false']);
    } finally {
      k.dispose();
    }
  });
}
