/**
 * Who may use the control plane: with a token configured, requests carrying it in X-Sim-Token (any
 * address); without one, loopback callers only. Anything else is FORBIDDEN.
 */
import { timingSafeEqual } from 'node:crypto';
import { ResultCode } from '../../core/result-code.js';
import type { ApiRequest } from '../http/api-request.js';

const LOOPBACK = /^(127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}|::1|0{0,4}(:0{0,4}){6}:0{0,3}1)$/;

export const isLoopback = (ip: string): boolean => LOOPBACK.test(ip);

export function checkControlAccess(req: ApiRequest, token: string): ResultCode {
  if (token === '') return isLoopback(req.ip) ? ResultCode.Ok : ResultCode.Forbidden;
  const given = Buffer.from(req.headers.simToken);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want) ? ResultCode.Ok : ResultCode.Forbidden;
}
