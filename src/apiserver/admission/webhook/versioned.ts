// The object as a webhook registered for an equivalent resource sees it: matchPolicy Equivalent calls a webhook for
// apps/v1 deployments on a request through another version of the same stored resource, with the object converted
// to the version the webhook registered for, and a mutating webhook's patch converted back
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/generic/conversion.go, mutating/dispatcher.go).
// In the served set the equivalences are the resources stored alike: autoscaling v1/v2 HorizontalPodAutoscalers,
// core and events.k8s.io Events, and every served version of a CustomResourceDefinition (through its conversion
// webhook when it has one: versionedAttributesAsync).

import type { ResourceDecl } from '../../../api/interfaces.js';
import type { KubeObject } from '../../../api/types.js';
import { cloneJson } from '../../../util/json.js';
import type { AdmissionAttributes } from '../interfaces.js';
import { requestKind, type Invocation } from './review.js';

/** Converts `obj` (in `from`'s version) to `to`'s version through their shared storage form; never changes `obj`. */
export function convertObject(obj: KubeObject, from: ResourceDecl, to: ResourceDecl): KubeObject {
  const copy = cloneJson(obj);
  if (from === to) return copy;
  const stored = from.storedAs ? from.storedAs.codec.toStorage(copy) : copy;
  return to.storedAs ? to.storedAs.codec.fromStorage(cloneJson(stored)) : stored;
}

/**
 * convertObject for every resource: a custom resource whose CRD converts through a webhook goes to that webhook
 * (admission.NewVersionedAttributes through the CR converter); a failed conversion throws its StatusError.
 */
export async function convertObjectAsync(obj: KubeObject, from: ResourceDecl, to: ResourceDecl): Promise<KubeObject> {
  const call = from === to ? undefined : to.storedAs?.codec.convert;
  if (!call) return convertObject(obj, from, to);
  return (await call.fromStorage([cloneJson(obj)], false))[0];
}

/**
 * Whether the webhook sees the object in another kind than the request's (NewVersionedAttributes converts only when
 * the invocation's kind differs): matched through another version of the resource, unless the object is a
 * subresource's whose kind is the same there (an autoscaling/v1 Scale of any version of a custom resource).
 */
export function isConverted(a: AdmissionAttributes, inv: Invocation): inv is Invocation & { decl: ResourceDecl } {
  if (inv.decl === undefined || inv.decl === a.decl) return false;
  const k = requestKind(a);
  return k.group !== inv.kind.group || k.version !== inv.kind.version || k.kind !== inv.kind.kind;
}

/**
 * The attributes with object and oldObject in the invocation's version (the request's own fields stay as they came:
 * requestKind, requestResource). The same attributes when no conversion is needed.
 */
export function versionedAttributes(a: AdmissionAttributes, inv: Invocation): AdmissionAttributes {
  if (!isConverted(a, inv)) return a;
  return {
    ...a,
    object: a.object && convertObject(a.object, a.decl, inv.decl),
    oldObject: a.oldObject && convertObject(a.oldObject, a.decl, inv.decl),
  };
}

/** versionedAttributes, converting custom resources through their CRD's conversion webhook where it has one. */
export async function versionedAttributesAsync(a: AdmissionAttributes, inv: Invocation): Promise<AdmissionAttributes> {
  if (!isConverted(a, inv)) return a;
  return {
    ...a,
    object: a.object && await convertObjectAsync(a.object, a.decl, inv.decl),
    oldObject: a.oldObject && await convertObjectAsync(a.oldObject, a.decl, inv.decl),
  };
}
