/**
 * API keys of sub-accounts (permission group `sub_accounts`, rate: sub-accounts):
 *   POST   /sub_accounts/{user_id}/keys          {mode?, name?, perms?, ip_whitelist?} → key with its secret
 *   GET    /sub_accounts/{user_id}/keys          → keys (never a secret)
 *   GET    /sub_accounts/{user_id}/keys/{key}    → key
 *   PUT    /sub_accounts/{user_id}/keys/{key}    → 204; `mode` cannot change; omitted perms / ip_whitelist clear them
 *   DELETE /sub_accounts/{user_id}/keys/{key}    → 204
 *
 * perms: [{name, read_only}] with Gate's group names; ip_whitelist: at most 20 IPv4 addresses. The secret
 * appears only in the creation response. At most `limit` keys per account (BAD_REQUEST beyond); changes
 * reach authentication after the configured delay (see key-admin.ts). An unknown key is NOT_FOUND.
 * Every change is a key record put through the engine (journaled); the answer follows its command.
 */
import { isPermGroup, type PermGroup } from '../auth/key-store.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject } from '../http/api-request.js';
import type { Router } from '../router.js';
import { directoryOf } from '../sub-accounts/directory.js';
import type { KeyRecord } from '../sub-accounts/key-admin.js';
import { keyKey, type KeyRecordValue } from '../auth/identity-records.js';
import { putRecords } from '../../engine/records.js';

const SUB = { kind: 'private', group: 'sub_accounts' } as const;
const IPV4 = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;
const MAX_IPS = 20;

type Fields = Readonly<Record<string, unknown>>;

/** perms of a key body (omitted: none), or undefined when malformed. */
function parsePerms(v: unknown): Map<PermGroup, boolean> | undefined {
  const out = new Map<PermGroup, boolean>();
  if (v === undefined || v === null) return out;
  if (!Array.isArray(v)) return undefined;
  for (const p of v as unknown[]) {
    if (typeof p !== 'object' || p === null) return undefined;
    const { name, read_only: ro } = p as Fields;
    if (!isPermGroup(name) || (ro !== undefined && ro !== null && typeof ro !== 'boolean')) return undefined;
    out.set(name, ro === true);
  }
  return out;
}

/** ip_whitelist of a key body (omitted: none), or undefined when malformed. */
function parseIps(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > MAX_IPS || !v.every((ip) => typeof ip === 'string' && IPV4.test(ip))) return undefined;
  return [...new Set(v as string[])];
}

export function registerSubAccountKeyRoutes(router: Router, deps: ApiDeps): void {
  const dir = directoryOf(deps);
  const admin = deps.keyAdmin;
  const nowS = (): number => Math.floor(deps.gateway.clock.nowUs() / 1e6);

  /** Puts key record `value`, applies it once its command succeeded, then answers with `then`. */
  const change = (key: string, value: KeyRecordValue, reply: { error(code: number): void }, then: () => void): void => {
    putRecords(deps.gateway, { [keyKey(key)]: value }, (code) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      admin.apply(key, value);
      then();
    });
  };

  const render = (r: KeyRecord): Record<string, unknown> => ({
    user_id: r.uid, mode: r.mode, name: r.name,
    perms: [...r.perms].map(([name, ro]) => ({ name, read_only: ro })),
    ip_whitelist: r.ipWhitelist, key: r.key, state: 1, created_at: r.createdAt, updated_at: r.updatedAt, last_access: 0,
  });

  /** name, perms and ip_whitelist of a body, or an error message. */
  const fieldsOf = (body: Fields): Pick<KeyRecord, 'name' | 'perms' | 'ipWhitelist'> | string => {
    const name = body.name ?? '';
    if (typeof name !== 'string' || name.length > 255) return 'name must be a string';
    const perms = parsePerms(body.perms);
    if (perms === undefined) return 'perms must be [{name, read_only}] with Gate\'s permission groups';
    const ipWhitelist = parseIps(body.ip_whitelist);
    if (ipWhitelist === undefined) return `ip_whitelist must be at most ${MAX_IPS} IPv4 addresses`;
    return { name, perms, ipWhitelist };
  };

  router.add({ method: 'POST', pattern: '/api/v4/sub_accounts/{user_id}/keys', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const uid = dir.resolve(req.uid, req.params[0]);
      if (uid < 0) return reply.error(uid);
      const body = bodyObject(req) ?? {};
      const mode = body.mode ?? 1;
      if (mode !== 1 && mode !== 2) return reply.error(ResultCode.InvalidParam, 'mode must be 1 (classic) or 2 (unified)');
      const fields = fieldsOf(body);
      if (typeof fields === 'string') return reply.error(ResultCode.InvalidParam, fields);
      if (!admin.hasRoom(uid)) return reply.error(ResultCode.TooManyKeys, `at most ${admin.limit} API keys per account`);
      const { key, value } = admin.created(uid, { ...fields, mode }, nowS());
      change(key, value, reply, () => reply.json(200, { ...render(admin.get(uid, key)!), secret: value.secret }));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/sub_accounts/{user_id}/keys', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const uid = dir.resolve(req.uid, req.params[0]);
      if (uid < 0) return reply.error(uid);
      reply.json(200, admin.list(uid).map(render));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/sub_accounts/{user_id}/keys/{key}', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const uid = dir.resolve(req.uid, req.params[0]);
      if (uid < 0) return reply.error(uid);
      const r = admin.get(uid, req.params[1]!);
      if (r === undefined) return reply.error(ResultCode.NotFound, 'API key not found');
      reply.json(200, render(r));
    } });

  router.add({ method: 'PUT', pattern: '/api/v4/sub_accounts/{user_id}/keys/{key}', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const uid = dir.resolve(req.uid, req.params[0]);
      if (uid < 0) return reply.error(uid);
      const r = admin.get(uid, req.params[1]!);
      if (r === undefined) return reply.error(ResultCode.NotFound, 'API key not found');
      const body = bodyObject(req) ?? {};
      if (body.mode !== undefined && body.mode !== null && body.mode !== r.mode) return reply.error(ResultCode.InvalidParam, 'mode cannot be changed');
      const fields = fieldsOf({ ...body, name: body.name ?? r.name });
      if (typeof fields === 'string') return reply.error(ResultCode.InvalidParam, fields);
      change(r.key, admin.updated(uid, r.key, fields, nowS())!, reply, () => reply.noContent());
    } });

  router.add({ method: 'DELETE', pattern: '/api/v4/sub_accounts/{user_id}/keys/{key}', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const uid = dir.resolve(req.uid, req.params[0]);
      if (uid < 0) return reply.error(uid);
      const value = admin.removed(uid, req.params[1]!, nowS());
      if (value === undefined) return reply.error(ResultCode.NotFound, 'API key not found');
      change(req.params[1]!, value, reply, () => reply.noContent());
    } });
}
