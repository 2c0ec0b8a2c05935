// What the windows-gmsa admission webhook decides for a pod (kubernetes-sigs/windows-gmsa admission-webhook/webhook.go):
// /mutate inlines the named GMSACredentialSpec's contents on CREATE; /validate checks on CREATE that the pod's
// ServiceAccount may `use` each named spec and that pre-set contents match it, and on UPDATE refuses GMSA changes.

import { randomUUID } from 'node:crypto';
import type { Pod, WindowsSecurityContextOptions } from 'kubernetes-types/core/v1.js';
import { goQuote } from '../../../api/validation/windows/go-quote.js';
import { goMarshal, goUnmarshalMap, jsonDeepEqual } from './go-json.js';

/** The API calls the webhook makes (kube_client.go); implemented over the pod's in-cluster credentials. */
export interface CredSpecClient {
  /** isAuthorizedToUseCredSpec: a LocalSubjectAccessReview; a failed call is a denial with the error as reason. */
  isAuthorizedToUse(serviceAccount: string, namespace: string, credSpec: string): Promise<{ allowed: boolean; reason: string }>;
  /** retrieveCredSpecContents: the `credspec` field marshalled as Go does, or the HTTP code and error to deny with. */
  contents(credSpec: string): Promise<{ ok: true; contents: string } | { ok: false; code: number; message: string }>;
}

export type Operation = 'VALIDATE' | 'MUTATE';

export interface AdmissionRequest {
  uid?: string;
  kind?: { group?: string; version?: string; kind?: string };
  namespace?: string;
  operation?: string;
  object?: unknown;
  oldObject?: unknown;
}

export interface AdmissionResponse {
  uid?: string;
  allowed: boolean;
  status?: { metadata: Record<string, never>; message: string; code: number };
  patch?: string;
  patchType?: 'JSONPatch';
}

export interface AdmitOptions {
  /** RANDOM_HOSTNAME: GMSA pods without spec.hostname get a random one (webhook.go EnableRandomHostName). */
  randomHostname?: boolean;
  uuid?: () => string;
}

/** podAdmissionError: the refusal text and the HTTP code the webhook puts in the response's Status. */
class Denial {
  constructor(readonly message: string, readonly code: number) {}
}

type Kind = 'pod' | 'container';
type Visit = (opts: WindowsSecurityContextOptions, kind: Kind, name: string, index: number) => Promise<Denial | undefined> | Denial | undefined;

const isSet = (v: string | null | undefined): v is string => v !== undefined && v !== null;

/** iterateOverWindowsSecurityOptions: the pod's windowsOptions, then each container's (not init/ephemeral ones). */
async function eachWindowsOptions(pod: Pod, f: Visit): Promise<Denial | undefined> {
  const podOpts = pod.spec?.securityContext?.windowsOptions;
  if (podOpts) {
    const d = await f(podOpts, 'pod', pod.metadata?.name ?? '', -1);
    if (d) return d;
  }
  const containers = pod.spec?.containers ?? [];
  for (let i = 0; i < containers.length; i++) {
    const opts = containers[i].securityContext?.windowsOptions;
    if (!opts) continue;
    const d = await f(opts, 'container', containers[i].name ?? '', i);
    if (d) return d;
  }
  return undefined;
}

/** compareCredSpecContents: equal strings, or equal JSON objects; a parse failure is reported with the mismatch. */
function compareContents(fromResource: string, fromCrd: string): { equal: boolean; error?: string } {
  if (fromResource === fromCrd) return { equal: true };
  const a = goUnmarshalMap(fromResource);
  if (!a.ok) return { equal: false, error: `unable to parse ${goQuote(fromResource)} as a JSON object: ${a.error}` };
  const b = goUnmarshalMap(fromCrd);
  if (!b.ok) return { equal: false, error: `unable to parse CRD ${goQuote(fromCrd)} as a JSON object: ${b.error}` };
  return { equal: jsonDeepEqual(a.value, b.value) };
}

async function validateCreate(pod: Pod, namespace: string, client: CredSpecClient): Promise<Denial | undefined> {
  const sa = pod.spec?.serviceAccountName ?? '';
  return eachWindowsOptions(pod, async (opts, kind, name) => {
    const specName = opts.gmsaCredentialSpecName;
    if (isSet(specName)) {
      const auth = await client.isAuthorizedToUse(sa, namespace, specName);
      if (!auth.allowed) {
        const reason = auth.reason ? `, reason: ${goQuote(auth.reason)}` : '';
        return new Denial(`service account ${goQuote(sa)} is not authorized to \`use\` GMSA cred spec ${goQuote(specName)}${reason}`, 403);
      }
      if (isSet(opts.gmsaCredentialSpec)) {
        const expected = await client.contents(specName);
        if (!expected.ok) return new Denial(expected.message, expected.code);
        const cmp = compareContents(opts.gmsaCredentialSpec, expected.contents);
        if (!cmp.equal || cmp.error) {
          const msg = `the GMSA cred spec contents for ${kind} ${goQuote(name)} does not match the contents of GMSA resource ${goQuote(specName)}`;
          return new Denial(cmp.error ? `${msg}: ${cmp.error}` : msg, 422);
        }
      }
    } else if (isSet(opts.gmsaCredentialSpec)) {
      return new Denial(`${kind} ${goQuote(name)} has a GMSA cred spec set, but does not define the name of the corresponding resource`, 422);
    }
    return undefined;
  });
}

