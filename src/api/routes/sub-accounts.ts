/**
 * Sub-account management (permission group `sub_accounts`, rate: sub-accounts, 80 / 10 s per endpoint):
 *   POST /sub_accounts                     {login_name, remark?, password?, email?} → 201 sub-account
 *   GET  /sub_accounts                     ?type=0 (all kinds) | 1 (normal; default) → sub-accounts
 *   GET  /sub_accounts/unified_mode        → [{user_id, is_unified, mode}]
 *   GET  /sub_accounts/{user_id}           → sub-account
 *   POST /sub_accounts/{user_id}/lock      → 204; the sub-account's keys and transfers get SUB_ACCOUNT_LOCKED
 *   POST /sub_accounts/{user_id}/unlock    → 204
 *
 * Only a main account has sub-accounts; an id that is not one of the caller's is SUB_ACCOUNT_NOT_FOUND.
 * A new sub-account is one AddUser command carrying its account and profile records (journaled together:
 * auth/identity-records.ts); lock and unlock put its account record. Password and email default to the
 * main account's (the simulator keeps none for main accounts, so ''). Passwords are never returned.
 */
import { MODE_NAMES } from '../../core/unified/valuation.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject, queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { directoryOf, type SubAccountProfile, SubAccountType } from '../sub-accounts/directory.js';
import { addUserCommand } from '../../engine/gateway.js';
import { putRecords, withRecords } from '../../engine/records.js';
import { accountKey, profileKey } from '../auth/identity-records.js';
import { applyAccount, profileRecord } from '../sub-accounts/identity.js';

const SUB = { kind: 'private', group: 'sub_accounts' } as const;
const FROZEN = 2;
const NORMAL = 1;

const optionalText = (v: unknown, max: number): string | undefined =>
  (v === undefined || v === null ? '' : typeof v === 'string' && v.length <= max ? v : undefined);

export function registerSubAccountRoutes(router: Router, deps: ApiDeps): void {
  const dir = directoryOf(deps);

  const render = (uid: number, p: SubAccountProfile): Record<string, unknown> => ({
    remark: p.remark, login_name: p.loginName, email: p.email,
    state: deps.keys.account(uid)?.locked === true ? FROZEN : NORMAL, type: p.type, user_id: uid, create_time: p.createTime,
  });

  router.add({ method: 'POST', pattern: '/api/v4/sub_accounts', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Sub-account body required');
      if (dir.isSub(req.uid)) return reply.error(ResultCode.NestedSubAccount);
      const login = body.login_name;
      if (login === undefined || login === null || login === '') return reply.error(ResultCode.MissingParam, 'login_name is required');
      if (typeof login !== 'string' || dir.checkLoginName(login) !== ResultCode.Ok) {
        return reply.error(ResultCode.InvalidParam, 'login_name must be 1 to 64 letters, digits or underscores, not taken');
      }
      const remark = optionalText(body.remark, 255);
      const email = optionalText(body.email, 255);
      const password = optionalText(body.password, 255);
      if (remark === undefined || email === undefined || password === undefined) {
        return reply.error(ResultCode.InvalidParam, 'remark, email and password must be strings');
      }
      const uid = dir.reserve(login);
      if (uid < 0) return reply.error(ResultCode.InvalidParam, 'login_name must be 1 to 64 letters, digits or underscores, not taken');
      const main = req.uid;
      const account = { main, locked: false };
      const profile: SubAccountProfile = {
        loginName: login, remark, email, type: SubAccountType.Normal, createTime: Math.floor(deps.gateway.clock.nowUs() / 1e6),
      };
      const cmd = withRecords(addUserCommand(uid, main), { [accountKey(uid)]: account, [profileKey(uid)]: profileRecord(profile) });
      deps.gateway.submit(cmd, (added) => {
        dir.release(uid, login, added === ResultCode.Ok);
        if (added !== ResultCode.Ok) return reply.error(added);
        applyAccount(deps.keys, uid, account);
        dir.add(uid, profile);
        reply.json(201, render(uid, profile));
      });
    } });

  router.add({ method: 'GET', pattern: '/api/v4/sub_accounts', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const type = queryParam(req, 'type') ?? '1';
      if (type !== '0' && type !== '1' && type !== '') return reply.error(ResultCode.InvalidParam, "type must be '0' (all) or '1' (normal)");
      const all = type === '0';
      reply.json(200, deps.keys.subAccountsOf(req.uid)
        .map((uid) => [uid, dir.profile(uid)] as const)
        .filter(([, p]) => all || p.type === SubAccountType.Normal)
        .map(([uid, p]) => render(uid, p)));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/sub_accounts/unified_mode', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const U = deps.gateway.exchange.unified;
      reply.json(200, deps.keys.subAccountsOf(req.uid).map((uid) => ({
        user_id: uid, is_unified: U.modeOf(uid) !== 0, mode: MODE_NAMES[U.modeOf(uid)],
      })));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/sub_accounts/{user_id}', access: SUB, limit: 'sub-accounts',
    handler: (req, reply) => {
      const uid = dir.resolve(req.uid, req.params[0]);
      if (uid < 0) return reply.error(uid);
      reply.json(200, render(uid, dir.profile(uid)));
    } });

  for (const [action, lock] of [['lock', true], ['unlock', false]] as const) {
    router.add({ method: 'POST', pattern: `/api/v4/sub_accounts/{user_id}/${action}`, access: SUB, limit: 'sub-accounts',
      handler: (req, reply) => {
        const uid = dir.resolve(req.uid, req.params[0]);
        if (uid < 0) return reply.error(uid);
        const account = { main: req.uid, locked: lock };
        putRecords(deps.gateway, { [accountKey(uid)]: account }, (code) => {
          if (code !== ResultCode.Ok) return reply.error(code);
          applyAccount(deps.keys, uid, account);
          reply.noContent();
        });
      } });
  }
}
