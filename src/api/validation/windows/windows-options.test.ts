// windowsOptions rules: runAsUserName, gmsaCredentialSpecName, gmsaCredentialSpec, with kube's rendered messages.

import test from 'node:test';
import assert from 'node:assert/strict';
import { validateWindowsOptions } from './windows-options.js';

const P = 'spec.securityContext.windowsOptions';
const run = (opts: Record<string, unknown>, path = P) => validateWindowsOptions(opts, path).map(String);

const USER_DETAIL = {
  empty: 'runAsUserName cannot be an empty string',
  ctrl: 'runAsUserName cannot contain control characters',
  backslashes: 'runAsUserName cannot contain more than one backslash',
  domainLong: "runAsUserName's Domain length must be under 256 characters",
  domainFormat: "runAsUserName's Domain doesn't match the NetBios nor the DNS format",
  userEmpty: "runAsUserName's User cannot be empty",
  userLong: "runAsUserName's User length must not be longer than 104 characters",
  dots: "runAsUserName's User cannot contain only periods or spaces",
  chars: `runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`,
};

// [runAsUserName, the details kube reports, in order].
const USER_CASES: [string, string[]][] = [
  ['ContainerUser', []],
  ['ContainerAdministrator', []],
  ['NT AUTHORITY\\SYSTEM', []],
  ['NT AUTHORITY\\Local service', []],
  ['NT AUTHORITY\\NETWORK SERVICE', []],
  ['BUILTIN\\Users', []],
  ['contoso.com\\svc-iis', []],
  ['my-domain.example.org\\user.name', []],
  ['A234567890123456\\u', []], // 16 chars: too long for NetBIOS but a valid DNS label
  ['x'.repeat(104), []],
  ['', [USER_DETAIL.empty]],
  ['user\u0007name', [USER_DETAIL.ctrl]],
  ['DOM\\user\t', [USER_DETAIL.ctrl]],
  ['a\\b\\c', [USER_DETAIL.backslashes]],
  ['a\\b\\', [USER_DETAIL.backslashes]],
  ['\\user', [USER_DETAIL.domainFormat]],
  ['DOMAIN\\', [USER_DETAIL.userEmpty]],
  ['\\', [USER_DETAIL.domainFormat, USER_DETAIL.userEmpty]],
  ['.hidden\\user', [USER_DETAIL.domainFormat]],
  ['dom:ain\\user', [USER_DETAIL.domainFormat]],
  [`${'d'.repeat(256)}\\user`, [USER_DETAIL.domainLong, USER_DETAIL.domainFormat]],
  // 256 characters of well-formed DNS labels: only the length rule fires (the DNS regex has no total limit); 255 pass.
  [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}.e\\u`, [USER_DETAIL.domainLong]],
  [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}\\u`, []],
  ['x'.repeat(105), [USER_DETAIL.userLong]],
  ['...', [USER_DETAIL.dots]],
  ['DOMAIN\\ . ', [USER_DETAIL.dots]],
  ['user@contoso.com', [USER_DETAIL.chars]],
  ['DOMAIN\\us"er', [USER_DETAIL.chars]],
  ['a/b', [USER_DETAIL.chars]],
  ['[x]', [USER_DETAIL.chars]],
  [`dom:ain\\${'u'.repeat(105)}*`, [USER_DETAIL.domainFormat, USER_DETAIL.userLong, USER_DETAIL.chars]],
];

for (const [name, details] of USER_CASES) {
  test(`runAsUserName ${JSON.stringify(name.length > 40 ? `${name.slice(0, 20)}…(${name.length})` : name)}`, () => {
    const got = run({ runAsUserName: name });
    // Go renders the bad value with %q; for these names that equals JSON quoting except for control characters.
    const shown = name.includes('\u0007') ? '"user\\aname"' : name.includes('\t') ? '"DOM\\\\user\\t"' : JSON.stringify(name);
    assert.deepEqual(got, details.map((d) => `${P}.runAsUserName: Invalid value: ${shown}: ${d}`));
  });
}

test('NetBIOS domains: 15 characters max unless they also read as DNS names', () => {
  // '!' is allowed in NetBIOS but not DNS, so the 15/16 boundary shows.
  assert.deepEqual(run({ runAsUserName: `${'!'.repeat(15)}\\u` }), []);
  assert.equal(run({ runAsUserName: `${'!'.repeat(16)}\\u` }).length, 1);
  // Lengths are UTF-8 bytes, as Go's len(): 52 × 'é' is 104 bytes, 53 is 106.
  assert.deepEqual(run({ runAsUserName: 'é'.repeat(52) }), []);
  assert.deepEqual(run({ runAsUserName: 'é'.repeat(53) }),
    [`${P}.runAsUserName: Invalid value: "${'é'.repeat(53)}": ${USER_DETAIL.userLong}`]);
});

const NAME_DETAIL = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start " +
  "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const GMSA_CASES: [string, Record<string, unknown>, string[]][] = [
  ['valid name', { gmsaCredentialSpecName: 'gmsa-webapp1' }, []],
  ['upper-case name', { gmsaCredentialSpecName: 'GMSA' }, [`${P}.gmsaCredentialSpecName: Invalid value: "GMSA": ${NAME_DETAIL}`]],
  ['empty name', { gmsaCredentialSpecName: '' }, [`${P}.gmsaCredentialSpecName: Invalid value: "": ${NAME_DETAIL}`]],
  ['254-character name', { gmsaCredentialSpecName: 'a'.repeat(254) },
    [`${P}.gmsaCredentialSpecName: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`]],
  ['valid spec', { gmsaCredentialSpec: '{"CmsPlugins":["ActiveDirectory"]}' }, []],
  ['empty spec', { gmsaCredentialSpec: '' }, [`${P}.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string`]],
  ['64 KiB spec', { gmsaCredentialSpec: 'x'.repeat(65536) }, []],
  ['64 KiB + 1 spec', { gmsaCredentialSpec: 'x'.repeat(65537) },
    [`${P}.gmsaCredentialSpec: Invalid value: "${'x'.repeat(65537)}": gmsaCredentialSpec size must be under 64 KiB`]],
  ['name, spec and user together, in kube order',
    { runAsUserName: '', gmsaCredentialSpec: '', gmsaCredentialSpecName: 'X' },
    [
      `${P}.gmsaCredentialSpecName: Invalid value: "X": ${NAME_DETAIL}`,
      `${P}.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string`,
      `${P}.runAsUserName: Invalid value: "": ${USER_DETAIL.empty}`,
    ]],
  ['hostProcess alone has no format rule', { hostProcess: true }, []],
  ['null fields are unset', { runAsUserName: null, gmsaCredentialSpec: null, gmsaCredentialSpecName: null }, []],
];

for (const [name, opts, expected] of GMSA_CASES) {
  test(`windowsOptions: ${name}`, () => assert.deepEqual(run(opts), expected));
}

test('container paths are kept as given', () => {
  const path = 'spec.initContainers[2].securityContext.windowsOptions';
  assert.deepEqual(run({ runAsUserName: 'a\\b\\c' }, path), [`${path}.runAsUserName: Invalid value: "a\\\\b\\\\c": ${USER_DETAIL.backslashes}`]);
});
