/**
 * The options countdown cancel (permission group `options`, rate class `private`):
 *   POST /options/countdown_cancel_all  {timeout, contract?, underlying?} → {triggerTime} (ms of the engine clock):
 *     when not renewed within `timeout` seconds (0 disarms; else 5..86400), the user's open options orders of the
 *     contract, else of the underlying, else of every contract are cancelled.
 * The timers are the spot and futures countdowns' (orders/countdown-cancels.ts): journaled records with the
 * `options-countdown/` prefix, keyed by user and scope (the contract's name, the underlying's, or all), run out
 * on the engine clock as one journal group of cancels.
 */
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import { parseOptionContract, parseUnderlying } from '../../gate/options-request.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject } from '../http/api-request.js';
import { CountdownCancels } from '../orders/countdown-cancels.js';
import type { Router } from '../router.js';

/** Records prefix of the options countdown timers. */
const OPTIONS_COUNTDOWN_PREFIX = 'options-countdown/';

export function registerOptionsCountdownRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const countdowns = new CountdownCancels(deps, {
    prefix: OPTIONS_COUNTDOWN_PREFIX,
    kind: AccountKind.Options,
    // A scope names a contract (it has dashes), an underlying, or nothing (every contract).
    marketsOf: (exchange, scope) => {
      const S = exchange.options;
      if (scope === '') return [...S.marketOf];
      const ci = S.contractIndex(scope);
      if (ci >= 0) return [S.marketOf[ci]!];
      const ui = S.underlyingIndex(scope);
      return S.contracts.flatMap((k, i) => (k.u === ui ? [S.marketOf[i]!] : []));
    },
  });
  deps.onClose.push(() => countdowns.close());
  deps.onClockMove.push(() => countdowns.check());

  router.add({ method: 'POST', pattern: '/api/v4/options/countdown_cancel_all', access: { kind: 'private', group: 'options' },
    limit: 'private', handler: (req, reply) => {
      const body = bodyObject(req);
      const timeout = body?.timeout;
      if (timeout === undefined || timeout === null) return reply.error(ResultCode.MissingParam, 'timeout is required');
      if (typeof timeout !== 'number' || !Number.isInteger(timeout) || (timeout !== 0 && timeout < 5) || timeout > 86_400) {
        return reply.error(ResultCode.InvalidParam, 'timeout must be 0 or an integer number of seconds in 5..86400');
      }
      const S = ex().options;
      const cur = ex().currencyIndex('USDT');
      if (cur < 0 || !ex().ledger.options.hasAccount(req.uid, cur)) return reply.error(ResultCode.UserNotFound);
      const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
      let ui = -1;
      if (given(body?.underlying)) {
        ui = parseUnderlying(ex(), body?.underlying);
        if (ui < 0) return reply.error(ui);
      }
      let scope = ui < 0 ? '' : S.underlyings[ui]!.name;
      if (given(body?.contract)) {
        const ci = parseOptionContract(ex(), body?.contract);
        if (ci < 0) return reply.error(ci);
        if (ui >= 0 && S.contracts[ci]!.u !== ui) return reply.error(ResultCode.InvalidParam, 'contract is not of that underlying');
        scope = S.contracts[ci]!.name;
      }
      countdowns.set(req.uid, scope, timeout, (code, triggerTime) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { triggerTime });
      });
    } });
}
