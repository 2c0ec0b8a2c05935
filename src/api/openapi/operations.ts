// The REST operations of each declared resource, in a neutral form that v2.ts and v3.ts render.
// Paths, verbs-to-methods, x-kubernetes-action and operation ids follow kube-apiserver
// (apiserver pkg/endpoints/installer.go registerResourceHandlers; operation ids from builder/openapi.go).

import type { ResourceDecl } from '../interfaces.js';
import {
  DELETE_PARAMS,
  LIST_PARAMS,
  PATCH_PARAMS,
  PATH_NAME,
  PATH_NAMESPACE,
  PRETTY,
  WRITE_PARAMS,
  type ParamSpec,
} from './parameters.js';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

export interface OperationSpec {
  path: string;
  method: Method;
  operationId: string;
  description: string;
  tag: string;
  /** x-kubernetes-action */
  action: 'list' | 'post' | 'deletecollection' | 'get' | 'put' | 'patch' | 'delete';
  gvk: Gvk;
  params: ParamSpec[];
  body?: { definition: string; contentTypes: string[]; required: boolean };
  responses: { code: string; description: string; definition?: string }[];
}

/** What the operations of one resource refer to in components.schemas. */
export interface ResourceDefs {
  kind: string;
  list: string;
}

export const STATUS_DEF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
export const PATCH_DEF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
export const DELETE_OPTIONS_DEF = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
export const SCALE_DEF = 'io.k8s.api.autoscaling.v1.Scale';

/** The patch types kube-apiserver accepts (apiserver pkg/endpoints/handlers/patch.go). */
export const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

const DEFAULT_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

/** "apps" -> "Apps", "rbac.authorization.k8s.io" -> "RbacAuthorization", "" -> "Core". */
export function groupIdent(group: string): string {
  if (!group) return 'Core';
  return group
    .replace(/\.k8s\.io$/, '')
    .split(/[.-]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}

/** "api/v1" or "apis/apps/v1": the key of a group version in /openapi/v3. */
export function groupVersionPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export function resourceOperations(decl: ResourceDecl, defs: ResourceDefs): OperationSpec[] {
  const verbs = new Set(decl.verbs ?? DEFAULT_VERBS);
  const gvk: Gvk = { group: decl.group, version: decl.version, kind: decl.kind };
  const tag = `${groupIdent(decl.group).replace(/^./, (c) => c.toLowerCase())}_${decl.version}`;
  const id = `${groupIdent(decl.group)}${decl.version.charAt(0).toUpperCase()}${decl.version.slice(1)}`;
  const ns = decl.namespaced ? 'Namespaced' : '';
  const base = `/${groupVersionPath(decl.group, decl.version)}`;
  const collection = decl.namespaced ? `${base}/namespaces/{namespace}/${decl.plural}` : `${base}/${decl.plural}`;
  const item = `${collection}/{name}`;
  const scope = decl.namespaced ? [PATH_NAMESPACE] : [];
  const ops: OperationSpec[] = [];
  const ok = (definition: string) => ({ code: '200', description: 'OK', definition });
  const unauthorized = { code: '401', description: 'Unauthorized' };
  const created = (definition: string) => ({ code: '201', description: 'Created', definition });
  const writeBody = (definition: string) => ({ definition, contentTypes: ['*/*'], required: true });
  const patchBody = { definition: PATCH_DEF, contentTypes: PATCH_CONTENT_TYPES, required: true };
  const deleteBody = { definition: DELETE_OPTIONS_DEF, contentTypes: ['*/*'], required: false };
  const op = (o: Omit<OperationSpec, 'gvk' | 'tag'> & { gvk?: Gvk }) => ops.push({ gvk, tag, ...o });

  if (verbs.has('list')) {
    op({
      path: collection,
      method: 'get',
      action: 'list',
      operationId: `list${id}${ns}${decl.kind}`,
      description: `list or watch objects of kind ${decl.kind}`,
      params: [...scope, PRETTY, ...LIST_PARAMS],
      responses: [ok(defs.list), unauthorized],
    });
    if (decl.namespaced) {
      op({
        path: `${base}/${decl.plural}`,
        method: 'get',
        action: 'list',
        operationId: `list${id}${decl.kind}ForAllNamespaces`,
        description: `list or watch objects of kind ${decl.kind}`,
        params: [PRETTY, ...LIST_PARAMS],
        responses: [ok(defs.list), unauthorized],
      });
    }
  }
  if (verbs.has('create')) {
    op({
      path: collection,
      method: 'post',
      action: 'post',
      operationId: `create${id}${ns}${decl.kind}`,
      description: `create a ${decl.kind}`,
      params: [...scope, PRETTY, ...WRITE_PARAMS],
      body: writeBody(defs.kind),
      responses: [ok(defs.kind), created(defs.kind), { code: '202', description: 'Accepted', definition: defs.kind }, unauthorized],
    });
  }
  if (verbs.has('deletecollection')) {
    op({
      path: collection,
      method: 'delete',
      action: 'deletecollection',
      operationId: `delete${id}Collection${ns}${decl.kind}`,
      description: `delete collection of ${decl.kind}`,
      params: [...scope, PRETTY, ...DELETE_PARAMS, ...LIST_PARAMS.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks')],
      body: deleteBody,
      responses: [ok(STATUS_DEF), unauthorized],
    });
  }
  const itemOps = (suffix: string, what: string, idSuffix: string, target: Gvk, def: string, allowed: (v: string) => boolean) => {
    const path = `${item}${suffix}`;
    const params = [PATH_NAME, ...scope, PRETTY];
    if (allowed('get')) {
      op({ path, method: 'get', action: 'get', gvk: target, operationId: `read${id}${ns}${decl.kind}${idSuffix}`, description: `read ${what}`, params, responses: [ok(def), unauthorized] });
    }
    if (allowed('update')) {
      op({
        path,
        method: 'put',
        action: 'put',
        gvk: target,
        operationId: `replace${id}${ns}${decl.kind}${idSuffix}`,
        description: `replace ${what}`,
        params: [...params, ...WRITE_PARAMS],
        body: writeBody(def),
        responses: [ok(def), created(def), unauthorized],
      });
    }
    if (allowed('patch')) {
      op({
        path,
        method: 'patch',
        action: 'patch',
        gvk: target,
        operationId: `patch${id}${ns}${decl.kind}${idSuffix}`,
        description: `partially update ${what}`,
        params: [...params, ...PATCH_PARAMS],
        body: patchBody,
        responses: [ok(def), created(def), unauthorized],
      });
    }
  };
  itemOps('', `the specified ${decl.kind}`, '', gvk, defs.kind, (v) => verbs.has(v));
  if (verbs.has('delete')) {
    op({
      path: item,
      method: 'delete',
      action: 'delete',
      operationId: `delete${id}${ns}${decl.kind}`,
      description: `delete a ${decl.kind}`,
      params: [PATH_NAME, ...scope, PRETTY, ...DELETE_PARAMS],
      body: deleteBody,
      responses: [ok(STATUS_DEF), { code: '202', description: 'Accepted', definition: STATUS_DEF }, unauthorized],
    });
  }
  // Subresources expose get/update/patch only (installer.go: status and scale storages).
  if (decl.subresources?.status) {
    itemOps('/status', `status of the specified ${decl.kind}`, 'Status', gvk, defs.kind, () => true);
  }
  if (decl.subresources?.scale) {
    const scaleGvk = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
    itemOps('/scale', `scale of the specified ${decl.kind}`, 'Scale', scaleGvk, SCALE_DEF, () => true);
  }
  return ops;
}
