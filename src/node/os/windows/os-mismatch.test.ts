// The 0xc0370101 refusal in each runtime's words (windows-facts §3.5; seed 004 "Known Limitations").

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containerdMismatch, dockerSandboxMismatch, dockerStartMismatch } from './os-mismatch.js';

const ID = 'a'.repeat(64);

test('containerd, Docker 18.09+ (hcsshim) and Docker 17.x wordings', () => {
  assert.equal(containerdMismatch('c'), 'failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem c: The container operating system does not match the host operating system.: unknown');
  assert.match(dockerStartMismatch({ containerRuntimeVersion: 'docker://20.10.24' }, ID),
    new RegExp(`^failed to start container "${ID}": Error response from daemon: hcsshim::CreateComputeSystem ${ID}: The container operating system does not match the host operating system\\.\\n\\(extra info: \\{"SystemType":"Container","Name":"${ID}","Owner":"docker"`));
  assert.match(dockerStartMismatch({ containerRuntimeVersion: 'docker://17.6.2' }, ID),
    new RegExp(`^failed to start container "${ID}": Error response from daemon: container ${ID} encountered an error during CreateContainer: failure in a Windows system call: The operating system of the container does not match the operating system of the host\\. \\(0xc0370101\\) extra info: `));
  assert.match(dockerSandboxMismatch({ containerRuntimeVersion: 'docker://18.9.7' }, 'web', ID), /^failed to start sandbox container for pod "web": Error response from daemon: hcsshim::CreateComputeSystem /);
});
