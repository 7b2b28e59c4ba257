/**
 * Authentication over the socket, with Gate's two signatures (reference C):
 *
 *   subscription:  SIGN = hex(HMAC-SHA512(secret, "channel=<channel>&event=<event>&time=<time>"))
 *                  ccxt and Go gatews sign with event=subscribe even when unsubscribing, Python gatews
 *                  signs the actual event: an unsubscribe accepts either.
 *   order entry:   signature = hex(HMAC-SHA512(secret, "api\n<channel>\n<JSON(req_param)>\n<timestamp>"))
 *                  JSON is compact (ccxt) or Python's `", "`/`": "` separators (gatews): both are tried.
 *
 * Then, as for REST: the timestamp within the window, the caller's IP in the key's whitelist, the account
 * not locked, the `spot` permission (`futures` for futures order entry; read-only keys only for reads). Answers a result code (→ Gate label).
 * Cost: one or two HMAC-SHA512 per check.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ResultCode } from '../../core/result-code.js';
import type { ApiKey, KeyStore, PermGroup } from '../auth/key-store.js';

export interface WsAuthContext {
  readonly keys: KeyStore;
  /** Largest |now − time| accepted, seconds. */
  readonly windowS: number;
  readonly nowS: number;
  readonly ip: string;
}

export type WsAuthResult = { readonly code: typeof ResultCode.Ok; readonly key: ApiKey } | { readonly code: ResultCode; readonly key?: undefined };

const HEX_SIGN = /^[0-9a-fA-F]{128}$/;

function macEquals(secret: string, text: string, sign: string): boolean {
  const mac = createHmac('sha512', secret).update(text).digest();
  return timingSafeEqual(mac, Buffer.from(sign.toLowerCase(), 'hex'));
}

/** The checks after the signature: IP, lock, permission. */
function checkKey(ctx: WsAuthContext, key: ApiKey, write: boolean, group: PermGroup = 'spot'): ResultCode {
  if (key.ipWhitelist.length > 0 && !key.ipWhitelist.includes(ctx.ip)) return ResultCode.IpForbidden;
  const account = ctx.keys.account(key.uid);
  if (account?.locked === true) return account.mainUid === 0 ? ResultCode.AccountLocked : ResultCode.SubAccountLocked;
  const readOnly = key.perms.get(group);
  if (readOnly === undefined) return ResultCode.Forbidden;
  if (readOnly && write) return ResultCode.ReadOnly;
  return ResultCode.Ok;
}

const withinWindow = (ctx: WsAuthContext, time: number): boolean => Number.isFinite(time) && Math.abs(ctx.nowS - time) <= ctx.windowS;

/** A private subscription's `auth` for `channel`/`event` at the request's `time` (seconds); the key needs `group` (read suffices). */
export function verifySubscription(ctx: WsAuthContext, auth: { KEY: string; SIGN: string } | undefined, channel: string,
  event: string, time: number, group: PermGroup = 'spot'): WsAuthResult {
  if (auth === undefined || auth.KEY === '' || auth.SIGN === '') return { code: ResultCode.MissingHeader };
  const key = ctx.keys.get(auth.KEY);
  if (key === undefined) return { code: ResultCode.InvalidKey };
  if (!withinWindow(ctx, time)) return { code: ResultCode.RequestExpired };
  if (!HEX_SIGN.test(auth.SIGN)) return { code: ResultCode.InvalidSignature };
  const events = event === 'unsubscribe' ? ['subscribe', 'unsubscribe'] : [event];
  const signed = events.some((e) => macEquals(key.secret, `channel=${channel}&event=${e}&time=${time}`, auth.SIGN));
  if (!signed) return { code: ResultCode.InvalidSignature };
  const code = checkKey(ctx, key, false, group);
  return code === ResultCode.Ok ? { code, key } : { code };
}

/** Python's json.dumps default separators (", " and ": "), from a parsed value. */
export function pythonJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pythonJson).join(', ')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pythonJson(x)}`).join(', ')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** An order-entry request's signature; `write` for channels that change state; `group` the permission it needs. */
export function verifyApiRequest(ctx: WsAuthContext, apiKey: unknown, signature: unknown, timestamp: unknown, channel: string,
  reqParam: unknown, write: boolean, group: PermGroup = 'spot'): WsAuthResult {
  if (typeof apiKey !== 'string' || apiKey === '' || typeof signature !== 'string' || signature === '') return { code: ResultCode.MissingHeader };
  const key = ctx.keys.get(apiKey);
  if (key === undefined) return { code: ResultCode.InvalidKey };
  const ts = typeof timestamp === 'string' || typeof timestamp === 'number' ? String(timestamp) : '';
  if (!/^[0-9]{1,12}(\.[0-9]{1,9})?$/.test(ts) || !withinWindow(ctx, Number(ts))) return { code: ResultCode.RequestExpired };
  if (!HEX_SIGN.test(signature)) return { code: ResultCode.InvalidSignature };
  const param = reqParam ?? {};
  const forms = [JSON.stringify(param), pythonJson(param)];
  const signed = forms.some((f, i) => (i === 0 || f !== forms[0]) && macEquals(key.secret, `api\n${channel}\n${f}\n${ts}`, signature));
  if (!signed) return { code: ResultCode.InvalidSignature };
  const code = checkKey(ctx, key, write, group);
  return code === ResultCode.Ok ? { code, key } : { code };
}
