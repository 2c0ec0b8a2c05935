// Compact builders for the bootstrap policy tables: verbs and resources as space-separated words.

import type { PolicyRule } from '../rbac/rules.js';

const words = (s: string): string[] => s.split(' ').filter(Boolean);

/** A resource rule: `r('get list watch', ['', 'apps'], 'pods deployments')`, optionally limited to names. */
export function r(verbs: string, apiGroups: string[], resources: string, resourceNames?: string): PolicyRule {
  const rule: PolicyRule = { verbs: words(verbs), apiGroups, resources: words(resources) };
  if (resourceNames) rule.resourceNames = words(resourceNames);
  return rule;
}

/** A non-resource rule: `u('get', '/healthz /version')`. */
export function u(verbs: string, urls: string): PolicyRule {
  return { verbs: words(verbs), nonResourceURLs: words(urls) };
}

export const READ = 'get list watch';
export const WRITE = 'create delete deletecollection patch update';
/** The events rule nearly every component role ends with (bootstrappolicy eventsRule()). */
export const EVENTS = r('create patch update', ['', 'events.k8s.io'], 'events');