async function mutateCreate(pod: Pod, client: CredSpecClient, o: AdmitOptions): Promise<AdmissionResponse | Denial> {
  const patches: { op: string; path: string; value: string }[] = [];
  let hasGmsa = false;
  const denial = await eachWindowsOptions(pod, async (opts, kind, _name, index) => {
    const specName = opts.gmsaCredentialSpecName;
    if (!isSet(specName)) return undefined;
    hasGmsa = true;
    // Pre-set contents are left alone: /validate checks them.
    if (isSet(opts.gmsaCredentialSpec)) return undefined;
    const got = await client.contents(specName);
    if (!got.ok) return new Denial(got.message, got.code);
    const at = kind === 'container' ? `/containers/${index}` : '';
    patches.push({ op: 'add', path: `/spec${at}/securityContext/windowsOptions/gmsaCredentialSpec`, value: got.contents });
    return undefined;
  });
  if (denial) return denial;
  if (hasGmsa && o.randomHostname && !pod.spec?.hostname) {
    patches.push({ op: 'add', path: '/spec/hostname', value: (o.uuid ?? randomUUID)().slice(0, 15).toLowerCase() });
  }
  if (!patches.length) return { allowed: true };
  // json.Marshal of []map[string]string: each map's keys sorted (op, path, value).
  return { allowed: true, patch: Buffer.from(goMarshal(patches)).toString('base64'), patchType: 'JSONPatch' };
}

function validateUpdate(pod: Pod, old: Pod): Promise<Denial | undefined> {
  const oldContainers = new Map<string, WindowsSecurityContextOptions | undefined>();
  for (const c of old.spec?.containers ?? []) oldContainers.set(c.name ?? '', c.securityContext?.windowsOptions);
  return eachWindowsOptions(pod, (opts, kind, name) => {
    const before = (kind === 'pod' ? old.spec?.securityContext?.windowsOptions : oldContainers.get(name)) ?? {};
    const changed: string[] = [];
    if ((opts.gmsaCredentialSpecName ?? null) !== (before.gmsaCredentialSpecName ?? null)) changed.push('name');
    if ((opts.gmsaCredentialSpec ?? null) !== (before.gmsaCredentialSpec ?? null)) changed.push('contents');
    if (!changed.length) return undefined;
    return new Denial(`cannot update an existing pod's GMSA settings (GMSA ${changed.join(' and ')} modified on ${kind} ${goQuote(name)})`, 403);
  });
}

function asPod(raw: unknown): Pod | Denial {
  // json.Unmarshal of a missing object (empty RawExtension) fails before anything is looked at.
  if (raw === undefined) return new Denial('unable to unmarshall pod JSON object: unexpected end of JSON input', 400);
  if (raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    const kind = Array.isArray(raw) ? 'array' : typeof raw === 'boolean' ? 'bool' : typeof raw;
    return new Denial(`unable to unmarshall pod JSON object: json: cannot unmarshal ${kind} into Go value of type v1.Pod`, 400);
  }
  return raw as Pod;
}

/** deniedAdmissionResponse: allowed false, the error as the Status message with the webhook's code. */
function denied(d: Denial): AdmissionResponse {
  return { allowed: false, status: { metadata: {}, message: d.message, code: d.code } };
}

/** validateOrMutate: the response to one AdmissionRequest, uid not yet set. */
export async function admitPod(req: AdmissionRequest, op: Operation, client: CredSpecClient, o: AdmitOptions = {}): Promise<AdmissionResponse> {
  const kind = req.kind?.kind ?? '';
  if (kind !== 'Pod') return denied(new Denial(`expected a Pod object, got a ${kind}`, 400));
  const pod = asPod(req.object);
  if (pod instanceof Denial) return denied(pod);
  if (req.operation === 'CREATE') {
    if (op === 'MUTATE') {
      const r = await mutateCreate(pod, client, o);
      return r instanceof Denial ? denied(r) : r;
    }
    const d = await validateCreate(pod, req.namespace ?? '', client);
    return d ? denied(d) : { allowed: true };
  }
  if (req.operation === 'UPDATE') {
    // Updates are only validated, never mutated.
    if (op === 'MUTATE') return { allowed: true };
    const old = asPod(req.oldObject);
    if (old instanceof Denial) return denied(old);
    const d = await validateUpdate(pod, old);
    return d ? denied(d) : { allowed: true };
  }
  // The upstream text carries its typo.
  return denied(new Denial(`unpexpected operation ${req.operation ?? ''}`, 400));
}
