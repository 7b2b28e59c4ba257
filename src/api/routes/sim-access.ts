/**
 * Who may use the control plane: with a token configured, requests carrying it (X-Sim-Token over HTTP; the
 * subscription's `auth.token` on `/ws/sim`), from any address; without one, loopback callers only. Anything else is
 * FORBIDDEN. The comparison takes the same time whatever the given token is (for tokens of the right length).
 */
import { timingSafeEqual } from 'node:crypto';
import { ResultCode } from '../../core/result-code.js';
import type { ApiRequest } from '../http/api-request.js';

const LOOPBACK = /^(127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}|::1|0{0,4}(:0{0,4}){6}:0{0,3}1)$/;

export const isLoopback = (ip: string): boolean => LOOPBACK.test(ip);

/** The rule for a caller at `ip` presenting `given` ('' for none) when the configured token is `token` ('' for none). */
export function controlAccess(ip: string, given: string, token: string): ResultCode {
  if (token === '') return isLoopback(ip) ? ResultCode.Ok : ResultCode.Forbidden;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b) ? ResultCode.Ok : ResultCode.Forbidden;
}

export function checkControlAccess(req: ApiRequest, token: string): ResultCode {
  return controlAccess(req.ip, req.headers.simToken, token);
}
