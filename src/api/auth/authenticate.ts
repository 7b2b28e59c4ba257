/**
 * Authentication of a private request, in Gate's order of checks: headers present → key known → timestamp
 * within the window → signature → caller IP in the key's whitelist → account not frozen → the route's
 * permission group granted → read-only keys only on GET. Pure apart from the HMAC; answers a result code.
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiRequest } from '../http/api-request.js';
import type { KeyStore, PermGroup } from './key-store.js';
import { verifySignature } from './signature.js';

export interface AuthOptions {
  /** Largest |server time − Timestamp| accepted, in seconds. */
  readonly windowS: number;
}

const TIMESTAMP = /^[0-9]{1,12}(\.[0-9]{1,9})?$/;

/** Ok (and sets req.key, req.uid) or the rejection. `nowUs`: wall time. */
export function authenticate(req: ApiRequest, keys: KeyStore, group: PermGroup, nowUs: number, options: AuthOptions): ResultCode {
  const h = req.headers;
  if (h.key === '' || h.timestamp === '' || h.sign === '') return ResultCode.MissingHeader;
  const key = keys.get(h.key);
  if (key === undefined) return ResultCode.InvalidKey;
  if (!TIMESTAMP.test(h.timestamp) || Math.abs(nowUs / 1e6 - Number(h.timestamp)) > options.windowS) return ResultCode.RequestExpired;
  if (!verifySignature(key.secret, req.method, req.path, req.rawQuery, req.body, h.timestamp, h.sign)) return ResultCode.InvalidSignature;
  if (key.ipWhitelist.length > 0 && !key.ipWhitelist.includes(req.ip)) return ResultCode.IpForbidden;
  const account = keys.account(key.uid);
  if (account?.locked === true) return account.mainUid === 0 ? ResultCode.AccountLocked : ResultCode.SubAccountLocked;
  const readOnly = key.perms.get(group);
  if (readOnly === undefined) return ResultCode.Forbidden;
  if (readOnly && req.method !== 'GET') return ResultCode.ReadOnly;
  req.key = key;
  req.uid = key.uid;
  return ResultCode.Ok;
}
